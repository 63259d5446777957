"""Power Up! evolutions of Space Penguin (see kbgrules.king_of_tokyo.cards.evolutions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kbgrules.core.words import counted
from kbgrules.king_of_tokyo import hooks
from kbgrules.king_of_tokyo.cards.evolutions.common import (
    _card,
    _deck_check,
    _expire,
    _from_deck,
    _gain_card,
    _holders,
    _key,
    _linger,
    _name,
    _own_buy,
    _own_roll,
    _refuse,
    _resolve_now,
    _slug,
)
from kbgrules.king_of_tokyo.hooks import Hook
from kbgrules.king_of_tokyo.moves import face

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.monster import Monster
    from kbgrules.king_of_tokyo.statebase import StateBase


class ColdWave(Hook):
    """Stays in front of its owner; every other monster's turn starts with one die fewer."""
    card = _key("cold-wave")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _linger(st, st.monsters[i], "cold-wave")
        if i != st.active and st.phase == "roll" and not st.rolls:
            st.fewer_dice += 1  # the monster about to roll already rolls one die fewer

    def on_turn_end(self, st: StateBase, active: int) -> None:
        if _holders(st, "cold-wave"):
            st.fewer_dice_next += 1  # taken back when the owner's own turn starts

    def on_turn_start(self, st: StateBase, m: Monster) -> None:
        if "cold-wave" in m.evolutions:
            st.fewer_dice = max(0, st.fewer_dice - 1)
            _expire(st, m, "cold-wave")


class DeepDive(Hook):
    """``play deep-dive A B C keep B``: the top 3 cards of the Power deck (fewer if it holds fewer); one goes
    into play for free, the others go under the deck."""

    card = _key("deep-dive")

    def check(self, st: StateBase, args: Sequence[str]) -> tuple[list[str], str]:
        words = [a.lower() for a in args]
        k = words.index("keep") if "keep" in words else len(words)
        seen = [_card(st, "deep-dive", a) for a in args[:k]]
        if k < len(words):
            kept = [_card(st, "deep-dive", a) for a in args[k + 1:]]
        else:  # one card turned over: it is the one kept
            kept = seen[:1] if len(seen) == 1 else []
        left = sum(st.deck.values())
        if not left:
            raise _refuse(st, "deep-dive", "the Power deck is empty")
        if len(seen) != min(3, left) or len(kept) != 1 or kept[0] not in seen:
            raise _refuse(st, "deep-dive", "write: NAME play deep-dive CARD ... keep CARD "
                                           f"({counted(min(3, left), 'card')} turned over from the top of the "
                                           "deck, one of them kept)")
        return seen, kept[0]

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _deck_check(st, self.check(st, args)[0])

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        seen, kept = self.check(st, args)
        m = st.monsters[i]
        for c in seen:
            _from_deck(st, c)
        rest = list(seen)
        rest.remove(kept)
        for c in rest:  # under the deck: back among the cards still to come
            st.deck[c] += 1
        st.log.append(f"{m.name} puts {st.cards[kept].name} into play (Deep Dive)")
        _gain_card(st, m, kept)


class MiraculousCatch(Hook):
    """``use miraculous-catch CARD [buy]`` in the owner's buy step, once per turn: CARD is turned up from
    the shuffled discard pile; with ``buy`` the owner buys it for 1 energy less, otherwise it stays there."""

    card = _key("miraculous-catch")

    def check(self, st: StateBase, i: int, args: Sequence[str]) -> tuple[str, bool]:
        if len(args) not in (1, 2) or (len(args) == 2 and args[1].lower() != "buy"):
            raise _refuse(st, "miraculous-catch", "write: NAME use miraculous-catch CARD [buy]")
        cid = _card(st, "miraculous-catch", args[0])
        _own_buy(st, i, "miraculous-catch", "it is used")
        if f"miraculous-catch:{i}" in st.used_this_turn:
            raise _refuse(st, "miraculous-catch", "it works once per turn")
        if st.discards[cid] <= 0:
            raise _refuse(st, "miraculous-catch", f"no {st.cards[cid].name} is in the discard pile")
        return cid, len(args) == 2

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if args:
            self.check(st, i, args)

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        cid, buy = self.check(st, i, args)
        m = st.monsters[i]
        st.used_this_turn.add(f"miraculous-catch:{i}")
        card = st.cards[cid]
        st.log.append(f"{m.name} turns up {card.name} from the discard pile (Miraculous Catch)")
        if not buy:
            return
        price = max(0, st.cost(cid, m) - 1)
        if m.energy < price:
            raise st.illegal("kot-no-energy", monster=m.name, need=price, have=m.energy, what=card.name)
        for hook in st.hooks_at(m, "may_buy"):
            hook.may_buy(st, m, cid)
        m.energy -= price
        st.discards[cid] -= 1
        st.bought = True
        _gain_card(st, m, cid, bought=True)


class Blizzard(Hook):
    """``play blizzard`` in the owner's turn: until its next turn starts, the other monsters roll once
    and may not yield Tokyo."""

    card = _key("blizzard")

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if i != st.active:
            raise _refuse(st, "blizzard", "it is played in its owner's turn")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _linger(st, st.monsters[i], "blizzard")

    def others_max_rolls(self, st: StateBase, owner: int) -> int | None:
        return 1

    def may_yield(self, st: StateBase, owner: int, i: int) -> None:
        raise st.illegal("kot-yield-not-allowed", monster=st.monsters[i].name,
                       why=f"{st.monsters[owner].name}'s Blizzard is in play")

    def on_turn_start(self, st: StateBase, m: Monster) -> None:
        _expire(st, m, "blizzard")


class BlackDiamond(Hook):
    """The VP for entering Tokyo is an effect in the data; this is the VP for staying."""
    card = _key("black-diamond")

    def on_stay(self, st: StateBase, i: int) -> None:
        st.monsters[i].vp += 1


class IcyReflection(Hook):
    """``play icy-reflection CARD``: the card becomes a copy of CARD, a permanent evolution (not another Icy
    Reflection) in play in front of any monster, as if its owner had just played it (``Monster.icy``; the
    engine's ``in_play`` adds the copy while someone has CARD in play). The copy is used as the card
    itself: ``use CARD ...``. Once CARD has left play, Icy Reflection is discarded (at the next turn's
    start or end at the latest)."""

    card = _key("icy-reflection")
    id = "icy-reflection"

    def target(self, st: StateBase, args: Sequence[str]) -> str:
        if len(args) != 1:
            raise _refuse(st, self.id, "write: NAME play icy-reflection EVOLUTION (a permanent evolution in play)")
        word = _slug(args[0])
        eid = next((c.id for c in st.rs.evolutions if word in (c.id, _slug(c.name))), None)
        if eid is None:
            raise _refuse(st, self.id, f"{args[0]!r} is not an evolution card")
        name = _name(st, eid)
        if st.cards[_key(eid)].type != "permanent" or eid == self.id:
            raise _refuse(st, self.id, f"it copies a permanent evolution other than Icy Reflection, not {name}")
        if not any(eid in o.evolutions for o in st.monsters if not o.eliminated):
            raise _refuse(st, self.id, f"no monster has {name} in play")
        return eid

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        eid = self.target(st, args)
        hook = st.cards[_key(eid)].hook
        if hook is not None and hook in hooks.HOOKS:
            hooks.HOOKS[hook].may_play(st, i, ())  # played as that card would be (Feline Motor: its moment)

    def on_buy(self, st: StateBase, m: Monster) -> None:
        m.icy = None

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        if m.icy is not None:
            raise _refuse(st, self.id, f"it copies {_name(st, m.icy)} already")
        eid = self.target(st, args)
        m.icy = eid
        copied = st.cards[_key(eid)]
        st.log.append(f"{m.name}'s Icy Reflection copies {copied.name}")
        for e in copied.effects:
            if e["when"] == "play":
                st.card_effect(m, e)
        hook = copied.hook
        if hook is not None and hook in hooks.HOOKS:
            hooks.HOOKS[hook].on_buy(st, m)

    def drop(self, st: StateBase, m: Monster) -> None:
        if m.icy is not None and not any(m.icy in o.evolutions for o in st.monsters if not o.eliminated):
            st.log.append(f"{m.name} discards Icy Reflection ({_name(st, m.icy)} has left play)")
            _expire(st, m, self.id)
            m.icy = None

    def on_turn_start(self, st: StateBase, m: Monster) -> None:
        self.drop(st, m)

    def on_turn_end(self, st: StateBase, active: int) -> None:
        self.drop(st, st.monsters[active])


def _face(st: StateBase, card: str, word: str) -> str:
    f = face(word)
    if f is None:
        raise _refuse(st, card, f"{word!r} is not a die face (1, 2, 3, e, h, s)")
    return f


class FreezeRay(Hook):
    """Two uses of the card in play. ``use freeze-ray NAME`` in its owner's turn, right after the dice that
    wounded NAME in Tokyo were resolved (before NAME's decision): the card goes to NAME. Then
    ``use freeze-ray FACE`` by the owner at the start of NAME's next turn, before NAME rolls: dice showing
    FACE have no effect in that turn and cannot be re-rolled; the card comes back at the end of the turn
    (``StateBase.freeze_rays``)."""

    card = _key("freeze-ray")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if len(args) != 1:
            raise _refuse(st, "freeze-ray", "write: NAME use freeze-ray MONSTER (to give it) or FACE (its face)")
        lent = st.freeze_rays.get(i)
        if lent is None:
            self.give(st, i, args[0])
            return
        holder, named = lent
        if st.active != holder or st.phase != "roll" or st.rolls or named:
            raise _refuse(st, "freeze-ray", f"its owner names the face at the start of {st.monsters[holder].name}'s "
                                            "next turn, before the roll, once")
        st.freeze_rays[i] = (holder, _face(st, "freeze-ray", args[0]))

    def give(self, st: StateBase, i: int, name: str) -> None:
        target = next((k for k, o in enumerate(st.monsters) if o.name == name), None)
        if target is None:
            raise _refuse(st, "freeze-ray", f"{name!r} is not a monster of this game (give it to a monster the "
                                            "owner's smashes wounded in Tokyo)")
        o = st.monsters[target]
        if i != st.active or st.phase not in ("decide", "enter", "buy") or target not in st.smash_damage \
                or not o.in_tokyo or o.eliminated:
            raise _refuse(st, "freeze-ray", f"it goes to a monster in Tokyo that {st.monsters[i].name}'s smashes "
                                            "wounded this turn, right after the dice resolve")
        st.freeze_rays[i] = (target, "")
        st.log.append(f"{st.monsters[i].name} gives Freeze Ray to {o.name}")


class EncasedInIce(Hook):
    """``use encased-in-ice FACE`` after the owner's rolls, before its dice resolve (1 energy): one die
    showing FACE keeps that face until the owner's next turn starts, in every other monster's roll,
    and cannot be re-rolled (``StateBase.ice_die``). Using it ends the rolling."""

    card = _key("encased-in-ice")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if len(args) != 1:
            raise _refuse(st, "encased-in-ice", "write: NAME use encased-in-ice FACE")
        f = _face(st, "encased-in-ice", args[0])
        m = st.monsters[i]
        _own_roll(st, i, "encased-in-ice")
        if "encased-in-ice" in st.used_this_turn:
            raise _refuse(st, "encased-in-ice", "it freezes one die a turn")
        if f not in st.dice:
            raise _refuse(st, "encased-in-ice", f"no die shows {args[0]}")
        if m.energy < 1:
            raise st.illegal("kot-no-energy", monster=m.name, need=1, have=m.energy, what="Encased in Ice")
        m.energy -= 1
        st.used_this_turn.add("encased-in-ice")
        st.ice_die = (i, f)
        st.log.append(f"{m.name} encases a die showing {args[0]} in ice")
        _resolve_now(st)


HOOKS: dict[str, Hook] = {
    "freeze_ray": FreezeRay(),
    "encased_in_ice": EncasedInIce(),
    "cold_wave": ColdWave(),
    "black_diamond_stay_bonus": BlackDiamond(),
    "deep_dive": DeepDive(),
    "miraculous_catch": MiraculousCatch(),
    "blizzard": Blizzard(),
    "icy_reflection": IcyReflection(),
}
