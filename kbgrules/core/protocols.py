"""What every game object does, whatever the game: the :class:`Game` protocol."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import random
    from collections.abc import Sequence

__all__ = ["Game"]


class Game(Protocol):
    """What a game object of any game does (python-chess's ``Board``, for board games). Moves are
    the game's own small values, written and read in the log notation of docs/log-format.md."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def turn(self) -> str | None:
        """The name of the player to move; None at a chance event and at the end."""

    @property
    def moves(self) -> list[Any]:
        """The moves pushed so far (a replayed log's too)."""

    def is_over(self) -> bool: ...

    def outcome(self) -> Any:
        """The result once the game is over (winners and standings); None before."""

    def legal_moves(self) -> list[Any]:
        """The moves the player to move may make (none at a chance node)."""

    def is_chance(self) -> bool:
        """Whether chance moves next (a roll, a deal, a card or tile drawn, the first player):
        :meth:`chance_outcomes` says what can happen, and whoever runs the game pushes one."""

    def chance_outcomes(self) -> Sequence[tuple[Any, float]]:
        """At a chance node, every outcome (a move to push) with its probability, summing to 1; empty
        elsewhere. Where the outcomes are many (a deal of several pieces at once) the sequence is lazy."""

    def sample_chance(self, rng: random.Random) -> Any:
        """One chance outcome drawn by its probability, without listing them all."""

    def is_legal(self, move: Any) -> bool: ...

    def push(self, move: Any) -> None:
        """Play a move; an illegal one raises IllegalMoveError and changes nothing."""

    def parse_move(self, text: str) -> Any:
        """The move a log line names (LogSyntaxError, AmbiguousMoveError)."""

    def push_text(self, text: str) -> Any: ...

    def move_text(self, move: Any) -> str: ...

    def pop(self) -> Any:
        """Take back the last move pushed."""

    def copy(self) -> Game:
        """An independent copy (the shipped games give it for ``copy.copy`` and ``copy.deepcopy``, and
        pickle as their moves)."""

    def position_text(self) -> str:
        """A log that starts from here (headers and position statements)."""
