"""Helpers shared by the evolutions' hooks, and the hooks more than one monster's deck uses:
``TokyoRush`` (Monkey Rush, Feline Motor) and ``ThisTurnOnly`` (Mecha Blast, Cat Nip).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kbgrules.errors import IllegalMoveError
from kbgrules.king_of_tokyo import hooks
from kbgrules.king_of_tokyo.hooks import Hook
from kbgrules.king_of_tokyo.monster import restore_monster
from kbgrules.king_of_tokyo.moves import Decide, Evolve, Keep, Take, UnsupportedCardError, face

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.monster import Monster
    from kbgrules.king_of_tokyo.statebase import StateBase


# --------------------------------------------------------------------------- helpers


def _key(card: str) -> str:
    return f"evolution:{card}"


def _name(st: StateBase, card: str) -> str:
    return st.cards[_key(card)].name


def _refuse(st: StateBase, card: str, why: str) -> IllegalMoveError:
    return st.illegal("evo-play", card=_name(st, card), why=why)


def _resolve_now(st: StateBase) -> None:
    """The active monster's rolling ends here (as with any action that needs the dice resolved)."""
    if st.phase == "roll" and st.rolls:
        st._resolve()


def _after_rolling(st: StateBase) -> None:
    """Rolling and the yield decisions are over (absent decisions are stays)."""
    _resolve_now(st)
    if st.phase == "decide":
        st.finish_decisions()


def _own_roll(st: StateBase, i: int, card: str) -> None:
    if i != st.active or st.phase != "roll" or not st.rolls:
        raise _refuse(st, card, "its owner plays it after rolling, before its dice resolve")


def _before_roll(st: StateBase, i: int, card: str) -> None:
    if i != st.active or st.phase != "roll" or st.rolls:
        raise _refuse(st, card, "its owner plays it at the start of its turn, before the first roll")


def _own_buy(st: StateBase, i: int, card: str, what: str) -> None:
    if i != st.active:
        raise _refuse(st, card, f"{what} on its owner's turn")
    _after_rolling(st)
    if st.phase != "buy":
        raise _refuse(st, card, f"{what} after its owner's dice resolve")


def _once(st: StateBase, i: int, card: str) -> None:
    key = f"{card}:{i}"
    if key in st.used_this_turn:
        raise _refuse(st, card, "it works once per turn")
    st.used_this_turn.add(key)


def _monster(st: StateBase, card: str, text: str) -> int:
    for k, o in enumerate(st.monsters):
        if o.name == text and not o.eliminated:
            return k
    raise _refuse(st, card, f"{text!r} is not a monster still in the game")


def _read_faces(st: StateBase, args: Sequence[str]) -> list[str]:
    """The die faces written as a card's arguments; a word that is no face is ``kot-bad-face``."""
    out = []
    for a in args:
        f = face(a)
        if f is None:
            raise st.illegal("kot-bad-face", face=a)
        out.append(f)
    return out


def _faces(st: StateBase, card: str, args: Sequence[str], form: str) -> list[str]:

    if len(args) != form.count(" ") + 1:
        raise _refuse(st, card, f"write: NAME play|use {card} {form}")
    out = _read_faces(st, args)
    if out[0] not in st.dice:
        raise _refuse(st, card, f"no die shows {out[0]}")
    return out


def _linger(st: StateBase, m: Monster, card: str) -> None:
    """A temporary evolution stays in front of its owner while its effect lasts."""
    if card in m.evolutions:  # ``use CARD`` on it: it was played already
        raise _refuse(st, card, "it is in play already")
    m.evo_discard[card] -= 1
    if m.evo_discard[card] <= 0:
        del m.evo_discard[card]
    m.evolutions.append(card)


def _expire(st: StateBase, m: Monster, card: str) -> None:
    if card in m.evolutions:
        m.evolutions.remove(card)
        m.evo_discard[card] += 1
        m.stored.pop(card, None)


def _expire_own(st: StateBase, m: Monster, card: str) -> None:
    """A permanent evolution leaves play: the card itself, or the Icy Reflection that copies it."""
    if card in m.evolutions:
        _expire(st, m, card)
    elif m.icy == card and "icy-reflection" in m.evolutions:
        _expire(st, m, "icy-reflection")
        m.icy = None


def _holders(st: StateBase, card: str) -> list[int]:
    return [k for k, o in enumerate(st.monsters) if card in o.evolutions and not o.eliminated]


def _after_in_play(st: StateBase, owner: int, first: str, then: str) -> bool:
    """True if evolution ``then`` comes after ``first`` among the owner's cards (so its hook runs later)."""
    keys = st.in_play(st.monsters[owner])
    return _key(then) in keys and keys.index(_key(then)) > keys.index(_key(first))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")


def _card(st: StateBase, card: str, text: str) -> str:
    """A Power card id from a log word."""
    cid = st.card_id(text)
    if cid is None or cid not in {c.id for c in st.rs.cards}:
        raise st.illegal("kot-unknown-card", card=text)
    return cid


def _from_deck(st: StateBase, cid: str) -> None:
    """Take ``cid`` off the top of the Power deck (checked as a reveal: copies left, the stated order)."""
    st.reveal([cid], effects=False)
    st.market.remove(cid)


def _deck_check(st: StateBase, cards: Sequence[str]) -> None:
    """Refuse (as a reveal would) cards that cannot come off the top of the deck in this order."""
    saved = Counter(st.deck), Counter(st.discards), list(st.market), list(st.deck_order)
    try:
        for c in cards:
            _from_deck(st, c)
    finally:
        st.deck, st.discards, st.market, st.deck_order = saved


def _gain_card(st: StateBase, m: Monster, cid: str, bought: bool = False) -> None:
    """Put a Power card into play in front of ``m`` as if bought (a discard card takes effect and is
    discarded); ``bought``: it is a buy (cards that react to a buy see it)."""

    card = st.cards[cid]
    if card.hook is not None and card.hook not in hooks.HOOKS:
        raise UnsupportedCardError(f"kbg check cannot replay {card.name} yet (its effect needs the "
                                   f"{card.hook!r} hook, not written yet)")
    owned = list(m.cards) + [f"tile:{t}" for t in m.tiles]
    if card.type == "keep":
        m.cards.append(cid)
    else:
        st.discards[cid] += 1
    for e in card.effects:
        if e["when"] == "buy":
            st.card_effect(m, e)
    if card.hook is not None:
        hooks.HOOKS[card.hook].on_buy(st, m)
    if bought:
        for key in owned:
            for e in st.cards[key].effects:
                if e["when"] == "buy_other" and not m.eliminated:
                    st.apply_gains(m, e)


# --------------------------------------------------------------------------- hooks of more than one deck


class TokyoRush(Hook):
    """Monkey Rush (``play monkey-rush``) and Feline Motor (``play|use feline-motor``): another monster's
    dice have just resolved (and its Tokyo decisions are made); the owner takes the free place in Tokyo
    before that monster's Enter Tokyo step. The replay takes that step back and enters the owner; then
    the active monster enters what is still free (Monkey Rush) or nothing (Feline Motor)."""

    def __init__(self, card: str, permanent: bool) -> None:
        self.card = _key(card)
        self.id = card
        self.permanent = permanent

    def check(self, st: StateBase, i: int, args: Sequence[str]) -> tuple[dict[str, Any], str, list[Any]]:
        if args:
            raise _refuse(st, self.id, f"write: NAME {'use' if self.permanent else 'play'} {self.id} (no arguments)")
        if i == st.active:
            raise _refuse(st, self.id, "it is played in another monster's turn")
        _after_rolling(st)
        snap = st.enter_snapshot
        since = st.history[snap[1]:] if snap is not None else []
        if snap is None or snap[0] != st.turn_number or st.phase != "buy" or any(
                not isinstance(a, Keep | Decide | Evolve | Take) for a in since):
            raise _refuse(st, self.id, "it is played right after the active monster's dice resolve (and its Tokyo "
                                       "decisions), before anything else happens in the turn")
        state = snap[2]
        before = [restore_monster(r) for r in state["monsters"]]
        if before[i].in_tokyo or before[i].eliminated:
            raise _refuse(st, self.id, f"{before[i].name} is in Tokyo already")
        if self.permanent and st.began_at(i) in ("city", "bay"):
            raise _refuse(st, self.id, f"{before[i].name} was in Tokyo when the turn began")
        taken = {o.location for o in before if not o.eliminated}
        space = "city" if "city" not in taken else "bay" if st.bay_open() and "bay" not in taken else ""
        if not space:
            raise _refuse(st, self.id, "Tokyo has no free place")
        return state, space, [a for a in since if isinstance(a, Evolve | Take)]

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        self.check(st, i, args)  # Feline Motor too acts as it is played (Board Game Arena)

    def on_buy(self, st: StateBase, m: Monster) -> None:
        self.use(st, st.seat(m), ())

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        state, space, replay = self.check(st, i, args)
        m = st.monsters[i]
        kept = {f: getattr(m, f) for f in ("hand", "evo_deck", "evo_discard", "evolutions", "secret", "icy")}
        log = list(st.log)
        saved = [restore_monster(r) for r in state.pop("monsters")]
        st._restore(state)  # back to the Enter Tokyo step, the card played
        for live, before in zip(st.monsters, saved, strict=True):  # the same Monster objects
            for field in dataclasses.fields(before):
                setattr(live, field.name, getattr(before, field.name))
        st.enter_snapshot = None
        for f, v in kept.items():
            setattr(m, f, v)
        logged = state["log"]  # the log's length then (a snapshot keeps lengths of what is only appended to)
        st.log = log[:logged] + [x for x in log[logged:] if "plays the evolution" in x]
        m.location = space
        r = st.rs.enter_reward
        st.gain(m, r.resource, r.amount)
        st.log.append(f"{m.name} enters Tokyo {'City' if space == 'city' else 'Bay'} ({_name(st, self.id)})")
        st.entered(m)
        if self.permanent:
            st.phase = "buy"  # the active monster does not enter
        else:
            st._enter()
        for a in replay:  # the draws and tiles taken since, unchanged
            st._apply(a)


class ThisTurnOnly(Hook):
    """A temporary evolution whose effect lasts for its owner's turn: it leaves play when that turn ends."""
    lasting = ""

    def on_turn_start(self, st: StateBase, m: Monster) -> None:
        _expire(st, m, self.lasting)

    def on_turn_end(self, st: StateBase, active: int) -> None:
        if st.active in _holders(st, self.lasting):
            _expire(st, st.me, self.lasting)
