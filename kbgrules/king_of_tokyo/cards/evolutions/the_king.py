"""Power Up! evolutions of The King (see kbgrules.king_of_tokyo.cards.evolutions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kbgrules.king_of_tokyo.cards.evolutions.common import (
    TokyoRush,
    _expire_own,
    _key,
    _monster,
    _own_buy,
    _refuse,
    _resolve_now,
)
from kbgrules.king_of_tokyo.hooks import Hook
from kbgrules.king_of_tokyo.moves import Decide

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.monster import Monster
    from kbgrules.king_of_tokyo.statebase import StateBase


class SimianScamper(Hook):
    """``play simian-scamper`` instead of ``yield``: the owner, hurt by smashes in Tokyo, leaves Tokyo,
    gets that life back (as with Jets) and loses no life for the rest of the turn."""

    card = _key("simian-scamper")

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _resolve_now(st)
        if st.phase != "decide" or i not in st.pending:
            raise _refuse(st, "simian-scamper", "it is played to yield Tokyo after smashes took life from its owner")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        if "jets" not in st.in_play(m):  # Jets gives the same life back on yielding: not twice
            m.hp += st.smash_damage.get(i, 0)
        m.shielded_turn = st.turn_number
        st._decide(Decide(i, True))


class JungleFrenzy(Hook):
    card = _key("jungle-frenzy")

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _own_buy(st, i, "jungle-frenzy", "it is played")
        if st.monsters[i].in_tokyo or not st.smash_damage:
            raise _refuse(st, "jungle-frenzy", "its owner's smashes must have hurt the monster in Tokyo this "
                                               "turn without the owner taking Tokyo")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        st.extra_turn = True


class ChestThumping(Hook):
    """``use chest-thumping MONSTER``: a monster the owner's smashes hurt in Tokyo must yield."""
    card = _key("chest-thumping")

    def target(self, st: StateBase, i: int, args: Sequence[str]) -> int:
        if i != st.active:
            raise _refuse(st, "chest-thumping", "it works on its owner's turn")
        _resolve_now(st)
        if len(args) != 1:
            raise _refuse(st, "chest-thumping", "write: NAME use chest-thumping MONSTER")
        t = _monster(st, "chest-thumping", args[0])
        if st.phase != "decide" or t not in st.pending:
            raise _refuse(st, "chest-thumping", f"{args[0]} is not in Tokyo deciding to yield after "
                                                "the owner's smashes")
        return t

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if args:
            self.target(st, i, args)

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        st._decide(Decide(self.target(st, i, args), True))


class AlphaMale(Hook):
    card = _key("alpha-male")

    def on_smash_damage(self, st: StateBase, victim: int) -> None:
        key = f"alpha-male:{st.active}"
        if key not in st.used_this_turn:
            st.used_this_turn.add(key)
            st.me.vp += 1


class TwasBeauty(Hook):
    card = _key("twas-beauty-killed-the-beast")

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if not st.monsters[i].in_tokyo:
            raise _refuse(st, "twas-beauty-killed-the-beast", "its owner must be in Tokyo")

    def leave(self, st: StateBase, m: Monster) -> None:
        _expire_own(st, m, "twas-beauty-killed-the-beast")
        m.vp = 0
        st.log.append(f"{m.name} leaves Tokyo and drops to 0 VP (Twas Beauty Killed the Beast)")

    def on_yield(self, st: StateBase, i: int) -> None:
        self.leave(st, st.monsters[i])

    def on_turn_end(self, st: StateBase, active: int) -> None:
        m = st.monsters[active]  # called once per holder (a copy by Icy Reflection too)
        if m.in_tokyo:
            m.vp += 1
        else:  # forced out of Tokyo (not by yielding) since
            self.leave(st, m)


HOOKS: dict[str, Hook] = {
    "simian_scamper": SimianScamper(),
    "jungle_frenzy": JungleFrenzy(),
    "chest_thumping": ChestThumping(),
    "alpha_male": AlphaMale(),
    "monkey_rush": TokyoRush("monkey-rush", permanent=False),
    "twas_beauty_killed_the_beast": TwasBeauty(),
}
