"""The one replay loop every game's checker runs: the events of a logged game parsed by the game,
syntax errors reported, the steps played by the game up to the first line that could not be read."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, TypeVar

from kbgrules.core.logfile import Event, GameText
from kbgrules.core.report import GameReport
from kbgrules.errors import Diagnostic, LogSyntaxError

Step = tuple[Event, Any]
T = TypeVar("T")


def players_ok(file: str, g: GameText, report: GameReport, keywords: Collection[str]) -> bool:
    """Whether the player names can be told apart from the game's words (``keywords``); if not, the
    error is reported on the ``@players`` line."""
    players = report.players
    bad = [p for p in players if p in keywords or not p[0].isalpha()]
    if not bad and len(set(players)) == len(players):
        return True
    tag = g.tag("players")
    assert tag is not None
    why = (f"{bad[0]!r} cannot be a player name (names start with a letter and are not one of "
           f"{', '.join(sorted(keywords))})" if bad else "player names must differ")
    report.errors.append(Diagnostic(file, tag.line, tag.values[0].col, "log-player", why))
    return False


def replay_events(file: str, g: GameText, report: GameReport, parse: Callable[[Event], Any],
                  run: Callable[[list[Step], int | None], None]) -> None:
    """Parse every event of ``g`` with the game's ``parse`` (a LogSyntaxError is reported, and checking
    stops before its line), then have the game ``run`` the steps up to that line; a note says where
    checking stopped when no violation did."""
    steps, first_error = parse_events(file, g, report, lambda ev: (ev, parse(ev)))
    run(steps, first_error)
    stopped_note(file, report, first_error)


def parse_events(file: str, g: GameText, report: GameReport, parse: Callable[[Event], T]) -> tuple[list[T], int | None]:
    """``replay_events`` without the steps: what ``parse`` reads of each event (the event is the game's to
    keep), and the line checking stops at (the first that could not be read); run them, then ``stopped_note``."""
    out: list[T] = []
    add = out.append
    first_error: int | None = None
    for ev in g.events:
        try:
            add(parse(ev))
        except LogSyntaxError as exc:
            report.errors.append(Diagnostic(file, exc.line or ev.line, exc.col, exc.code, exc.message))
            first_error = first_error if first_error is not None else ev.line
    if g.stop is not None and (first_error is None or g.stop < first_error):
        first_error = g.stop
    return out, first_error


def stopped_note(file: str, report: GameReport, first_error: int | None) -> None:
    """The note that checking stopped at the first line that could not be read, when no violation did."""
    if first_error is not None and not report.violations:
        report.notes.append(Diagnostic(file, first_error, 1, "stopped",
                                       f"game {report.index}: checking stopped at this line (syntax error)", "note"))
