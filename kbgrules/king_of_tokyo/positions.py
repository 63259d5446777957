"""King of Tokyo positions as log text: the lines that state a game's moment (``position_text``),
and what a position read back lost (``unstated``), which makes sure a stated position is whole."""

from __future__ import annotations

import dataclasses

from kbgrules.king_of_tokyo.monster import copy_counter
from kbgrules.king_of_tokyo.moves import SHORT
from kbgrules.king_of_tokyo.state import KingOfTokyoState


def _moment(st: KingOfTokyoState, must_end: bool) -> str | None:
    """How the ``turn`` line states this moment of the active monster's turn; None where none can."""
    if st.phase == "roll" and st.rolls == 0 and not st.dice:
        return "started"  # its start-of-turn effects are given (`turn NAME` alone would give them again)
    if st.phase == "roll" and st.rolls == 1 and st.dice:
        return "rolled " + " ".join(SHORT[f] for f in st.dice)
    if st.phase == "enter":
        return "enter"
    if st.phase == "buy":
        return "end" if must_end else "buy"
    return None


def position_lines(st: KingOfTokyoState, must_end: bool = False) -> list[str] | None:
    """The position statements of ``st`` (each monster, the market, the piles, whose turn and where
    in it), or None at a moment a position cannot state (between re-rolls, a decision pending)."""
    moment = _moment(st, must_end)
    if moment is None:
        return None
    out = []
    ev = st.rs.evolution
    if ev is not None and ev.draft:
        # each drafted deck as the set-up line gives it: the cards left in it and the ones the monster
        # line names (in play, in hand), which reading the monster line takes out of it again
        for m in st.monsters:
            deck = copy_counter(m.evo_deck)
            deck.update(c for c in (*m.evolutions, *m.hand) if c != "?")
            out.append(" ".join([m.name, "evolutions", *sorted(deck.elements())]))
    out += [_monster_line(m) for m in st.monsters]
    out.append("market " + " ".join(st.market))
    if st.discards:
        out.append("discard " + " ".join(c for c, n in sorted(st.discards.items()) for _ in range(n)))
    if st.deck_order:
        out.append("deck " + " ".join(st.deck_order))
    if st.tile_sides == "mixed":
        out.append("tiles " + " ".join(st.tile_faces.get(r, r) for r in st.tile_supply))
    out.append(f"turn {st.players[st.active]} {moment}")
    return out


# what a stated position does not restore, or restores by its own rules: the timeline, the turn count, the messages
_UNCOMPARED = frozenset(("turn_ends", "log", "turn_number"))


def _reads_the_turn(st: KingOfTokyoState, m: object) -> bool:
    from kbgrules.king_of_tokyo.monster import Monster

    assert isinstance(m, Monster)
    return any(st.cards[k].hook is not None or any("dealt_no_damage" in (e.get("if") or {})
                                                   for e in st.cards[k].effects) for k in st.in_play(m))


# evolutions whose hooks read where their holder stood when the turn began (the last turn's end)
_READS_TURN_START = frozenset(("eats-shoots-and-leaves", "feline-motor"))


def unstated(st: KingOfTokyoState, back: KingOfTokyoState) -> list[str]:
    """What of ``st`` the position read back as ``back`` lost (state attribute names, and monster fields as
    ``NAME.field``): empty when the position says it all."""
    a, b = st._snapshot(), back._snapshot()
    skip = set(_UNCOMPARED)
    if st.phase == "buy":  # the dice are resolved: only cards with code, or a "dealt no damage" condition, read them
        skip |= {"dice", "rolls", "smashes"}
        if not any(_reads_the_turn(st, m) for m in st.monsters):
            skip |= {"final_dice", "smash_damage", "turn_losses", "dealt_damage"}
    lost = [k for k in a if k not in skip and k != "monsters" and a[k] != b[k]]
    for m, n in zip(st.monsters, back.monsters, strict=True):
        for f in dataclasses.fields(m):
            x, y = getattr(m, f.name), getattr(n, f.name)
            if f.name == "shielded_turn":
                x, y = x == st.turn_number, y == back.turn_number
            if x != y:
                lost.append(f"{m.name}.{f.name}")
    began = st.turn_ends[-1][1] if st.turn_ends else ()  # each monster's row when this turn began
    for i, m in enumerate(st.monsters):
        if began and began[i][3] in ("city", "bay") and _READS_TURN_START & {*m.hand, *m.evolutions}:
            lost.append(f"{m.name}'s place when the turn began")  # a position starts with no turn before it
    if (st.enter_snapshot is not None and st.enter_snapshot[0] == st.turn_number) != (
            back.enter_snapshot is not None and back.enter_snapshot[0] == back.turn_number):
        lost.append("enter_snapshot")
    return lost


def _monster_line(m: object) -> str:
    from kbgrules.king_of_tokyo.monster import Monster

    assert isinstance(m, Monster)
    parts = [f"{m.name} is", f"hp={m.hp}", f"vp={m.vp}", f"energy={m.energy}"]
    if m.location != "outside":
        parts.append(f"place={m.location}")
    if m.cards:
        parts.append("cards=" + ",".join(m.cards))
    parts += [f"{k}={v}" for k, v in m.tokens.items() if v and k in ("poison", "shrink", "smoke")]
    if m.wickedness:
        parts.append(f"wickedness={m.wickedness}")
    if m.tiles:
        parts.append("tiles=" + ",".join(m.tiles))
    if m.evolutions:
        parts.append("evolutions=" + ",".join(m.evolutions))
    if m.hand:
        parts.append("hand=" + ",".join(m.hand))
    if m.dice_tokens:
        parts.append(f"dicetokens={m.dice_tokens}")
    if m.eliminated:
        parts.append("eliminated")
    return " ".join(parts)
