"""``kbg check``: replay the games of a log and report syntax errors, the first violation, and the result.

>>> from kbgrules.check import check_text
>>> log = '''@game kingdomino
... @players Ann Bob
... deal 3 17 22 40
... Ann claim 40
... '''
>>> report = check_text("x.log", log)
>>> report.games[0].valid, report.exit_code
(True, 0)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kbgrules.core.logfile import GameText, Header, decode, split_games
from kbgrules.errors import Diagnostic, KbgError

RulesDirs = Sequence[str | os.PathLike[str]]


@dataclass(frozen=True, slots=True)
class Violation:
    """A move that breaks a rule: where, the stable code, the rule id, one sentence."""

    file: str
    line: int
    col: int
    code: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: error {self.code}: {self.message} [{self.rule}]"

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "col": self.col, "code": self.code, "rule": self.rule, "message": self.message}


@dataclass(slots=True)
class GameReport:
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
    final: dict[str, Any] | None = None
    timeline: list[dict[str, Any]] = field(default_factory=list)  # snapshots for `kbg show`, not in JSON
    timeline_builder: Any = field(default=None, repr=False)  # fills `timeline` on demand (see show())

    def show_timeline(self) -> list[dict[str, Any]]:
        """Turn-by-turn (King of Tokyo) or round-by-round (Kingdomino) snapshots, built on first use."""
        if not self.timeline and self.timeline_builder is not None:
            self.timeline_builder()
        return self.timeline
    match_games: int = 1  # games in a match (Dynasty: 3)

    @property
    def valid(self) -> bool:
        return not self.errors and not self.violations

    def stop(self, line: int, col: int, event_col: int, code: str, rule: str, message: str) -> None:
        """Record the game's first violation, and the note that checking stops there."""
        self.violations.append(Violation(self.file, line, col, code, rule, message))
        self.notes.append(Diagnostic(self.file, line, event_col, "stopped",
                                     f"game {self.index}: checking stopped at this line; the lines after it "
                                     "were not checked", "note"))

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index, "file": self.file, "line": self.line, "game": self.game, "edition": self.edition,
            "variants": list(self.variants), "players": list(self.players), "valid": self.valid,
            "errors": [{"line": d.line, "col": d.col, "code": d.code, "message": d.message} for d in self.errors],
            "violations": [v.to_json() for v in self.violations], "final": self.final,
            "notes": [{"line": d.line, "col": d.col, "code": d.code, "message": d.message} for d in self.notes],
        }


@dataclass(slots=True)
class CheckReport:
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

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kbg_json": 1,
            "games": [g.to_json() for g in self.games],
            "errors": [{"file": d.file, "line": d.line, "col": d.col, "code": d.code, "message": d.message}
                       for d in self.input_errors],
        }
        if self.matches:
            out["matches"] = self.matches
        return out


def _header_values(g: GameText, name: str) -> list[str]:
    return [t.text for h in g.headers if h.name == name for t in h.values]


def check_game(file: str, g: GameText, rules_dirs: RulesDirs = ()) -> GameReport:
    """Check one game of a log."""
    import kbgrules

    report = GameReport(file, g.index, g.line)
    game_tag = g.tag("game")
    if game_tag is None or g.tag("players") is None:
        return report  # split_games already reported the missing tags
    players = tuple(_header_values(g, "players"))
    variants = _header_values(g, "variant") + _header_values(g, "variants")
    edition_vals = _header_values(g, "edition")
    report.players = players
    try:
        rs = kbgrules.load(game_tag.values[0].text, edition=edition_vals[0] if edition_vals else None,
                           variants=variants, players=len(players), rules_dirs=rules_dirs)
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
        return report
    report.game, report.edition = rs.game.id, rs.edition.id
    report.match_games = int(rs.data.get("match", {}).get("games", 1))
    report.variants = tuple(v.id for v in rs.variants)
    if rs.game.id == "kingdomino":
        from kbgrules.kingdomino.log import check_kingdomino

        check_kingdomino(file, g, rs, report)  # type: ignore[arg-type]
    elif rs.game.id == "king-of-tokyo":
        from kbgrules.king_of_tokyo.log import check_king_of_tokyo

        check_king_of_tokyo(file, g, rs, report)  # type: ignore[arg-type]
    else:
        report.errors.append(Diagnostic(file, game_tag.line, 1, "unsupported-game",
                                        f"kbg check cannot replay {rs.game.name} logs yet"))
    return report


def check_text(file: str, text: str, rules_dirs: RulesDirs = ()) -> CheckReport:
    """Check every game in the text of one log file."""
    games, errors = split_games(file, text)
    report = CheckReport()
    by_line: dict[int, list[Diagnostic]] = {}
    for d in errors:
        by_line.setdefault(d.line, []).append(d)
    for g in games:
        end = games[g.index].line if g.index < len(games) else 1 << 62
        gr = check_game(file, g, rules_dirs)
        gr.errors[:0] = [d for line, ds in by_line.items() if g.line <= line < end for d in ds]
        gr.errors.sort(key=lambda d: (d.line, d.col))
        report.games.append(gr)
    first_game_line = games[0].line if games else 1 << 62
    report.input_errors.extend(d for d in errors if d.line < first_game_line)
    report.matches.extend(_dynasty_matches(report.games))
    return report


def check_bytes(file: str, raw: bytes, rules_dirs: RulesDirs = ()) -> CheckReport:
    text, errors = decode(file, raw)
    if text is None:
        return CheckReport(input_errors=errors)
    return check_text(file, text, rules_dirs)


def _dynasty_matches(games: list[GameReport]) -> list[dict[str, Any]]:
    """Matches (Dynasty): consecutive games of one file whose rules play several games; totals decide."""
    out: list[dict[str, Any]] = []
    run: list[GameReport] = []
    for g in [*games, None]:
        fits = (g is not None and g.match_games > 1
                and (not run or (run[0].players, run[0].file, run[0].variants) == (g.players, g.file, g.variants)))
        if fits and g is not None:
            run.append(g)
            if len(run) == g.match_games:
                out.append(_match(run))
                run = []
            continue
        if run:
            out.append(_match(run))
            run = []
        if g is not None and g.match_games > 1:
            run = [g]
    return out


def _match(games: list[GameReport]) -> dict[str, Any]:
    size = games[0].match_games
    complete = len(games) == size and all(g.valid and g.final and g.final.get("finished") for g in games)
    totals: dict[str, int] = {}
    for g in games:
        for p in (g.final or {}).get("players", []):
            totals[p["name"]] = totals.get(p["name"], 0) + int(p["score"])
    best = max(totals.values(), default=0)
    return {
        "variant": "dynasty", "file": games[0].file, "games": [g.index for g in games], "complete": complete,
        "totals": totals,
        "winners": [n for n, t in totals.items() if t == best] if complete else [],
    }
