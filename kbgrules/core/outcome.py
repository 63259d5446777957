"""How a game ended, whatever the game: one :class:`Outcome` type for every engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kbgrules.core.value import FrozenValue


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Outcome(FrozenValue):
    """Whether the game is over, its winners (several: a shared victory; none: nobody won), why it
    ended, and the standings best first, in the game's own terms (scores and ranks, say)."""

    over: bool
    winners: tuple[str, ...]
    reason: str | None
    standings: tuple[Any, ...] = field(default=(), repr=False)

    def __str__(self) -> str:
        """``Bob wins (20 VP)``, ``Ann and Bob share the victory (...)``, ``no winner (...)``."""
        if not self.over:
            return "not over"
        why = f" ({self.reason})" if self.reason else ""
        if not self.winners:
            return "no winner" + why
        if len(self.winners) == 1:
            return f"{self.winners[0]} wins{why}"
        return f"{', '.join(self.winners[:-1])} and {self.winners[-1]} share the victory{why}"
