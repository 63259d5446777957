"""King of Tokyo positions as log text: the lines that state a game's moment (``position_lines``, which
``position_text`` writes), the state they are read into (``read_position``), and what a position read
back lost (``unstated``), which makes sure a stated position is whole."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from typing import Any

from kbgrules.errors import IllegalMoveError, KbgError
from kbgrules.king_of_tokyo.hooks import HOOKS, Hook
from kbgrules.king_of_tokyo.monster import Monster, copy_counter
from kbgrules.king_of_tokyo.moves import SHORT, Keep, Roll, violation
from kbgrules.king_of_tokyo.parse import Parsed
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


def position_lines(st: KingOfTokyoState, must_end: bool = False) -> list[str]:
    """The position statements of ``st`` (each monster, the market, the piles, whose turn and where
    in it); KbgError ``kot-position-moment`` once the game is over or at a moment no statement gives."""
    if st.over is not None:
        raise KbgError(f"the game is over ({st.over}): a position states a game in progress; "
                       "log_text() gives the whole game", code="kot-position-moment")
    moment = _moment(st, must_end)
    if moment is None:
        raise KbgError(f"a King of Tokyo position cannot state this moment: {st.expected()}",
                       code="kot-position-moment")
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


def read_position(st: KingOfTokyoState, market: list[str], states: list[Parsed], deck: list[str],
                  discard: list[str], gone_tiles: list[str], phase: str, dice: Sequence[str],
                  extra: dict[str, Any]) -> KingOfTokyoState:
    """``st`` (a new game's state, its turn not begun) at the stated position: the ``NAME is`` lines
    (``states``), the market, the deck's known top, the discard pile and the tiles out of the game,
    at the moment of the turn that ``turn NAME PHASE [DICE] [...]`` names (docs/log-format.md);
    IllegalMoveError ``kot-position`` (and the like) where it could not occur."""
    rs = st.rs
    st.starting = False  # a draw still owed at the start of the game is stated (owes=evolution)
    for m in st.monsters:
        m.evo_owed = 0
    for p in states:
        assert p.monster is not None
        m = st.monsters[p.monster]
        info = p.values[0]
        m.hp = int(info.get("hp", m.hp))
        m.vp = int(info.get("vp", m.vp))
        m.energy = int(info.get("energy", m.energy))
        m.location = str(info.get("place", m.location))
        m.eliminated = bool(info.get("eliminated", False)) or m.hp == 0
        for token in ("poison", "shrink", "smoke"):
            m.tokens[token] = int(info.get(token, 0))
        for name in info.get("marks", []):  # a lasting state a card left (Zombify)
            HOOKS[name].put_mark(m)
        m.dice_tokens = int(info.get("dicetokens", 0))
        if m.dice_tokens and not rs.dice_tokens_per_turn:
            raise violation(rs, "kot-position", monster=m.name,
                            problem="dice tokens belong to the Godzilla edition")
        w = rs.wickedness
        if "wickedness" in info or "tiles" in info:
            if w is None:
                raise violation(rs, "kot-position", monster=m.name,
                                problem="wickedness and tiles belong to the Dark Edition")
            m.wickedness = min(int(info.get("wickedness", 0)), w.max)
            m.levels = [lv for lv in w.thresholds if lv <= m.wickedness]
            for tid in info.get("tiles", []):
                t = st.cards[f"tile:{tid}"]
                red = _red(st, tid)
                if red not in st.tile_supply:
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem=f"the tile {t.name} is already taken")
                if t.level not in m.levels:
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem=f"{t.name} is a level-{t.level} tile; wickedness is {m.wickedness}")
                if any(st.cards[f"tile:{o}"].level == t.level for o in m.tiles):
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem=f"{m.name} holds two level-{t.level} tiles: one per level")
                if tid not in st.tiles_left(t.level):
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem=f"the {t.side} side {t.name} is not in play in this game")
                st.tile_supply.remove(red)
                m.tiles.append(tid)
        for key in ("evolutions", "hand", "discarded"):
            for c in info.get(key, []):
                if rs.evolution is None:
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem="evolutions are not in play (add @variant power-up)")
                if c == "?" and key == "hand":
                    m.secret += 1
                    m.hand.append("?")
                    continue
                if c == "?":
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem=f"'?' (a secret evolution) belongs in the hand, not in {key}")
                if m.evo_deck[c] <= 0:
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem=f"{st.cards['evolution:' + c].name} is not left in its deck")
                m.evo_deck[c] -= 1
                if key == "discarded":
                    m.evo_discard[c] += 1
                    continue
                (m.evolutions if key == "evolutions" else m.hand).append(c)
        for c in info.get("bottom", []):  # known cards under the deck, top first: still in it
            if c == "?" or m.evo_deck[c] <= m.evo_bottom.count(c):
                raise violation(rs, "kot-position", monster=m.name,
                                problem=f"{c} is not left in {m.name}'s evolution deck to lie under it")
            m.evo_bottom.append(c)
        for c in info.get("cards", []):
            if st.cards[c].type != "keep":
                raise violation(rs, "kot-position", monster=m.name,
                                problem=f"{st.cards[c].name} is not a keep card")
            if st.deck[c] <= 0:
                raise violation(rs, "kot-position", monster=m.name,
                                problem=f"more copies of {st.cards[c].name} than the deck has")
            st.deck[c] -= 1
            m.cards.append(c)
        _owes(st, m, info.get("owes", []))
        for c, n in info.get("on", {}).items():  # energy or tokens on a card (Battery Monster)
            if not holds(st, c) or (c not in m.cards and c not in m.evolutions):
                key = c if c in st.cards else f"evolution:{c}"
                raise violation(rs, "kot-position", monster=m.name,
                                problem=f"{st.cards[key].name} holds no energy or tokens here (CARD:N is for a "
                                        "card in play that does)")
            m.stored[c] = n
        if m.hp > st.max_hp(m):
            raise violation(rs, "kot-position", monster=m.name,
                            problem=f"{m.name} has {m.hp} life; its maximum is {st.max_hp(m)}")
        if "began" in info and (m.eliminated or (info["began"] == "bay" and not st.bay_open())):
            raise violation(rs, "kot-position", monster=m.name,
                            problem=f"{m.name} cannot have begun this turn in {info['began']}")
        if m.eliminated and m.location != "outside":
            raise violation(rs, "kot-position", monster=m.name, problem=f"{m.name} is eliminated but in Tokyo")
    for space in ("city", "bay"):
        holders = [m.name for m in st.monsters if m.location == space]
        if len(holders) > 1:
            raise violation(rs, "kot-position",
                            problem=f"{' and '.join(holders)} are both in Tokyo {space.title()}")
    if st.occupant("bay") is not None and not st.bay_open():
        raise violation(rs, "kot-position", problem="Tokyo Bay is not in use with this many monsters")
    if st.me.eliminated:
        raise violation(rs, "kot-position", at="first",
                        problem=f"{st.me.name} is eliminated and has no turn")
    if len(market) != rs.market_size:
        raise violation(rs, "kot-reveal-count", expected=rs.market_size, got=len(market))
    st.reveal(market, effects=False)

    for c, n in Counter(discard).items():  # the discard pile: out of the deck until a reshuffle
        if st.deck[c] < n:
            raise violation(rs, "kot-position", at="discard",
                            problem=f"the discard pile cannot hold {n} {st.cards[c].name}: only {st.deck[c]} "
                                    "not in the market or in play")
        st.deck[c] -= n
        st.discards[c] += n
    for c, n in Counter(deck).items():
        if st.deck[c] < n:
            raise violation(rs, "kot-position", at="deck",
                            problem=f"the deck cannot hold {n} {st.cards[c].name}: only {st.deck[c]} left")
    st.deck_order = list(deck)
    for gone in gone_tiles:  # wickedness tiles discarded: out of the game
        red = _red(st, gone)
        if red not in st.tile_supply:
            raise violation(rs, "kot-position", at="discard",
                            problem=f"the tile {st.cards['tile:' + gone].name} is not in the supply "
                                    "(held, or listed twice)")
        st.tile_supply.remove(red)
    began_at = {p.monster: str(p.values[0]["began"]) for p in states if "began" in p.values[0]}
    ev = rs.evolution
    if ev is not None and ev.start_draw and phase in ("start", "started") and any(m.evo_owed for m in st.monsters):
        st.starting = True  # the starting draws are still being made
    if phase == "start":
        st.start_turn()
    else:
        st.start_turn(effects=False)  # the position already holds what the start of the turn gave
    st.turn_began = [began_at.get(i, m.location) for i, m in enumerate(st.monsters)]
    if phase in ("start", "started"):
        return st
    if phase == "resolve" and st._camouflage_held():
        raise violation(rs, "kot-position", at="first",
                        problem="a position at 'resolve' cannot give the Camouflage dice its hits may need: "
                                "start it at 'rolled', then write the keep and the camouflage line")
    if phase in ("rolled", "resolve"):  # the dice after the first roll, or the final dice, resolved now
        try:
            st.apply(Roll(tuple(dice)))
            if phase == "resolve":
                st.apply(Keep())
        except IllegalMoveError as exc:
            exc.params["at"] = "first"  # the `turn NAME rolled|resolve DICE` line is to blame
            raise
        rolls = int(extra.get("rolls", 1))
        if rolls > st.max_rolls():
            raise violation(rs, "kot-position", at="first",
                            problem=f"{st.me.name} rolls at most {st.max_rolls()} times in this turn, not {rolls}")
        st.rolls = rolls
    elif phase == "decide":  # the final dice resolved (the numbers include them): the hit decide
        if len(dice) != st.dice_count():
            raise violation(rs, "kot-dice-count", at="first", monster=st.me.name, expected=st.dice_count(),
                            got=len(dice))
        _resolved(st, dice, extra["hit"])
        st.pending = [i for i in (st.occupant("city"), st.occupant("bay"))
                      if i is not None and i in st.smash_damage]
        if not st.pending:
            raise violation(rs, "kot-position", at="first",
                            problem="no monster in Tokyo lost life to the smashes: nobody decides "
                                    "(start at 'turn NAME enter')")
        st.phase = "decide"
    elif phase == "enter":  # dice resolved, decisions made: the Enter Tokyo step comes first
        st.smashes = 1  # 2011: only a monster that smashed may enter, so the step says it did
        st.phase = "decide"
        st.finish_decisions()
    else:  # buy, end: the dice were resolved and Tokyo entered
        st.phase = "buy"
        _resolved(st, dice, extra.get("hit", {}))
        st.bought = bool(extra.get("bought"))
    return st


def _owes(st: KingOfTokyoState, m: Monster, owes: Sequence[str]) -> None:
    """``owes=evolution,tile-N``: the evolution draws and the wickedness tiles due and not taken yet."""
    rs = st.rs
    for o in owes:
        if o == "evolution":
            if rs.evolution is None:
                raise violation(rs, "kot-position", monster=m.name,
                                problem="evolutions are not in play (add @variant power-up)")
            m.evo_owed += 1
            continue
        level = int(o[5:])
        if level not in m.levels or level in m.owed or any(st.cards[f"tile:{t}"].level == level for t in m.tiles):
            raise violation(rs, "kot-position", monster=m.name,
                            problem=f"{m.name} is owed no level-{level} tile (its wickedness is {m.wickedness}, "
                                    "and a tile of each level passed is taken once)")
        m.owed.append(level)

def _resolved(st: KingOfTokyoState, dice: Sequence[str], hit: dict[int, int]) -> None:
    """The final dice of a position past their resolution (the numbers include them), and the life each
    monster lost to their smashes."""
    rs = st.rs
    if st.active in hit:
        raise violation(rs, "kot-position", at="first",
                        problem=f"{st.me.name} cannot lose life to its own smashes")
    st.dice, st.final_dice = list(dice), list(dice)
    st.smashes = sum(f == "smash" for f in dice)
    st.smash_damage = dict(hit)
    st.dealt_damage = bool(hit)
    st.turn_losses = [(i, st.active, n, True) for i, n in hit.items()]
