"""``kbg check``: replay the games of a log and report syntax errors, the first violation, and the result.

The core reads the log and loads each game's rules; the game's engine replays it.

Examples with both shipped games: docs/library.md (run as doctests).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from kbgrules.core import args, registry
from kbgrules.core.load import load_for_log
from kbgrules.core.logfile import GameText, Header, Token, decode, iter_games, read_text, split_games, unknown_tags
from kbgrules.core.report import CheckReport, GameReport
from kbgrules.core.value import FrozenValue, Value
from kbgrules.errors import Diagnostic, IllegalMoveError, KbgError, LogSyntaxError, debug

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kbgrules.core.model import Ruleset
    from kbgrules.core.protocols import Game

RulesDirs = Sequence[str | os.PathLike[str]]


def check_game(file: str, g: GameText, rules_dirs: RulesDirs = ()) -> GameReport:
    """Check one game of a log."""
    return replay_game(file, g, rules_dirs)[0]


def replay_game(file: str, g: GameText, rules_dirs: RulesDirs = ()) -> tuple[GameReport, Any]:
    """Check one game of a log; the report, and the engine's state where the replay stopped (None
    when the rules could not be loaded)."""
    report = GameReport(file, g.index, g.line)
    game_tag = players_tag = None
    names_of: list[str] = []
    variant: list[str] = []
    variants: list[str] = []
    edition_vals: list[str] = []
    comma: tuple[Header, Token] | None = None
    for h in g.headers:  # the tags read in one pass
        tag_name = h.name
        if tag_name == "game":
            if game_tag is None:
                game_tag = h
        elif tag_name == "players":
            players_tag = h
            for t in h.values:
                names_of.append(t.text)
                if comma is None and "," in t.text:
                    comma = h, t
        elif tag_name == "variant":
            variant += [t.text for t in h.values]
        elif tag_name == "variants":
            variants += [t.text for t in h.values]
        elif tag_name == "edition":
            edition_vals += [t.text for t in h.values]
    variants = variant + variants
    if game_tag is None or players_tag is None:
        return report, None  # split_games already reported the missing tags
    players = tuple(names_of)
    if comma is not None:  # "@players Alice, Bernard" would make a player "Alice,"
        header, tok = comma
        names = " ".join(" ".join(players).replace(",", " ").split()) or "NAME NAME"
        report.errors.append(Diagnostic(file, header.line, tok.col + tok.text.index(","), "log-player",
                                        f"players are separated by spaces, not commas: @players {names}"))
        return report, None
    report.players = players
    try:
        rs = load_for_log(game_tag.values[0].text, edition_vals[0] if edition_vals else None, variants,
                          len(players), rules_dirs)
    except KbgError as exc:
        tag: Header | None = game_tag
        if exc.code in ("unknown-edition", "unknown-variant", "variant-conflict"):
            tag = g.tag("edition") if exc.code == "unknown-edition" else (g.tag("variant") or g.tag("variants"))
            name = getattr(exc, "name", None)
            for h in g.headers:
                if h.name in ("variant", "variants") and any(t.text == name for t in h.values):
                    tag = h
            tag = tag or game_tag
        elif exc.code == "player-count":
            tag = g.tag("players") or game_tag
        where = tag or game_tag
        report.errors.append(Diagnostic(file, where.line, where.col, exc.code, exc.message))
        return report, None
    report.game, report.edition = rs.game.id, rs.edition.id
    match = rs.data.get("match") or {}
    report.match_games, report.match_name = int(match.get("games", 1)), match.get("name")
    report.variants = tuple(v.id for v in rs.variants)
    bad = unknown_tags(file, g, rs.data.get("log_headers") or {})
    if bad is not None:
        report.errors.append(bad)
        return report, None
    engine = registry.engine_for(rs.data)
    try:
        return report, engine.check(file, g, rs, report)
    except Exception as exc:  # a bug in kbg: this game says so, and the file's other games are still checked
        if debug():
            raise
        report.errors.append(Diagnostic(file, g.line, 1, "internal",
                                        f"game {g.index}: {type(exc).__name__}: {str(exc)[:200]} (a bug in kbg: "
                                        "set KBG_DEBUG=1 for a traceback); the file's other games are checked"))
        return report, None


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class LoggedEvent(FrozenValue):
    """One event line of a log: its text (comment and indentation removed), line and column, and
    the indented lines under it (a grid)."""

    text: str
    line: int
    col: int
    block: tuple[tuple[int, str], ...] = ()


@dataclass(slots=True, repr=False, eq=False)
class LoggedGame(Value):
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
        from kbgrules.core.load import load

        if self.game is None:
            raise LogSyntaxError(f"game {self.index} has no @game tag", 1, "log-header")
        return load(self.game, edition=self.edition, variants=self.variants, players=len(self.players),
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
        rs = self.ruleset()
        assert self._text is not None
        replayed: Game = registry.engine_for(rs.data).replayed(rs, self._text, report, state)
        return replayed

    def _run(self) -> tuple[GameReport, Any]:
        assert self._text is not None
        return replay_game(self.file, self._text, self.rules_dirs)


def logged_games(file: str, text: str, rules_dirs: RulesDirs = ()) -> tuple[list[LoggedGame], list[Diagnostic]]:
    """The games of a log's text, and the problems found before the first game."""
    games, problems = split_games(file, text)
    dirs = tuple(os.fspath(d) for d in rules_dirs)
    out = []
    for g in games:
        end = games[g.index].line if g.index < len(games) else 1 << 62
        headers: dict[str, tuple[str, ...]] = {}
        for h in g.headers:  # a tag given twice (two @variant lines) keeps both
            headers[h.name] = (*headers.get(h.name, ()), *(t.text for t in h.values))
        events = tuple(LoggedEvent(" ".join(ev.words), ev.line, ev.col, tuple(ev.block)) for ev in g.events)
        found = tuple(d for d in problems if g.line <= d.line < end)
        out.append(LoggedGame(file, g.index, g.line, headers, events, found, dirs, g))
    first_game_line = games[0].line if games else 1 << 62
    return out, [d for d in problems if d.line < first_game_line]


def iter_check_text(file: str, text: str, rules_dirs: RulesDirs = (),
                    timeline: bool = True) -> Iterator[CheckReport]:
    """Check the games of one log's text one at a time: yields a part per game as it is checked (and
    a part for problems outside any game; a match of several games comes with the game that ends it). The parts
    merged with ``CheckReport.extend`` are ``check_text``'s report; a caller that drops each part once
    used keeps memory flat however many games the log holds."""
    args.text(file, "file")
    args.text(text, "text")
    dirs = rules_dirs if rules_dirs == () else args.folders(rules_dirs)  # the default: nothing to check
    matches = _Matches()
    for g, found in iter_games(file, text):  # one game in memory at a time
        if g is None:
            yield CheckReport(input_errors=found)
            continue
        gr, _ = replay_game(file, g, dirs)
        gr.errors[:0] = found
        gr.errors.sort(key=lambda d: (d.line, d.col))
        if not timeline:
            gr.timeline_builder = None
        yield CheckReport(games=[gr], matches=matches.add(gr))
    last = matches.close()
    if last:
        yield CheckReport(matches=last)


def check_text(file: str, text: str, rules_dirs: RulesDirs = (), timeline: bool = True) -> CheckReport:
    """Check every game in the text of one log file. Without ``timeline`` the reports keep no way
    to build ``kbg show``'s turn-by-turn timeline, so no game state stays alive after its check."""
    return _merged(iter_check_text(file, text, rules_dirs, timeline))


def iter_check_bytes(file: str, raw: bytes, rules_dirs: RulesDirs = (),
                     timeline: bool = True) -> Iterator[CheckReport]:
    """``iter_check_text`` on bytes: a part with the input error if they are not UTF-8 text."""
    args.text(file, "file")
    args.data(raw, "raw")
    text, errors = decode(file, bytes(raw))
    if text is None:
        yield CheckReport(input_errors=errors)
        return
    yield from iter_check_text(file, text, rules_dirs, timeline)


def check_bytes(file: str, raw: bytes, rules_dirs: RulesDirs = (), timeline: bool = True) -> CheckReport:
    return _merged(iter_check_bytes(file, raw, rules_dirs, timeline))


def iter_check_file(path: str, rules_dirs: RulesDirs = (), timeline: bool = False) -> Iterator[CheckReport]:
    """``check_file`` one game at a time (see ``iter_check_text``)."""
    name, text, errors = read_text(args.path(path))  # the bytes are gone before the games are checked
    if text is None:
        yield CheckReport(input_errors=errors)
        return
    yield from iter_check_text(name, text, rules_dirs, timeline)


def check_file(path: str, rules_dirs: RulesDirs = (), timeline: bool = False) -> CheckReport:
    """Check one log file (``-``: standard input), never reading more than the size limit allows."""
    return _merged(iter_check_file(path, rules_dirs, timeline))


def _merged(parts: Iterator[CheckReport]) -> CheckReport:
    report = CheckReport()
    for part in parts:
        report.extend(part)
    return report


def _failed(path: str, exc: Exception) -> CheckReport:
    kind = "io" if isinstance(exc, OSError) else "internal"
    message = f"{type(exc).__name__}: {str(exc)[:200]} (a bug in kbg: set KBG_DEBUG=1 for a traceback)"
    return CheckReport(input_errors=[Diagnostic(path if path != "-" else "<stdin>", 1, 1, kind, message)])


STREAMED_BYTES = 256 * 1024  # a file this big is checked in this process, one game at a time


def checked_alone(path: str, rules_dirs: RulesDirs = (), timeline: bool = False) -> CheckReport:
    """``check_file``, with whatever goes wrong in this file kept in this file's report (see
    ``parts_alone``)."""
    return _merged(parts_alone(path, rules_dirs, timeline))


def parts_alone(path: str, rules_dirs: RulesDirs = (), timeline: bool = False) -> Iterator[CheckReport]:
    """``iter_check_file``, with whatever goes wrong in this file kept in this file's parts: a bug in
    kbg (an unexpected exception) is the input error ``internal`` at the file, so that one bad file
    never hides the reports of the others (``KBG_DEBUG=1`` lets the exception through). There is
    always at least one part."""
    dirs = args.folders(rules_dirs)
    name = args.path(path)
    empty = True
    try:
        for part in iter_check_file(name, dirs, timeline):
            empty = False
            yield part
    except Exception as exc:
        if debug():
            raise
        empty = False
        yield _failed(name, exc)
    if empty:
        yield CheckReport()


def iter_check_files(paths: Sequence[str], rules_dirs: RulesDirs = (), jobs: int = 1,
                     timeline: bool = False) -> Iterator[tuple[int, CheckReport]]:
    """Check log files one after the other, or on ``jobs`` worker processes; yields ``(i, part)``:
    the parts of ``paths[i]`` (at least one per file, see ``parts_alone``), in the order of ``paths``,
    as soon as they are known. Memory stays flat however many files and games there are, as long as
    the caller drops each part once used: a part keeps no game state (unless ``timeline``, which keeps
    the check in this process: a timeline cannot travel between processes), and a file of
    ``STREAMED_BYTES`` or more is checked here one game at a time, never whole on a worker."""
    dirs = args.folders(rules_dirs)
    paths = args.folders(paths, "paths", "file")
    args.count(jobs, "jobs")
    big = {i for i, p in enumerate(paths) if _size(p) >= STREAMED_BYTES} if jobs > 1 else set()
    small = [p for i, p in enumerate(paths) if i not in big]
    workers = min(jobs, len(small))  # never more processes than files to give them
    if workers <= 1 or "-" in paths or timeline:
        for i, path in enumerate(paths):
            for part in parts_alone(path, dirs, timeline):
                yield i, part
        return
    # A window of chunks in flight, never the whole list: memory stays flat and a run cut short (Ctrl-C, a
    # failing stdout, a reader gone) waits only for the chunks already running. Shut down with waiting, so
    # no thread outlives the run (without waiting, Python 3.11 could still write to a closed descriptor as
    # the interpreter exited: gh-125451); never terminated mid-task (multiprocessing.Pool.terminate() can
    # kill a worker holding the result queue's lock, and then waits forever).
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    chunk = max(1, min(16, len(small) // (workers * 8)))
    chunks = iter([small[k:k + chunk] for k in range(0, len(small), chunk)])
    pool = ProcessPoolExecutor(workers, initializer=_worker_ignores_interrupts)
    flight: deque[Future[list[CheckReport]]] = deque()

    def fill() -> None:
        while len(flight) < workers * 4:
            paths_of = next(chunks, None)
            if paths_of is None:
                return
            flight.append(pool.submit(_checked_chunk, paths_of, dirs))

    try:
        fill()
        done: list[CheckReport] = []
        for i, path in enumerate(paths):
            if i in big:
                for part in parts_alone(path, dirs):
                    yield i, part
                continue
            if not done:
                done = flight.popleft().result()
                done.reverse()
                fill()
            yield i, done.pop()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _checked_chunk(paths: list[str], rules_dirs: tuple[str, ...]) -> list[CheckReport]:
    """A worker's task: the reports of a few files (``checked_alone``), in order."""
    return [checked_alone(p, rules_dirs) for p in paths]


def check_files(paths: Sequence[str], rules_dirs: RulesDirs = (), jobs: int = 1,
                timeline: bool = False) -> Iterator[CheckReport]:
    """``iter_check_files`` with each file's parts merged: one report per file, in the order of
    ``paths``. A file whose check fails unexpectedly gets an ``internal`` input error; the others go on."""
    report: CheckReport | None = None
    current = 0
    for i, part in iter_check_files(paths, rules_dirs, jobs, timeline):
        if report is not None and i != current:
            yield report
            report = None
        if report is None:
            current, report = i, CheckReport()
        report.extend(part)
    if report is not None:
        yield report


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except (OSError, ValueError):
        return 0


def _worker_ignores_interrupts() -> None:
    """Ctrl-C is the main process's to handle: a worker finishes its task."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Matches:
    """Matches of several games (a variant's ``match``), found as games come: consecutive games of
    one file whose rules play several    games; totals decide."""

    def __init__(self) -> None:
        self.run: list[GameReport] = []

    def add(self, g: GameReport) -> list[dict[str, Any]]:
        """The matches that game ``g`` ends (one that it completes, or one it interrupts)."""
        run = self.run
        if g.match_games > 1 and (not run or (run[0].players, run[0].file, run[0].variants)
                                  == (g.players, g.file, g.variants)):
            run.append(g)
            if len(run) < g.match_games:
                return []
            self.run = []
            return [_match(run)]
        out = self.close()
        if g.match_games > 1:
            self.run = [g]
        return out

    def close(self) -> list[dict[str, Any]]:
        """The match still open at the end of the file (incomplete), if any."""
        run, self.run = self.run, []
        return [_match(run)] if run else []


def _match(games: list[GameReport]) -> dict[str, Any]:
    size = games[0].match_games
    complete = len(games) == size and all(g.valid and g.result is not None and g.result.over for g in games)
    totals: dict[str, int] = {}
    for g in games:
        for name, points in (g.result.points if g.result is not None else {}).items():
            totals[name] = totals.get(name, 0) + points
    best = max(totals.values(), default=0)
    return {
        "variant": games[0].match_name or "match", "file": games[0].file, "games": [g.index for g in games],
        "complete": complete,
        "totals": totals,
        "winners": [n for n, t in totals.items() if t == best] if complete else [],
    }
