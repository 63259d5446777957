"""Power Up! evolutions of Gigazaur (see kbgrules.king_of_tokyo.cards.evolutions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kbgrules.king_of_tokyo.cards.evolutions.common import _faces, _key, _own_roll, _refuse
from kbgrules.king_of_tokyo.hooks import Hook

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.statebase import StateBase


class DetachableTail(Hook):
    card = _key("detachable-tail")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        st.monsters[i].shielded_turn = st.turn_number


class SaurianAdaptability(Hook):
    """``play saurian-adaptability FACE NEW-FACE``: every die of the owner showing FACE turns to NEW-FACE."""
    card = _key("saurian-adaptability")

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _own_roll(st, i, "saurian-adaptability")
        _faces(st, "saurian-adaptability", args, "FACE NEW-FACE")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        old, new = _faces(st, "saurian-adaptability", args, "FACE NEW-FACE")
        st.dice = [new if d == old else d for d in st.dice]


class HeatVision(Hook):
    card = _key("heat-vision")

    def after_damage(self, st: StateBase, i: int, lost: int, source: int | None) -> None:
        if st.smashing == i and source is not None and source != i:
            o = st.monsters[source]
            o.vp = max(0, o.vp - 1)


class DieChanger(Hook):
    """Gamma Breath (``use gamma-breath FACE``: to a Smash) and Tail Sweep (``use tail-sweep FACE 1|2``),
    once per turn while the owner is rolling."""

    def __init__(self, card: str, form: str, allowed: tuple[str, ...]) -> None:
        self.card = _key(card)
        self.id = card
        self.form = form
        self.allowed = allowed

    def check(self, st: StateBase, i: int, args: Sequence[str]) -> tuple[str, str]:
        _own_roll(st, i, self.id)
        faces = _faces(st, self.id, args, self.form)
        new = faces[1] if len(faces) == 2 else self.allowed[0]
        if new not in self.allowed:
            raise _refuse(st, self.id, f"the die turns to {' or '.join(self.allowed)}")
        if f"{self.id}:{i}" in st.used_this_turn:
            raise _refuse(st, self.id, "it works once per turn")
        return faces[0], new

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if args:
            self.check(st, i, args)

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        old, new = self.check(st, i, args)
        st.used_this_turn.add(f"{self.id}:{i}")
        st.dice[st.dice.index(old)] = new


HOOKS: dict[str, Hook] = {
    "detachable_tail": DetachableTail(),
    "saurian_adaptability": SaurianAdaptability(),
    "heat_vision": HeatVision(),
    "gamma_breath": DieChanger("gamma-breath", "FACE", ("smash",)),
    "tail_sweep": DieChanger("tail-sweep", "FACE NEW-FACE", ("1", "2")),
}
