"""Power Up! evolutions of Pandakai (see kbgrules.king_of_tokyo.cards.evolutions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kbgrules.king_of_tokyo.cards.evolutions.common import (
    _after_rolling,
    _before_roll,
    _card,
    _deck_check,
    _key,
    _own_buy,
    _own_roll,
    _refuse,
)
from kbgrules.king_of_tokyo.hooks import Hook
from kbgrules.king_of_tokyo.moves import Buy

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.monster import Monster
    from kbgrules.king_of_tokyo.statebase import StateBase


OPPOSITE = {"1": "3", "3": "1", "2": "heart", "heart": "2", "smash": "energy", "energy": "smash"}


class PandaMonium(Hook):
    """The 6 energy for the owner are an effect in the data; every other monster gains 3."""
    card = _key("panda-monium")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        for j in st.alive():
            if j != i:
                st.gain_energy(st.monsters[j], 3)


class EatsShootsAndLeaves(Hook):
    card = _key("eats-shoots-and-leaves")

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _own_buy(st, i, "eats-shoots-and-leaves", "it is played")
        if not st.monsters[i].in_tokyo or st.began_at(i) in ("city", "bay"):
            raise _refuse(st, "eats-shoots-and-leaves", "its owner must have entered Tokyo this turn")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        victims = [j for j in st.alive() if j != i and not st.monsters[j].in_tokyo]
        st.gain_energy(m, 1)
        m.location = "outside"
        st.log.append(f"{m.name} leaves Tokyo (Eats, Shoots and Leaves)")
        for j in victims:
            st.damage(j, 2, i)


class Bamboozle(Hook):
    """``play bamboozle CARD [OTHER : REVEALED-CARD]`` in another monster's buy step, in place of its buy of
    CARD (never written as a buy line): it may not buy CARD this turn and buys OTHER at once, a card it can
    afford that the owner picks (and the card revealed to replace it). Without OTHER it buys nothing: no
    other card in the market is affordable."""

    card = _key("bamboozle")
    id = "bamboozle"

    def check(self, st: StateBase, i: int, args: Sequence[str]) -> tuple[str, str | None, str | None]:
        texts = list(args)
        if len(texts) not in (1, 2, 4) or (len(texts) == 4 and texts[2] != ":"):
            raise _refuse(st, self.id, "write: NAME play bamboozle CARD [OTHER-CARD : REVEALED-CARD]")
        stopped = _card(st, self.id, texts[0])
        other = _card(st, self.id, texts[1]) if len(texts) > 1 else None
        reveal = _card(st, self.id, texts[3]) if len(texts) == 4 else None
        if i == st.active:
            raise _refuse(st, self.id, "it is played when another monster buys a card")
        _after_rolling(st)
        if st.phase != "buy":
            raise _refuse(st, self.id, "it is played in another monster's buy step")
        buyer = st.me

        def can_buy(c: str) -> bool:
            return c in st.market and st.cost(c, buyer) <= buyer.energy and st.buy_allowed(buyer, c)

        if not can_buy(stopped) or f"buy-forbidden:{st.active}:{stopped}" in st.used_this_turn:
            raise _refuse(st, self.id, f"{buyer.name} cannot buy {st.cards[stopped].name} now")
        left = [c for c in st.market if c != stopped and can_buy(c)]
        if other is None and left:
            names = ", ".join(st.cards[c].name for c in dict.fromkeys(left))
            raise _refuse(st, self.id, f"name the card {buyer.name} must buy instead ({names}) and the card "
                                       "revealed: play bamboozle CARD OTHER-CARD : REVEALED-CARD")
        if other is not None and other not in left:
            raise _refuse(st, self.id, f"{buyer.name} cannot buy {st.cards[other].name} instead")
        if other is not None and reveal is None and sum(st.deck.values()) > 0:
            raise _refuse(st, self.id, "name the card revealed to replace it: OTHER-CARD : REVEALED-CARD")
        return stopped, other, reveal

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        reveal = self.check(st, i, args)[2]
        if reveal is not None:
            _deck_check(st, [reveal])

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        stopped, other, reveal = self.check(st, i, args)
        st.used_this_turn.add(f"buy-forbidden:{st.active}:{stopped}")
        st.log.append(f"{st.monsters[i].name} stops {st.me.name} buying {st.cards[stopped].name} (Bamboozle)")
        if other is not None:
            st._market_action(Buy(st.active, other, reveal))


class PandaExpress(Hook):
    card = _key("panda-express")

    def on_resolve(self, st: StateBase, m: Monster, smashes: int) -> int:
        faces = set(st.dice)
        if {"1", "2", "3", "energy", "heart"} <= faces and ("smash" in faces or smashes > 0):
            m.vp += 2
            st.extra_turn = True
        return smashes


class BambooSupply(Hook):
    """``use bamboo-supply put`` (1 energy from the bank onto it) or ``use bamboo-supply take`` (all of
    it), once at the start of each of the owner's turns."""

    card = _key("bamboo-supply")
    holds = True

    def check(self, st: StateBase, i: int, args: Sequence[str]) -> str:
        _before_roll(st, i, "bamboo-supply")
        what = args[0].lower() if len(args) == 1 else ""
        if what not in ("put", "take"):
            raise _refuse(st, "bamboo-supply", "write: NAME use bamboo-supply put|take")
        if f"bamboo-supply:{i}" in st.used_this_turn:
            raise _refuse(st, "bamboo-supply", "it works once per turn")
        return what

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if args:
            self.check(st, i, args)

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        what = self.check(st, i, args)
        st.used_this_turn.add(f"bamboo-supply:{i}")
        m = st.monsters[i]
        if what == "put":
            m.stored["bamboo-supply"] = m.stored.get("bamboo-supply", 0) + 1
        else:
            m.energy += m.stored.pop("bamboo-supply", 0)


class Pandarwinism(Hook):
    card = _key("pandarwinism-survival-of-the-cutest")

    def on_resolve(self, st: StateBase, m: Monster, smashes: int) -> int:
        hearts = st.dice.count("heart")
        if hearts >= 3:
            m.vp += hearts - 2
        return smashes


class YinAndYang(Hook):
    """``use yin-and-yang`` while the owner is rolling: every die turns to its opposite face."""
    card = _key("yin-and-yang")

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if args:
            raise _refuse(st, "yin-and-yang", "write: NAME use yin-and-yang (no arguments)")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _own_roll(st, i, "yin-and-yang")
        st.dice = [OPPOSITE[d] for d in st.dice]


HOOKS: dict[str, Hook] = {
    "panda_monium_others_gain": PandaMonium(),
    "eats_shoots_and_leaves": EatsShootsAndLeaves(),
    "bamboozle": Bamboozle(),
    "panda_express": PandaExpress(),
    "bamboo_supply": BambooSupply(),
    "pandarwinism": Pandarwinism(),
    "yin_and_yang": YinAndYang(),
}
