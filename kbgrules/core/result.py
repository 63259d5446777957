"""A checked game's result: a common part every consumer reads without knowing the game, the game's
own JSON, and the views the game draws of it (blocks of :mod:`kbgrules.core.views`).

Each game's package makes its result (a subclass that adds its own typed facts and its views of the
game's progress); the CLI, the HTML report and the site only read what is here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kbgrules.core.outcome import Outcome
from kbgrules.core.value import Value
from kbgrules.core.views import Block, Table


@dataclass(slots=True, repr=False, eq=False)
class GameResult(Value):
    """Where a game stands once checked (at its end, or where checking stopped).

    ``standings`` is a table best first whose ``key`` column names the player; ``points`` is what a
    match of several games adds up per player; ``headline`` says who won and why, or where the game
    stands; ``pictures`` draw the final position (a board per player); ``final`` is the game's own
    JSON (the ``final`` of docs/check-output.schema.json)."""

    game: str
    players: tuple[str, ...]
    outcome: Outcome
    headline: str
    standings: Table
    points: dict[str, int]
    final: dict[str, Any] = field(repr=False)
    pictures: tuple[Block, ...] = field(default=(), repr=False)

    @property
    def over(self) -> bool:
        return self.outcome.over

    @property
    def winners(self) -> tuple[str, ...]:
        return self.outcome.winners

    @property
    def reason(self) -> str | None:
        return self.outcome.reason

    def summary(self, stopped: bool = False) -> tuple[Block, ...]:
        """The verdict sentence, the standings and the pictures; ``stopped``: checking stopped
        early, so the state shown is where it stopped."""
        from kbgrules.core.views import Text

        head = self.headline if self.over or not stopped else "Where checking stopped:"
        return (Text(head, strong=self.over), self.standings, *self.pictures)

    def progress(self, timeline: list[dict[str, Any]]) -> Table | None:
        """``kbg show``'s table of the game step by step (its title says what a cell holds), from the
        timeline (``GameReport.show_timeline()``); None if the game draws none."""
        return None

    def charts(self, timeline: list[dict[str, Any]]) -> tuple[Block, ...]:
        """The pictures of the game's course for the HTML report (charts, who held what)."""
        return ()

    def to_json(self) -> dict[str, Any]:
        return self.final
