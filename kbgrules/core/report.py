"""What ``kbg check`` reports: a violation, the verdict on one game, the report on a whole input."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kbgrules.core.value import FrozenValue, Value
from kbgrules.errors import Diagnostic, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kbgrules.core.result import GameResult


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Violation(FrozenValue):
    """A move that breaks a rule: where, the stable code, the rule id, one sentence."""

    file: str
    line: int
    col: int
    code: str
    rule: str
    message: str

    def __str__(self) -> str:
        return shown(f"{self.file}:{self.line}:{self.col}: error {self.code}: {self.message} [{self.rule}]")

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "col": self.col, "code": self.code, "rule": self.rule, "message": self.message}


@dataclass(slots=True, repr=False, eq=False)
class GameReport(Value):
    """The verdict on one game of a log."""

    file: str
    index: int
    line: int
    game: str | None = None
    edition: str | None = None
    variants: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    errors: list[Diagnostic] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    result: GameResult | None = None  # where the game stands: at its end or where checking stopped
    timeline: list[dict[str, Any]] = field(default_factory=list)  # snapshots for `kbg show`, not in JSON
    timeline_builder: Any = field(default=None, repr=False)  # makes `timeline` on demand (see show_timeline())
    match_games: int = 1  # games in a match of several (a variant's ``match: games``)
    match_name: str | None = None  # the variant that makes the match

    @property
    def final(self) -> dict[str, Any] | None:
        """The game's own JSON of where it stands (``result.final``)."""
        return None if self.result is None else self.result.final

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """Pickled with its timeline built: the builder holds the game's state, which stays behind."""
        state = {name: getattr(self, name) for name in self.__slots__ if hasattr(self, name)}
        state["timeline"], state["timeline_builder"] = self.show_timeline(), None
        return None, state

    def show_timeline(self) -> list[dict[str, Any]]:
        """The game's snapshots step by step (turns, rounds: the game's own), built on first use."""
        if not self.timeline and self.timeline_builder is not None:
            self.timeline = self.timeline_builder()
        return self.timeline

    @property
    def valid(self) -> bool:
        return not self.errors and not self.violations

    def stop(self, line: int, col: int, event_col: int, code: str, rule: str, message: str) -> None:
        """Record the game's first violation, and the note that checking stops there."""
        self.violations.append(Violation(self.file, line, col, code, rule, message))
        self.notes.append(Diagnostic(self.file, line, event_col, "stopped",
                                     f"game {self.index}: checking stopped at this line; the lines after it "
                                     "were not checked", "note"))

    def to_json(self, turns: bool = False) -> dict[str, Any]:
        """The game as JSON (docs/check-output.schema.json); with ``turns``, also the state at the end of
        every turn or round (the report must keep its timeline: ``check_*(..., timeline=True)``)."""
        out = {
            "index": self.index, "file": self.file, "line": self.line, "game": self.game, "edition": self.edition,
            "variants": list(self.variants), "players": list(self.players), "valid": self.valid,
            "errors": [{"line": d.line, "col": d.col, "code": d.code, "message": d.message} for d in self.errors],
            "violations": [v.to_json() for v in self.violations], "final": self.final,
            "notes": [{"line": d.line, "col": d.col, "code": d.code, "message": d.message} for d in self.notes],
        }
        if turns:
            out["turns"] = self.show_timeline()
        return out


@dataclass(slots=True, repr=False, eq=False)
class CheckReport(Value):
    """Every game of every input, plus inputs that could not be read at all."""

    games: list[GameReport] = field(default_factory=list)
    input_errors: list[Diagnostic] = field(default_factory=list)
    matches: list[dict[str, Any]] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        if self.input_errors or any(g.errors for g in self.games):
            return 2
        if any(g.violations for g in self.games):
            return 1
        return 0

    def extend(self, other: CheckReport) -> None:
        self.games.extend(other.games)
        self.input_errors.extend(other.input_errors)
        self.matches.extend(other.matches)

    def to_json(self, turns: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kbg_json": 1,
            "games": [g.to_json(turns) for g in self.games],
            "errors": [{"file": d.file, "line": d.line, "col": d.col, "code": d.code, "message": d.message}
                       for d in self.input_errors],
        }
        if self.matches:
            out["matches"] = self.matches
        return out
