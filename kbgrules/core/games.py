"""Games from code: start one, or read the games of a log and replay them into game objects.

>>> import kbgrules
>>> [g] = kbgrules.read_games('''@game kingdomino
... @players Ann Bob
... deal 3 17 22 40
... kings Ann Bob Bob Ann
... Ann claim 40
... ''')
>>> g.game, g.players, [(e.line, e.text) for e in g.events][:2]
('kingdomino', ('Ann', 'Bob'), [(3, 'deal 3 17 22 40'), (4, 'kings Ann Bob Bob Ann')])
>>> game = g.replay()
>>> game.turn, game.move_text(game.moves[-1])
('Bob', 'Ann claim 40')
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from kbgrules.core.logfile import GameText, decode, split_games
from kbgrules.errors import Diagnostic, IllegalMoveError, LogSyntaxError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kbgrules.core.model import Ruleset
    from kbgrules.core.report import GameReport


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

    def legal_moves(self) -> list[Any]: ...

    def is_legal(self, move: Any) -> bool: ...

    def push(self, move: Any) -> None:
        """Play a move; an illegal one raises IllegalMoveError and changes nothing."""

    def parse_move(self, text: str) -> Any:
        """The move a log line names (LogSyntaxError, AmbiguousMoveError)."""

    def push_text(self, text: str) -> Any: ...

    def move_text(self, move: Any) -> str: ...

    def pop(self) -> Any:
        """Take back the last move pushed."""

    def copy(self) -> Game: ...

    def position_text(self) -> str:
        """A log that starts from here (headers and position statements)."""


def new_game(game: str, players: Sequence[str], edition: str | None = None, variants: Sequence[str] = (),
             rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> Game:
    """A new game of ``game`` (an id or alias) between the named players, at its set-up: a
    :class:`Game` (``legal_moves``, ``push``, ``push_text``, ``pop``, ``outcome``...)."""
    import kbgrules
    from kbgrules.core.registry import engine_for

    rs = kbgrules.load(game, edition=edition, variants=variants, players=len(players), rules_dirs=rules_dirs)
    made: Game = engine_for(rs.data).new_game(rs, players)
    return made


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """One event line of a log: its text (comment and indentation removed), line and column, and
    the indented lines under it (a kingdom grid)."""

    text: str
    line: int
    col: int
    block: tuple[tuple[int, str], ...] = ()


@dataclass(slots=True)
class LoggedGame:
    """One game of a log: its headers and events, where they are, and how to replay it."""

    file: str
    index: int
    line: int
    headers: dict[str, tuple[str, ...]]
    events: tuple[LoggedEvent, ...]
    errors: tuple[Diagnostic, ...] = ()  # what could not be read while splitting the log
    rules_dirs: tuple[str, ...] = ()
    _text: GameText | None = field(default=None, repr=False)

    @property
    def game(self) -> str | None:
        return (self.headers.get("game") or (None,))[0]

    @property
    def players(self) -> tuple[str, ...]:
        return self.headers.get("players", ())

    @property
    def edition(self) -> str | None:
        return (self.headers.get("edition") or (None,))[0]

    @property
    def variants(self) -> tuple[str, ...]:
        return (*self.headers.get("variant", ()), *self.headers.get("variants", ()))

    def ruleset(self) -> Ruleset:
        """The rules this game is played with (its @game, @edition, @variant tags and players)."""
        import kbgrules

        if self.game is None:
            raise LogSyntaxError(f"game {self.index} has no @game tag", 1, "log-header")
        return kbgrules.load(self.game, edition=self.edition, variants=self.variants, players=len(self.players),
                             rules_dirs=self.rules_dirs)

    def check(self) -> GameReport:
        """The verdict on this game, as ``kbg check`` gives it."""
        return self._run()[0]

    def replay(self) -> Game:
        """The game object at the end of the log (see :func:`new_game`), its moves pushed.

        The first problem is raised: :class:`~kbgrules.errors.LogSyntaxError` for a line that cannot
        be read, :class:`~kbgrules.errors.IllegalMoveError` for the first illegal move or failed
        checkpoint; either carries ``file``, ``line`` and ``col`` of where it is.
        """
        report, state = self._run()
        for d in (*self.errors, *report.errors):
            raise LogSyntaxError(d.message, d.col, d.code).located(d.file, d.line, d.col)
        for v in report.violations:
            raise IllegalMoveError(v.code, v.rule, v.message).located(v.file, v.line, v.col)
        from kbgrules.core.registry import engine_for

        rs = self.ruleset()
        assert self._text is not None
        replayed: Game = engine_for(rs.data).replayed(rs, self._text, report, state)
        return replayed

    def _run(self) -> tuple[GameReport, Any]:
        from kbgrules.core.check import replay_game

        assert self._text is not None
        return replay_game(self.file, self._text, self.rules_dirs)


def read_games(source: str | os.PathLike[str], rules_dirs: Sequence[str | os.PathLike[str]] = ()) \
        -> list[LoggedGame]:
    """The games of a log: ``source`` is a path (an ``os.PathLike``, or a string naming an existing
    file) or the log's text. Lines that cannot be read are kept in each game's ``errors`` (and
    :meth:`LoggedGame.replay` raises the first); a file that cannot be read at all raises."""
    if isinstance(source, os.PathLike) or ("\n" not in source and os.path.isfile(source)):
        file = os.fspath(source)
        with open(file, "rb") as fh:
            raw = fh.read()
        text, unreadable = decode(file, raw)
        if text is None:
            d = unreadable[0]
            raise LogSyntaxError(d.message, d.col, d.code).located(d.file, d.line, d.col)
    else:
        file, text = "<text>", str(source)
    games, problems = split_games(file, text)
    dirs = tuple(os.fspath(d) for d in rules_dirs)
    out = []
    for g in games:
        end = games[g.index].line if g.index < len(games) else 1 << 62
        headers = {h.name: tuple(t.text for t in h.values) for h in g.headers}
        events = tuple(LoggedEvent(" ".join(ev.words), ev.line, ev.col, tuple(ev.block)) for ev in g.events)
        found = tuple(d for d in problems if g.line <= d.line < end)
        out.append(LoggedGame(file, g.index, g.line, headers, events, found, dirs, g))
    return out
