"""``kbg check``, ``kbg score`` and ``kbg simulate``."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kbgrules.core.check import RulesDirs, iter_check_files
from kbgrules.core.logfile import no_logs, read_input
from kbgrules.core.report import CheckReport, GameReport
from kbgrules.core.words import counted, plural

from . import render
from .startup import started

if TYPE_CHECKING:
    from kbgrules.core.model import GameInfo, Ruleset


def parts(files: list[str], rules_dirs: RulesDirs, jobs: int = 1, timeline: bool = False,
          dask: str | None = None) -> Iterator[tuple[int, CheckReport]]:
    """``(i, part)``: the parts of the report on ``files[i]`` (at least one each), in order, as each is
    checked: here one game at a time, on ``jobs`` worker processes, or on the Dask scheduler at address
    ``dask`` (one part per file)."""
    if rules_dirs:
        import kbgrules

        kbgrules.games(rules_dirs)  # invalid user rule data: reported once, before any game
    empty = {f for f in files if f != "-" and Path(f).is_dir()}
    logs = [f for f in files if f not in empty]
    checked: Iterator[tuple[int, CheckReport]]
    if dask is not None or jobs > 1:
        started()  # worker processes forked from here collect garbage as usual
    if dask is not None:
        from kbgrules.dask import iter_reports

        checked = enumerate(iter_reports(logs, dask, rules_dirs))
    else:
        checked = iter_check_files(logs, rules_dirs, jobs=jobs, timeline=timeline)
    try:
        ahead = next(checked, None)
        started()  # the rules are loaded and a part is checked: a run of many parts collects garbage
        k = 0  # the index in ``logs`` of the next file checked
        for i, path in enumerate(files):
            if path in empty:
                yield i, CheckReport(input_errors=[no_logs(path)])
                continue
            while ahead is not None and ahead[0] == k:
                yield i, ahead[1]
                ahead = next(checked, None)
            k += 1
    finally:  # stops the worker pool now, not whenever the interpreter collects it
        close = getattr(checked, "close", None)
        if close is not None:
            close()


def collect(files: list[str], rules_dirs: RulesDirs) -> CheckReport:
    """Every log of ``files`` (the inputs as :func:`~kbgrules.core.logfile.input_files` expands them) in one
    report, with the timelines ``kbg show`` draws."""
    report = CheckReport()
    for _, part in parts(files, rules_dirs, timeline=True):
        report.extend(part)
    return report


def auto_jobs(requested: int | None, files: int) -> int:
    """Worker processes for ``kbg check``: as asked, else every core once there are enough files
    to pay for starting them."""
    if requested is not None:
        return max(1, requested if requested > 0 else (os.cpu_count() or 1))
    return (os.cpu_count() or 1) if files >= 16 else 1


def run_check(files: list[str], rules_dirs: RulesDirs, as_json: bool, jobs: int | None = None,
              quiet: bool = False, summary: bool = False, dask: str | None = None, turns: bool = False,
              html: str | None = None) -> int:
    """Check logs, writing each game's verdict as soon as it is known: nothing of a game is kept once
    written, so memory stays flat however many games a file holds. ``files``: the inputs as
    :func:`~kbgrules.core.logfile.input_files` expands them."""
    import time

    start = time.perf_counter()
    lines = as_json and len(files) > 1  # JSON Lines: one document per input
    code, tally = 0, {"files": 0, "games": 0, "valid": 0, "violations": 0, "errors": 0}
    progress = render.Progress(0 if as_json else len(files), "checking")
    games = installed(rules_dirs)  # read only if a summary names a game
    out: _FileOutput | None = None
    current = -1
    if html is not None:  # the page needs every game whole: checked here, then written as usual
        checked = enumerate(write_html(html, files, rules_dirs))
    else:
        checked = parts(files, rules_dirs, jobs=auto_jobs(jobs, len(files)), dask=dask, timeline=turns and as_json)
    try:
        for i, part in checked:
            if i != current:
                if out is not None:
                    out.close()
                    progress.advance()
                current, out = i, _FileOutput(as_json, lines, turns, quiet, summary, games)
                tally["files"] += 1
            assert out is not None
            code = max(code, part.exit_code)
            tally["games"] += len(part.games)
            tally["valid"] += sum(g.valid for g in part.games)
            tally["violations"] += sum(bool(g.violations) and not g.errors for g in part.games)
            tally["errors"] += sum(bool(g.errors) for g in part.games) + len(part.input_errors)
            out.add(part)
        if out is not None:
            out.close()
            progress.advance()
    finally:
        progress.close()
        close = getattr(checked, "close", None)
        if close is not None:  # a failing stdout stops the workers before the error is reported
            close()
    if not as_json and (quiet or summary or tally["files"] > 1):
        render.diag(f"kbg: {counted(tally['files'], 'file')}, {counted(tally['games'], 'game')}: {tally['valid']} "
                    f"legal, {tally['violations']} with a rule violation, {tally['errors']} with input errors "
                    f"({time.perf_counter() - start:.1f} s)")
    return code


class _FileOutput:
    """One file's verdict written part by part: diagnostics and game summaries as they come; in JSON,
    the report's games streamed, its input errors and matches (small) written at the end."""

    def __init__(self, as_json: bool, lines: bool, turns: bool, quiet: bool, summary: bool,
                 games: Installed) -> None:
        self.turns, self.quiet, self.summary, self.games = turns, quiet, summary, games
        self.rest = CheckReport()  # input errors and matches, for the end of a JSON document
        self.json = render.JsonStream(CheckReport().to_json(), "games", None if lines else 2) if as_json else None
        self.shown = False

    def add(self, part: CheckReport) -> None:
        if self.json is not None:
            for g in part.games:
                self.json.item(g.to_json(self.turns))
            self.rest.input_errors += part.input_errors
            self.rest.matches += part.matches
        elif not self.summary:
            self.shown = _print_report(part, self.quiet, self.games, self.shown) or self.shown

    def close(self) -> None:
        if self.json is not None:
            self.json.close(self.rest.to_json())


def _print_report(report: CheckReport, quiet: bool, games: Installed, after: bool = False) -> bool:
    """Write a report (or a part of one), naming the games as ``games`` (:func:`installed`) do; ``after``:
    something of its file was shown before. True if this shows something on standard output."""
    for d in report.input_errors:
        render.diag(str(d))
    doc = render.Doc()
    matches = list(report.matches)  # each shown after the game that ends it, in a part or in a whole report
    for g in report.games:
        for line in sorted([*map(str, g.errors), *map(str, g.violations), *map(str, g.notes)],
                           key=_position):
            render.diag(line)
        if not quiet:
            _game_summary(doc, g, games)
            for m in [m for m in matches if m["games"] and m["games"][-1] == g.index]:
                _match_line(doc, m, games)
                matches.remove(m)
    if quiet:
        return False
    for m in matches:
        _match_line(doc, m, games)
    if not doc.blocks:
        return False
    doc.show(after)
    return True


def _match_line(doc: render.Doc, m: dict[str, Any], games: Installed) -> None:
    totals = ", ".join(f"{n} {t}" for n, t in sorted(m["totals"].items(), key=lambda x: -x[1]))
    winners = m["winners"]
    verdict = f"{plural(len(winners), 'winner')}: {', '.join(winners)}" if m["complete"] else "incomplete match"
    numbers = ", ".join(map(str, m["games"]))
    doc.para(f"{_variant_title(m, games)}, {m['file']} games {numbers}: {totals}; {verdict}", "bold")


def _position(line: str) -> tuple[int, int, int]:
    parts = line.split(":")
    try:
        return int(parts[1]), " note " in line, int(parts[2])
    except (IndexError, ValueError):
        return 0, 0, 0


def _game_summary(doc: render.Doc, g: GameReport, games: Installed) -> None:
    status = "valid" if g.valid else ("errors in the log" if g.errors else "rule violation")
    doc.heading(f"{g.file} game {g.index} ({_what(g, games)}; {counted(len(g.players), 'player')}): {status}",
                "green" if g.valid else "yellow" if g.errors else "red")
    if g.result is not None:
        for block in g.result.summary(stopped=not g.valid):
            doc.view(block)


def run_score(path: str, rs: Ruleset, as_json: bool) -> int:
    """Score the position in file ``path`` (``-``: standard input) with the rules of ``rs``, whose engine
    scores positions."""
    from kbgrules.core.registry import engine_for, scorer

    engine = scorer(engine_for(rs.data))
    assert engine is not None, "kbg score loads a game that scores positions"
    noun = engine.position_format.noun
    name, raw, err = read_input(path)
    if raw is None:
        assert err is not None
        render.diag(str(err))
        return 2
    if b"\x00" in raw:
        render.diag(f"{name}:1:1: error binary-file: not a {noun}: the file holds NUL bytes")
        return 2
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        render.diag(f"{name}:1:1: error not-utf8: the {noun} is not UTF-8 text")
        return 2
    scored = engine.score_position(name, text, rs)
    if scored.page is None:
        for d in scored.diagnostics:
            render.diag(str(d))
        return 2
    if as_json:
        render.print_json({
            "kbg_json": 1, "game": rs.game.id, "edition": rs.edition.id, "variants": [v.id for v in rs.variants],
            **scored.page.json,
            "warnings": [{"line": w.line, "col": w.col, "code": w.code, "message": w.message}
                         for w in scored.diagnostics],
        })
        return 0
    for w in scored.diagnostics:
        render.diag(str(w))
    doc = render.Doc()
    doc.page(scored.page)
    doc.show()
    return 0


def run_simulate(game: str, players: int, seed: int, edition: str | None, variants: list[str],
                 rules_dirs: RulesDirs, output: str | None) -> int:
    from kbgrules.core.simulate import simulate

    text = simulate(game, players, seed, edition, variants, rules_dirs=[str(d) for d in rules_dirs])
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def write_html(target: str, files: list[str], rules_dirs: RulesDirs) -> list[CheckReport]:
    """Check ``files`` (expanded inputs) and write the HTML report to ``target`` (whole or not at all); each
    file's report."""
    import stat

    from kbgrules.errors import KbgError

    from .web.report import page

    started()
    text, reports = page(files, rules_dirs)
    try:
        special = not stat.S_ISREG(os.stat(target).st_mode)
    except OSError:  # not there yet
        special = False
    tmp = Path(f"{target}.{os.getpid()}.tmp")
    try:
        if special:  # /dev/null, a named pipe: written into, never replaced by a file
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(text)
        else:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, target)
    except OSError as exc:
        raise KbgError(f"cannot write {target}: {exc.strerror or exc}", code="io") from None
    finally:
        if not special:
            tmp.unlink(missing_ok=True)
    return reports


def run_show(files: list[str], rules_dirs: RulesDirs, html: str | None = None) -> int:
    """Each game of ``files`` (expanded inputs) step by step (the game's own table: turns, rounds), then the
    final standings."""
    if html is not None:
        report = CheckReport()
        for r in write_html(html, files, rules_dirs):
            report.extend(r)
    else:
        report = collect(files, rules_dirs)
    for d in report.input_errors:
        render.diag(str(d))
    doc = render.Doc()
    games = installed(rules_dirs)
    for g in report.games:
        for line in sorted([*map(str, g.errors), *map(str, g.violations)], key=_position):
            render.diag(line)
        table = g.result.progress(g.show_timeline()) if g.result is not None else None
        if table is not None:
            info = games.get(g.game or "")
            doc.heading(f"{g.file} game {g.index}: {info.name if info else g.game or '?'}, {table.title}")
            doc.view(replace(table, title=None))
        _game_summary(doc, g, games)
    doc.show()
    return report.exit_code


def installed(rules_dirs: RulesDirs) -> Installed:
    """The games by id, whose names the summaries write (none if the rule data cannot be read: the ids)."""
    return Installed(rules_dirs)


class Installed:
    """The games of ``kbgrules.games(rules_dirs)`` by id (none if it fails), read when first asked for: a
    shipped game asked for by its id, without rule folders, from its own files (the other games' are not
    read), after the plug-ins are read as ``kbgrules.games`` reads them, so that it fails alike."""

    def __init__(self, rules_dirs: RulesDirs) -> None:
        self.rules_dirs = rules_dirs
        self._all: dict[str, GameInfo] | None = None
        self._one: dict[str, GameInfo | None] = {}

    def values(self) -> Iterable[GameInfo]:
        return self._games().values()

    def get(self, game: str) -> GameInfo | None:
        if self._all is not None or self.rules_dirs:
            return self._games().get(game)
        if game not in self._one:
            self._one[game] = self._shipped(game)
        return self._one[game]

    def _shipped(self, game: str) -> GameInfo | None:
        from kbgrules.core.build import game_info
        from kbgrules.core.data import read_plugins
        from kbgrules.core.datafiles import game_dirs, shipped_catalog
        from kbgrules.core.paths import data_root
        from kbgrules.errors import KbgError

        root = str(data_root())
        if game not in game_dirs(root):
            return self._games().get(game)
        try:
            read_plugins()
            return game_info(shipped_catalog(root, game).games[game])
        except KbgError:
            self._all = {}
            return None

    def _games(self) -> dict[str, GameInfo]:
        if self._all is None:
            import kbgrules
            from kbgrules.errors import KbgError

            try:
                self._all = {g.id: g for g in kbgrules.games(self.rules_dirs)}
            except KbgError:
                self._all = {}
        return self._all


def _what(g: GameReport, games: Installed) -> str:
    """The game, its edition and its variants by their names (the ids where the game is not installed)."""
    info = games.get(g.game or "")
    if info is None:
        return ", ".join([g.game or "?", *([f"{g.edition} edition"] if g.edition else []), *g.variants])
    editions = {e.id: e.title for e in info.editions}
    variants = {v.id: v.title for v in info.variants}
    return ", ".join([info.name, *([editions.get(g.edition, g.edition)] if g.edition else []),
                      *(variants.get(v, v) for v in g.variants)])


def _variant_title(match: dict[str, Any], games: Installed) -> str:
    """The name of the variant that makes a match of several games (``match`` as the report has it)."""
    variant = str(match["variant"])
    titles = {v.id: v.title for info in games.values() for v in info.variants}
    return titles.get(variant, variant.replace("-", " ").capitalize())
