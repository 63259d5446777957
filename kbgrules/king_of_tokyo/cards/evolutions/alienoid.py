"""Power Up! evolutions of Alienoid (see kbgrules.king_of_tokyo.cards.evolutions)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kbgrules.core.words import counted
from kbgrules.errors import IllegalMoveError
from kbgrules.king_of_tokyo.cards.evolutions.common import (
    _before_roll,
    _card,
    _deck_check,
    _expire_own,
    _from_deck,
    _gain_card,
    _key,
    _once,
    _own_buy,
    _read_faces,
    _refuse,
)
from kbgrules.king_of_tokyo.hooks import Hook
from kbgrules.king_of_tokyo.moves import Buy, Sweep

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.monster import Monster
    from kbgrules.king_of_tokyo.statebase import StateBase


class PrecisionFieldSupport(Hook):
    """``play precision-field-support CARD ...``: the Power cards turned over from the top of the deck, in
    order, until a Keep card whose printed cost is 4 or less; it goes into play for free, the others are
    discarded."""

    card = _key("precision-field-support")

    def check(self, st: StateBase, args: Sequence[str]) -> list[str]:
        if not args:
            raise _refuse(st, "precision-field-support", "write: NAME play precision-field-support CARD ... "
                                                         "(the cards turned over, the last one kept)")
        cards = [_card(st, "precision-field-support", a) for a in args]
        for k, c in enumerate(cards):
            fits = st.cards[c].type == "keep" and st.cards[c].cost <= 4
            if fits != (k == len(cards) - 1):
                why = (f"{st.cards[c].name} is a Keep card costing 4 or less: the turning over stops there"
                       if fits else f"{st.cards[c].name} is not a Keep card costing 4 or less: it cannot be kept")
                raise _refuse(st, "precision-field-support", why)
        return cards

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _deck_check(st, self.check(st, args))

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        cards = self.check(st, args)
        m = st.monsters[i]
        for c in cards:
            _from_deck(st, c)
        for c in cards[:-1]:
            st.discards[c] += 1
        st.log.append(f"{m.name} puts {st.cards[cards[-1]].name} into play (Precision Field Support)")
        _gain_card(st, m, cards[-1])


class AngerBatteries(Hook):
    card = _key("anger-batteries")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        st.gain_energy(st.monsters[i], sum(lost for v, _, lost, _ in st.turn_losses if v == i))


class AdaptingTechnology(Hook):
    """``use adapting-technology CARD CARD CARD`` in the owner's buy step: a free sweep (the three cards
    revealed); three uses, then the card is discarded."""

    card = _key("adapting-technology")
    holds = True

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if args:
            _own_buy(st, i, "adapting-technology", "its tokens are spent")

    def on_buy(self, st: StateBase, m: Monster) -> None:
        m.stored["adapting-technology"] = 3

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        _own_buy(st, i, "adapting-technology", "its tokens are spent")
        snapshot = st._snapshot()
        m.energy += st.rs.sweep_cost  # the sweep is free
        try:
            st._market_action(Sweep(i, tuple(st.card_id(a) or a for a in args)))
        except IllegalMoveError:
            st._restore(snapshot)
            raise
        m.stored["adapting-technology"] -= 1
        if m.stored["adapting-technology"] <= 0:
            _expire_own(st, m, "adapting-technology")


class FunnyLookingButDangerous(Hook):
    card = _key("funny-looking-but-dangerous")

    def on_resolve(self, st: StateBase, m: Monster, smashes: int) -> int:
        if st.dice.count("2") >= 3:
            for j in st.alive():
                if j != st.active:
                    st.damage(j, 1, st.active)
        return smashes


class ExoticArms(Hook):
    """``use exotic-arms`` before the first roll puts 2 energy on the card; the dice settle the bet."""
    card = _key("exotic-arms")
    holds = True

    def check(self, st: StateBase, i: int) -> None:
        _before_roll(st, i, "exotic-arms")
        m = st.monsters[i]
        if "exotic-arms" in m.stored:
            raise _refuse(st, "exotic-arms", "its 2 energy are on it already")
        if m.energy < 2:
            raise st.illegal("kot-no-energy", monster=m.name, need=2, have=m.energy, what="Exotic Arms")

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if args:
            raise _refuse(st, "exotic-arms", "write: NAME use exotic-arms (no arguments)")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        self.check(st, i)
        m = st.monsters[i]
        m.energy -= 2
        m.stored["exotic-arms"] = 2

    def on_resolve(self, st: StateBase, m: Monster, smashes: int) -> int:
        if m.stored.pop("exotic-arms", 0):
            if st.dice.count("smash") >= 3:
                st.gain_energy(m, 2)
                st.used_this_turn.add(f"exotic-arms-hit:{st.active}")
            else:
                st.damage(st.active, 2, st.active)
        return smashes

    def deal_damage(self, st: StateBase, owner: int, victim: int, amount: int) -> int:
        hit = st.smashing == victim and f"exotic-arms-hit:{owner}" in st.used_this_turn
        return amount + 2 if hit else amount


class MothershipSupport(Hook):
    card = _key("mothership-support")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        if i != st.active:
            raise _refuse(st, "mothership-support", "it is used during its owner's turn")
        if m.hp >= st.max_hp(m):
            raise _refuse(st, "mothership-support", f"{m.name} has all its life already")
        if m.energy < 1:
            raise st.illegal("kot-no-energy", monster=m.name, need=1, have=m.energy, what="Mothership Support")
        _once(st, i, "mothership-support")
        m.energy -= 1
        st.heal(m, 1)


class SuperiorAlienTechnology(Hook):
    """``use superior-alien-technology buy CARD : REVEALED-CARD`` in the owner's buy step: a market Keep card
    bought for half its cost (rounded up), marked with a UFO token (3 marked cards at most per copy of the
    evolution). ``use superior-alien-technology FACE ...`` at the start of the owner's turn, before its
    first roll (which waits for it): one die per marked card still held, in the order they were bought;
    each Smash discards its card."""

    card = _key("superior-alien-technology")
    id = "superior-alien-technology"

    def marked(self, m: Monster) -> list[str]:
        """The owner's cards with a UFO token (a card that left its hand loses its token)."""
        held = Counter(m.cards)
        keep = []
        for c in m.ufo:
            if held[c] > 0:
                held[c] -= 1
                keep.append(c)
        m.ufo = keep
        return keep

    def parse_buy(self, st: StateBase, args: Sequence[str]) -> tuple[str, str | None]:
        texts = list(args)
        if not texts or (":" in texts and (texts.index(":") != 1 or len(texts) != 3)) or \
                (":" not in texts and len(texts) != 1):
            raise _refuse(st, self.id, "write: NAME use superior-alien-technology buy CARD : REVEALED-CARD")
        cid = _card(st, self.id, texts[0])
        return cid, _card(st, self.id, texts[2]) if len(texts) == 3 else None

    def check_buy(self, st: StateBase, i: int, cid: str) -> int:
        """The price (half the cost, rounded up), once the buy is known to be possible so far."""
        _own_buy(st, i, self.id, "it buys")
        m = st.monsters[i]
        if st.cards[cid].type != "keep":
            raise _refuse(st, self.id, f"{st.cards[cid].name} is not a Keep card")
        limit = 3 * max(1, st.in_play(m).count(self.card))  # played with this buy: one copy
        if len(self.marked(m)) >= limit:
            raise _refuse(st, self.id, f"{m.name} has {limit} cards with a UFO token already")
        price = (st.cost(cid, m) + 1) // 2
        if cid in st.market and m.energy < price:
            raise st.illegal("kot-no-energy", monster=m.name, need=price, have=m.energy, what=st.cards[cid].name)
        return price

    def check_roll(self, st: StateBase, i: int, args: Sequence[str]) -> list[str]:
        _before_roll(st, i, self.id)
        m = st.monsters[i]
        marked = self.marked(m)
        if not marked:
            raise _refuse(st, self.id, f"no card of {m.name} has a UFO token")
        if f"{self.id}:{i}" in st.used_this_turn:
            raise _refuse(st, self.id, "its dice are rolled once per turn")
        if len(args) != len(marked):
            names = ", ".join(st.cards[c].name for c in marked)
            raise _refuse(st, self.id, f"roll one die per card with a UFO token, in this order: {names} "
                                       f"({counted(len(marked), 'die', 'dice')}, not {len(args)})")
        return _read_faces(st, args)

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if args and args[0].lower() == "buy":
            self.check_buy(st, i, self.parse_buy(st, args[1:])[0])
        elif args:
            raise _refuse(st, self.id, "no card has a UFO token before it is in play")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        if not (args and args[0].lower() == "buy"):
            faces = self.check_roll(st, i, args)
            st.used_this_turn.add(f"{self.id}:{i}")
            st.log.append(f"{m.name} rolls {' '.join(faces)} for Superior Alien Technology")
            for c, f in zip(list(m.ufo), faces, strict=True):
                if f == "smash":
                    m.ufo.remove(c)
                    st.discard_card(m, c)
                    st.log.append(f"{m.name} discards {st.cards[c].name} (Superior Alien Technology)")
            return
        cid, reveal = self.parse_buy(st, args[1:])
        price = self.check_buy(st, i, cid)
        full = st.cost(cid, m)
        snapshot = st._snapshot()
        m.energy += full - price  # the market buy below charges the full cost
        try:
            st._market_action(Buy(i, cid, reveal))
        except IllegalMoveError:
            st._restore(snapshot)
            raise
        m.ufo.append(cid)
        st.log.append(f"{m.name} buys {st.cards[cid].name} for {price} energy with a UFO token "
                      "(Superior Alien Technology)")

    def before_roll(self, st: StateBase, m: Monster) -> None:
        i = st.seat(m)
        if self.marked(m) and f"{self.id}:{i}" not in st.used_this_turn:
            raise st.illegal("kot-unexpected", got="a first roll",
                           expected=f"{m.name}'s Superior Alien Technology dice ({m.name} use "
                                    f"superior-alien-technology FACE ..., one die per card with a UFO token)")


HOOKS: dict[str, Hook] = {
    "precision_field_support": PrecisionFieldSupport(),
    "anger_batteries": AngerBatteries(),
    "adapting_technology": AdaptingTechnology(),
    "funny_looking_but_dangerous": FunnyLookingButDangerous(),
    "exotic_arms": ExoticArms(),
    "mothership_support": MothershipSupport(),
    "superior_alien_technology": SuperiorAlienTechnology(),
}
