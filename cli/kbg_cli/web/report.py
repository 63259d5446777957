"""The HTML report of checked games: ``kbg check LOG... --html FILE`` and ``kbg show LOG... --html FILE``.

One self-contained page: the verdict first, then for each file its games (the first violation with
the rule it breaks, its text and sources; standings; the pictures and charts the game draws, as SVG)
and the log itself with line numbers, every diagnostic shown at its line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from markupsafe import Markup

import kbgrules
from kbgrules.core.check import RulesDirs, iter_check_text
from kbgrules.core.logfile import line_count, lines, no_logs, read_text
from kbgrules.core.report import CheckReport, GameReport
from kbgrules.core.views import Block, Chart, Gauge, Grid, Items, Strip, Table, Text
from kbgrules.errors import Diagnostic, KbgError

from . import render, svg

STATUS = {"valid": "Legal", "violation": "Rule violation", "errors": "Errors in the log"}


@dataclass
class Line:
    number: int
    text: str
    notes: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class FileView:
    name: str
    anchor: str
    errors: list[dict[str, Any]]
    games: list[dict[str, Any]]
    lines: list[Line]
    matches: list[dict[str, Any]] = field(default_factory=list)  # matches of several games


HINT_BELOW = (1024, 800, 640, 480)  # the screen widths below which style.css can show a strip's scroll hint
MARGINS = 42  # the least room the page and a game take beside a strip (at 480 px and below)
MAX_GAMES, MAX_LINES = 1000, 100_000  # what one page draws: ~45 MB of memory and ~3 MB of HTML at most


def checked(files: list[str], rules_dirs: RulesDirs) -> list[tuple[str, str | None, CheckReport]]:
    """(name, text, report) per log of ``files`` (the inputs as :func:`~kbgrules.core.logfile.input_files`
    expands them: a directory still there holds no log), with timelines. Inputs with more games or lines than
    a page draws are refused as soon as that is known."""
    out: list[tuple[str, str | None, CheckReport]] = []
    games = lines_seen = 0
    for path in files:
        if path != "-" and Path(path).is_dir():
            out.append((path, None, CheckReport(input_errors=[no_logs(path)])))
            continue
        name, text, errors = read_text(path)
        if text is None:
            out.append((name, None, CheckReport(input_errors=errors)))
            continue
        lines_seen += line_count(text)  # CR alone ends a line too
        report = CheckReport()
        for part in iter_check_text(name, text, rules_dirs, timeline=True):
            games += len(part.games)
            if games > MAX_GAMES or lines_seen > MAX_LINES:
                raise KbgError(f"an HTML report draws at most {MAX_GAMES:,} games and {MAX_LINES:,} log lines; "
                               f"{name} goes past that: check it without --html (--json has everything)",
                               code="html-too-big")
            report.extend(part)
        out.append((name, text, report))
    return out


def page(files: list[str], rules_dirs: RulesDirs, title: str = "kbg report") -> tuple[str, list[CheckReport]]:
    """The report page for the logs of ``files`` (expanded inputs, as :func:`checked` takes them), and the
    report of each file."""
    found = checked(files, rules_dirs)
    views = [_file_view(n, name, text, report, rules_dirs) for n, (name, text, report) in enumerate(found, 1)]
    games = [g for v in views for g in v.games]
    counts = {k: sum(1 for g in games if g["status"] == k) for k in STATUS}
    unread = sum(1 for v in views if v.errors and not v.games)
    if unread or counts["errors"]:
        overall = "errors"
    elif counts["violation"]:
        overall = "violation"
    else:
        overall = "valid"
    parts = [f"{counts['valid']} legal"] + [f"{counts['violation']} with a rule violation"] * bool(counts["violation"])
    parts += [f"{counts['errors']} with errors in the log"] * bool(counts["errors"])
    parts += [f"{unread} file{'s' if unread != 1 else ''} that could not be read"] * bool(unread)
    verdict = (f"{len(games)} game{'s' if len(games) != 1 else ''} in {len(views)} "
               f"file{'s' if len(views) != 1 else ''}: " + ", ".join(parts))
    html = render("report.html.j2", title=title, files=views, games=games, overall=overall, verdict=verdict,
                  status_words=STATUS, matches=[m for v in views for m in v.matches], many_files=len(views) > 1)
    return html, [r for _, _, r in found]


def _note(d: Diagnostic, anchor: str, kind: str = "error", rule: dict[str, Any] | None = None) -> dict[str, Any]:
    """A diagnostic as the page shows it; ``kind``: error (in the log), violation (of a rule) or note."""
    return {"line": d.line, "col": d.col, "code": d.code, "message": d.message, "file": d.file, "kind": kind,
            "severity": "note" if kind == "note" else "error", "rule": rule, "href": f"#{anchor}-L{d.line}"}


def _file_view(n: int, name: str, text: str | None, report: CheckReport, rules_dirs: RulesDirs) -> FileView:
    anchor = f"f{n}"
    view = FileView(name, anchor, [_note(d, anchor) for d in report.input_errors], [],
                    [Line(i, t) for i, t in enumerate(lines(text), 1)] if text is not None else [])
    view.matches = [{**m, "standings": sorted(m["totals"].items(), key=lambda x: -x[1]),
                     "name": str(m["variant"]).replace("-", " ").capitalize(), "file_name": name,
                     "links": [(k, f"#{anchor}-g{k}") for k in m["games"]]} for m in report.matches]
    by_line = {x.number: x for x in view.lines}
    for g in report.games:
        game = _game_view(g, anchor, rules_dirs)
        view.games.append(game)
        for note in game["notes"]:
            if note["line"] in by_line:
                by_line[note["line"]].notes.append(note)
    for e in view.errors:
        if e["line"] in by_line:
            by_line[e["line"]].notes.append(e)
    return view


def _ruleset(g: GameReport, rules_dirs: RulesDirs) -> Any:
    if g.game is None:
        return None
    try:
        return kbgrules.load(g.game, edition=g.edition, variants=list(g.variants), rules_dirs=rules_dirs)
    except KbgError:
        return None


def _rule(rs: Any, rule_id: str) -> dict[str, Any] | None:
    if rs is None or rule_id not in rs.rules:
        return None
    r = rs.rule(rule_id)
    docs = rs.documents
    return {"id": r.id, "title": r.title, "text": r.text,
            "sources": [{"doc": s.doc, "title": docs[s.doc].title if s.doc in docs else s.doc,
                         "section": s.section, "edition": s.edition} for s in r.sources]}


def _game_view(g: GameReport, anchor: str, rules_dirs: RulesDirs) -> dict[str, Any]:
    rs = _ruleset(g, rules_dirs)
    status = "valid" if g.valid else "errors" if g.errors else "violation"
    what = [rs.game.name if rs is not None else (g.game or "unknown game")]
    if g.edition:
        what.append(f"{g.edition} edition")
    what += list(g.variants)
    notes = [_note(d, anchor) for d in g.errors]
    notes += [_note(Diagnostic(v.file, v.line, v.col, v.code, v.message), anchor, "violation", _rule(rs, v.rule))
              for v in g.violations]
    notes += [_note(d, anchor, "note") for d in g.notes]
    notes.sort(key=lambda x: (x["line"], x["severity"] == "note", x["col"]))
    for k, x in enumerate(notes, 1):
        x["id"] = f"{anchor}-g{g.index}-p{k}"  # the log's line links back to the problem and its rule
    view: dict[str, Any] = {
        "id": f"{anchor}-g{g.index}", "index": g.index, "line": g.line, "status": status,
        "what": ", ".join(what), "players": list(g.players), "notes": notes,
        "problems": [x for x in notes if x["severity"] != "note"], "result": None, "blocks": [],
        "file_name": Path(g.file).name,
    }
    if g.result is not None:
        summary = g.result.summary(stopped=not g.valid)
        view["result"] = summary[0].text if isinstance(summary[0], Text) else None
        blocks: list[dict[str, Any]] = []
        drawn = (*summary[1:], *g.result.charts(g.show_timeline()))
        widest = max((max(svg.grid_width(b), svg.grid_width(b, b.span)) for b in drawn if isinstance(b, Grid)),
                     default=0.0)  # one scale for the game's grids
        for b in drawn:
            x = _block(b, list(g.players), widest)
            if x["kind"] == "grid" and blocks and blocks[-1]["kind"] == "grids":
                blocks[-1]["grids"].append(x)  # side by side
            else:
                blocks.append({"kind": "grids", "grids": [x]} if x["kind"] == "grid" else x)
        view["blocks"] = blocks
    return view


def _block(b: Block, players: list[str], widest: float = 0.0) -> dict[str, Any]:
    """A block the game drew, as the page's template takes it (pictures as SVG; ``widest``: the width
    of the widest grid of the game, or of a full board, which sets the scale of its grids)."""
    if isinstance(b, Table):
        rows = [[Markup(f"{escape(str(c))}{svg.gauge(c)}") if isinstance(c, Gauge) else c for c in r] for r in b.rows]
        return {"kind": "table", "title": b.title, "columns": b.columns, "rows": rows, "key": b.key}
    if isinstance(b, Grid):
        return {"kind": "grid", "svg": svg.grid(b, widest), "caption": b.caption or b.title}
    if isinstance(b, Chart):
        return {"kind": "chart", "svg": svg.line_chart(b), "title": b.title, "xs": b.xs, "series": b.series,
                "x_label": b.x_label.lower(), "players": players}
    if isinstance(b, Strip):
        return {"kind": "strip", "svg": svg.strip(b), "title": b.title, "players": list(b.players),
                "hint": _hint(svg.strip_layout(b)[1]), "step": b.x_label}
    if isinstance(b, Items):
        return {"kind": "items", "title": b.title, "items": b.items}
    return {"kind": "text", "text": b.text, "strong": b.strong}


def _hint(width: float) -> int | None:
    """Below which screen width a strip ``width`` pixels wide says that it scrolls: the widest of
    :data:`HINT_BELOW` where it surely does not fit (None: it fits on every screen of them)."""
    return next((w for w in HINT_BELOW if w <= width + MARGINS), None)
