"""Power Up! evolutions of Cyber Kitty (see kbgrules.king_of_tokyo.cards.evolutions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kbgrules.king_of_tokyo.cards.evolutions.common import (
    ThisTurnOnly,
    TokyoRush,
    _before_roll,
    _key,
    _linger,
    _monster,
    _own_roll,
    _refuse,
)
from kbgrules.king_of_tokyo.hooks import Hook
from kbgrules.king_of_tokyo.moves import face_counts

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.monster import Monster
    from kbgrules.king_of_tokyo.statebase import StateBase


class NineLives(Hook):
    """``play nine-lives`` reveals it: it lies in front of its owner and saves it the next time it drops to
    0 life (Board Game Arena applies it by itself from the hand at that moment)."""

    card = _key("nine-lives")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _linger(st, st.monsters[i], "nine-lives")

    def on_zero_life(self, st: StateBase, i: int) -> bool:
        m = st.monsters[i]
        if "nine-lives" not in m.evolutions:
            return False
        for c in list(m.cards):
            st.discard_card(m, c)
        m.mimic = None
        for e in m.evolutions:
            m.evo_discard[e] += 1
        for e in m.hand:
            if e != "?":  # a secret card is discarded unseen
                m.evo_discard[e] += 1
        m.evolutions, m.hand, m.stored, m.icy, m.ufo = [], [], {}, None, []
        for k in m.tokens:
            m.tokens[k] = 0
        m.energy = 0
        m.location = "outside"
        m.hp = 9
        m.vp = 9
        st.log.append(f"{m.name} comes back with 9 life and 9 VP (Nine Lives)")
        return True


class MegaPurr(Hook):
    """``play mega-purr NAME vp|energy ...``: each other monster that has VP or energy gives one of them."""
    card = _key("mega-purr")

    def choices(self, st: StateBase, i: int, args: Sequence[str]) -> dict[int, str]:
        if len(args) % 2:
            raise _refuse(st, "mega-purr", "write: NAME play mega-purr MONSTER vp|energy ...")
        out: dict[int, str] = {}
        for who, what in zip(args[::2], args[1::2], strict=True):
            k = _monster(st, "mega-purr", who)
            o = st.monsters[k]
            what = {"star": "vp", "e": "energy"}.get(what.lower(), what.lower())
            if k == i or k in out or what not in ("vp", "energy"):
                raise _refuse(st, "mega-purr", "name each other monster once, with vp or energy")
            if (o.vp if what == "vp" else o.energy) <= 0:
                raise _refuse(st, "mega-purr", f"{o.name} has no {what.replace('vp', 'VP')} to give")
            out[k] = what
        for k in st.alive():
            o = st.monsters[k]
            if k != i and k not in out and (o.vp or o.energy):
                raise _refuse(st, "mega-purr", f"say what {o.name} gives (vp or energy)")
        return out

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        self.choices(st, i, args)

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        for k, what in self.choices(st, i, args).items():
            o = st.monsters[k]
            if what == "vp":
                o.vp -= 1
                m.vp += 1
            else:
                o.energy -= 1
                m.energy += 1


class CatNip(ThisTurnOnly):
    """``play cat-nip`` before the first roll: one roll only, and the dice count double."""
    card = _key("cat-nip")
    lasting = "cat-nip"

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _before_roll(st, i, "cat-nip")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _linger(st, st.monsters[i], "cat-nip")
        st.bonus_rolls -= st.max_rolls() - 1

    def on_resolve(self, st: StateBase, m: Monster, smashes: int) -> int:
        rs = st.rs
        counts = face_counts(st.dice)
        for number in ("1", "2", "3"):  # the second half of everything the dice gave
            if counts[number] >= rs.set_size:
                m.vp += int(number) + counts[number] - rs.set_size
        st.gain_energy(m, counts["energy"])
        hearts = counts["heart"] - sum(st.cures.values()) - sum(n for _, n in st.heal_rays)
        if hearts > 0 and (not m.in_tokyo or rs.heal_in_tokyo):
            st.heal(m, hearts)
        return 2 * smashes


class PlayWithYourFood(Hook):
    """``use play-with-your-food MONSTER`` after rolling, before the dice resolve: if the owner's smashes
    would make that monster in Tokyo lose 2 or more life, it loses 2 less and gives 1 VP and 1 energy."""

    card = _key("play-with-your-food")

    def check(self, st: StateBase, i: int, args: Sequence[str]) -> int:
        _own_roll(st, i, "play-with-your-food")
        if len(args) != 1:
            raise _refuse(st, "play-with-your-food", "write: NAME use play-with-your-food MONSTER")
        t = _monster(st, "play-with-your-food", args[0])
        if not st.monsters[t].in_tokyo or t == i:
            raise _refuse(st, "play-with-your-food", f"{args[0]} is not in Tokyo")
        return t

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if args:
            self.check(st, i, args)

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        st.used_this_turn.add(f"play-with-your-food:{self.check(st, i, args)}")

    def deal_damage(self, st: StateBase, owner: int, victim: int, amount: int) -> int:
        o = st.monsters[victim]
        if (st.smashing != victim or owner != st.active or amount < 2 or not o.in_tokyo
                or f"play-with-your-food:{victim}" not in st.used_this_turn):
            return amount
        m = st.monsters[owner]
        if o.vp:
            o.vp -= 1
            m.vp += 1
        if o.energy:
            o.energy -= 1
            m.energy += 1
        return amount - 2


HOOKS: dict[str, Hook] = {
    "nine_lives": NineLives(),
    "mega_purr": MegaPurr(),
    "feline_motor": TokyoRush("feline-motor", permanent=True),
    "cat_nip": CatNip(),
    "play_with_your_food": PlayWithYourFood(),
}
