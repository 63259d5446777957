"""King of Tokyo positions as log text: the lines that state a game's moment (``position_text``),
and what a position read back lost (``unstated``), which makes sure a stated position is whole."""

from __future__ import annotations

import dataclasses

from kbgrules.king_of_tokyo.hooks import HOOKS, Hook
from kbgrules.king_of_tokyo.monster import copy_counter
from kbgrules.king_of_tokyo.moves import SHORT
from kbgrules.king_of_tokyo.state import KingOfTokyoState


def _faces(dice: list[str]) -> str:
    return "".join(" " + SHORT[f] for f in dice)


def _moment(st: KingOfTokyoState, must_end: bool) -> str | None:
    """How the ``turn`` line states this moment of the active monster's turn; None where none can."""
    if st.phase == "roll" and st.rolls == 0 and not st.dice:
        return "started"  # its start-of-turn effects are given (`turn NAME` alone would give them again)
    if st.phase == "roll" and st.rolls and st.dice:
        return "rolled" + _faces(st.dice) + (f" rolls={st.rolls}" if st.rolls > 1 else "")
    hit = " hit=" + ",".join(f"{st.players[i]}:{n}" for i, n in st.smash_damage.items()) if st.smash_damage else ""
    if st.phase == "decide" and st.final_dice and hit:
        return "decide" + _faces(st.final_dice) + hit
    if st.phase == "enter":
        return "enter"
    if st.phase == "buy":
        return ("end" if must_end else "buy") + _faces(st.final_dice) + hit + (" bought" if st.bought else "")
    return None


def _red(st: KingOfTokyoState, tile: str) -> str:
    """The id a physical wickedness tile goes by in the supply (its red side, or its only side)."""
    card = st.cards[f"tile:{tile}"]
    return tile if card.side == "red" or not card.back else card.back


def _tiles_out(st: KingOfTokyoState) -> list[str]:
    """The wickedness tiles out of the game: not in the supply and held by no monster."""
    held = {_red(st, t) for m in st.monsters for t in m.tiles}
    return [t.id for t in st.rs.tiles if (t.side == "red" or not t.back)
            and t.id not in st.tile_supply and t.id not in held]


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
            deck.update(c for c in (*m.evolutions, *m.hand, *(+m.evo_discard).elements()) if c != "?")
            out.append(" ".join([m.name, "evolutions", *sorted(deck.elements())]))
    out += [_monster_line(st, i) for i in range(len(st.monsters))]
    out.append("market " + " ".join(st.market))
    gone = [c for c, n in sorted(st.discards.items()) for _ in range(n)]
    if st.rs.tiles:
        gone += _tiles_out(st)
    if gone:
        out.append("discard " + " ".join(gone))
    if st.deck_order:
        out.append("deck " + " ".join(st.deck_order))
    if st.tile_sides == "mixed":
        out.append("tiles " + " ".join(st.tile_faces.get(r, r) for r in st.tile_supply))
    out.append(f"turn {st.players[st.active]} {moment}")
    return out


# what a stated position does not restore, or restores by its own rules: the timeline, the turn count, the messages
_UNCOMPARED = frozenset(("turn_ends", "log", "turn_number", "turn_began"))  # turn_began: by began_at


# evolutions whose code reads the life this turn's dice took, once they are resolved
_READ_AFTER_RESOLVING = frozenset(("freeze-ray", "simian-scamper", "chest-thumping", "precision-field-support",
                                   "tune-up", "lightning-armor", "target-acquired"))


def _reads_the_turn(st: KingOfTokyoState) -> bool:
    """Could a card in the game read the damage this turn's dice dealt (which no position states)?"""
    for m in st.monsters:
        if any("dealt_no_damage" in (e.get("if") or {}) for k in st.in_play(m) for e in st.cards[k].effects):
            return True
        evolutions = {*m.evolutions, *m.hand}
        if "?" in m.hand:
            evolutions |= {e for e, n in m.evo_deck.items() if n > 0}
        if "icy-reflection" in evolutions:
            evolutions |= {e for o in st.monsters for e in o.evolutions}
        if evolutions & _READ_AFTER_RESOLVING:
            return True
    return False


def _live(stored: dict[str, int], turn: int) -> dict[str, int]:
    """A monster's card memory without what belongs to a turn gone by (``CARD:turn`` marks and their kin)."""
    stale = {k.partition(":")[0] for k, v in stored.items() if k.endswith((":turn", ":charge")) and v != turn}
    return {k: v for k, v in stored.items() if ":" not in k or k.partition(":")[0] not in stale}


# what an eliminated monster leaves behind that nothing reads again
_GONE_WITH_THE_MONSTER = frozenset(("evo_deck", "evo_discard", "evo_bottom", "stored", "hand", "secret"))

def unstated(st: KingOfTokyoState, back: KingOfTokyoState) -> list[str]:
    """What of ``st`` the position read back as ``back`` lost (state attribute names, and monster fields as
    ``NAME.field``): empty when the position says it all."""
    a, b = st._snapshot(), back._snapshot()
    skip = set(_UNCOMPARED)
    if st.phase in ("decide", "enter", "buy"):  # the dice are resolved: their count of rolls is read no more
        skip |= {"rolls"}
        a["smashes"], b["smashes"] = bool(a["smashes"]), bool(b["smashes"])  # 2011: whether it may enter
    if st.phase == "buy" and not _reads_the_turn(st):
        skip |= {"smashes", "smash_damage", "turn_losses", "dealt_damage"}
    if not any("opportunist" in st.in_play(m) for m in st.monsters):
        skip.add("just_revealed")  # only Opportunist buys a card just revealed
    for x in (a, b):
        x["camouflage"] = {k: v for k, v in x["camouflage"].items() if v}
        x["tile_faces"] = {k: v for k, v in x["tile_faces"].items() if k in x["tile_supply"]}
    lost = [k for k in a if k not in skip and k != "monsters" and a[k] != b[k]]
    for m, n in zip(st.monsters, back.monsters, strict=True):
        for f in dataclasses.fields(m):
            if m.eliminated and f.name in _GONE_WITH_THE_MONSTER:
                continue
            x, y = getattr(m, f.name), getattr(n, f.name)
            if f.name == "shielded_turn":
                x, y = x == st.turn_number, y == back.turn_number
            elif f.name == "stored":
                x, y = _live(x, st.turn_number), _live(y, back.turn_number)
            if x != y:
                lost.append(f"{m.name}.{f.name}")
    for i, m in enumerate(st.monsters):
        if st.began_at(i) != back.began_at(i) and not m.eliminated:
            lost.append(f"{m.name}'s place when the turn began")
    if (st.enter_snapshot is not None and st.enter_snapshot[0] == st.turn_number) != (
            back.enter_snapshot is not None and back.enter_snapshot[0] == back.turn_number):
        lost.append("enter_snapshot")
    return lost


def _with_counts(st: KingOfTokyoState, stored: dict[str, int], cards: list[str]) -> str:
    """``a,b:N,c``: the cards, each with the number on it where one lies there (once for copies)."""
    on = {c: n for c, n in stored.items() if c in cards and holds(st, c)}
    return ",".join(f"{c}:{on.pop(c)}" if c in on else c for c in cards)


def _marking(st: KingOfTokyoState) -> list[Hook]:
    """The hooks of this game's cards that leave a lasting mark on a monster (Zombify)."""
    rs = st.rs
    names = {c.hook for c in (*rs.cards, *rs.tiles, *rs.evolutions) if c.hook}
    return [HOOKS[n] for n in sorted(names) if n in HOOKS and HOOKS[n].mark]


def holds(st: KingOfTokyoState, card: str) -> bool:
    """Whether a number lies on the card (energy on Battery Monster, tokens on Adapting Technology), which a
    position writes ``CARD:N``; ``card`` is a power card's or an evolution's id."""
    name = st.cards[card if card in st.cards else f"evolution:{card}"].hook
    hook = HOOKS.get(name) if name is not None else None
    return hook is not None and hook.holds


def _monster_line(st: KingOfTokyoState, i: int) -> str:
    m = st.monsters[i]
    parts = [f"{m.name} is", f"hp={m.hp}", f"vp={m.vp}", f"energy={m.energy}"]
    if m.location != "outside":
        parts.append(f"place={m.location}")
    if not m.eliminated and st.began_at(i) != m.location:
        parts.append(f"began={st.began_at(i)}")
    if m.cards:
        parts.append("cards=" + _with_counts(st, m.stored, m.cards))
    parts += [f"{k}={v}" for k, v in m.tokens.items() if v and k in ("poison", "shrink", "smoke")]
    if m.wickedness:
        parts.append(f"wickedness={m.wickedness}")
    if m.tiles:
        parts.append("tiles=" + ",".join(m.tiles))
    if m.evolutions:
        parts.append("evolutions=" + _with_counts(st, m.stored, m.evolutions))
    if m.hand:
        parts.append("hand=" + ",".join(m.hand))
    if m.evo_bottom:
        parts.append("bottom=" + ",".join(m.evo_bottom))
    if +m.evo_discard:
        parts.append("discarded=" + ",".join(sorted((+m.evo_discard).elements())))
    owes = ["evolution"] * m.evo_owed + [f"tile-{lv}" for lv in m.owed]
    if owes:
        parts.append("owes=" + ",".join(owes))
    if m.dice_tokens:
        parts.append(f"dicetokens={m.dice_tokens}")
    parts += [h.mark for h in _marking(st) if h.is_marked(m)]
    if m.eliminated:
        parts.append("eliminated")
    return " ".join(parts)
