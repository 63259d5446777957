"""The HTML report (kbg check/show --html) read as HTML, without a browser (tests/test_browser.py
renders it): self-contained, the verdict first, each problem at its line with its rule, the pictures
drawn from the game's data, bad input shown, nothing from a log copied unescaped."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kbg_cli.app import app

from .conftest import ROOT

KD = ROOT / "examples" / "kingdomino"
KOT = ROOT / "examples" / "king-of-tokyo"


class Page(HTMLParser):
    """Elements by id, class and tag, with their text, and every URL the page refers to."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.stack: list[dict[str, object]] = []
        self.elements: list[dict[str, object]] = []
        self.urls: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        for key in ("src", "href", "action", "data", "poster", "srcset"):
            if a.get(key) and not str(a[key]).startswith("#"):
                self.urls.append(str(a[key]))
        el: dict[str, object] = {"tag": tag, "id": a.get("id"), "class": (a.get("class") or "").split(), "text": ""}
        self.elements.append(el)
        if tag not in ("meta", "br", "img", "input", "link", "circle", "line", "rect", "polygon", "path"):
            self.stack.append(el)

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()["tag"] == tag:
                break

    def handle_data(self, data: str) -> None:
        for el in self.stack:
            el["text"] = str(el["text"]) + data

    def by_class(self, name: str, tag: str | None = None) -> list[dict[str, object]]:
        return [e for e in self.elements if name in e["class"] and (tag is None or e["tag"] == tag)]  # type: ignore[operator]

    def by_id(self, name: str) -> dict[str, object]:
        return next(e for e in self.elements if e["id"] == name)


def _page(tmp_path: Path, *logs: str | Path, command: str = "check") -> tuple[Page, str, int]:
    out = tmp_path / "report.html"
    r = CliRunner().invoke(app, [command, *map(str, logs), "--html", str(out)])
    text = out.read_text(encoding="utf-8")
    return Page(text), text, r.exit_code


def test_a_legal_kingdomino_match_draws_every_kingdom_and_the_totals(tmp_path: Path) -> None:
    page, text, code = _page(tmp_path, KD / "dynasty.log")
    assert code == 0
    first = next(e for e in page.elements if e["tag"] == "p")
    assert "verdict" in first["class"] and "3 games in 1 file: 3 legal" in str(first["text"])  # type: ignore[operator]
    games = page.by_class("game", "article")
    assert len(games) == 3 and all("valid" in g["class"] for g in games)  # type: ignore[operator]
    kingdoms = page.by_class("grid", "svg")
    assert len(kingdoms) == 9  # 3 players x 3 games
    assert "Winner: Cid" in text
    assert 'Dynasty match: games <a href="#f1-g1">1</a>, <a href="#f1-g2">2</a>, <a href="#f1-g3">3</a>' in text
    assert text.count('class="crown"') > 0 and text.count('class="edge"') > 0 and 'class="castle"' in text
    assert page.urls == [], "a report must not fetch anything"


def test_a_violation_is_shown_with_its_rule_and_at_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.log"
    bad.write_text((KD / "two-players.log").read_text().replace("Bob claim 11\n", "Bob claim 12\n"))
    page, text, code = _page(tmp_path, bad)
    assert code == 1
    (problem,) = page.by_class("violation", "li")
    assert "kd-claim-not-in-line" in str(problem["text"]) and "The two actions of a turn" in str(problem["text"])
    assert "Kingdomino rulebook, first edition" in str(problem["text"])  # its sources
    line = page.by_id("f1-L14")
    assert "hit" in line["class"] and "Bob claim 12" in str(line["text"])  # type: ignore[operator]
    assert 'href="#f1-L14"' in text
    assert "hit" not in page.by_id("f1-L13")["class"]  # type: ignore[operator]
    assert f'<a href="#{problem["id"]}">The two actions of a turn [kd.turn.actions]</a>' in text  # and back


def test_a_king_of_tokyo_game_has_its_charts_tokyo_cards_and_gauges(tmp_path: Path) -> None:
    page, text, code = _page(tmp_path, KOT / "dark-edition.log", command="show")
    assert code == 0
    charts = page.by_class("chart", "svg")
    assert len(charts) == 2 and "Victory points at the end of each turn (goal: 20)" in text
    assert len(page.by_class("strip", "svg")) == 1 and len(page.by_class("gauge", "svg")) == 4
    assert "Stretchy (turn 12)" in text and "Winner: Ann (last monster standing)" in text
    polyline = re.search(r'<polyline points="([^"]+)"', text)
    assert polyline and len(polyline.group(1).split()) > 40  # one point per turn


def _stopped_after_an_elimination(tmp_path: Path) -> Path:
    """four-players.log cut in turn 42 just after Bob's smash eliminates Cid, by a move out of turn."""
    lines = (KOT / "four-players.log").read_text().splitlines()
    ends = [i for i, x in enumerate(lines) if re.fullmatch(r"\w+ end", x)]
    assert lines[ends[41]] == "Bob end"
    log = tmp_path / "stopped.log"
    log.write_text("\n".join([*lines[:ends[41]], "Bob keep", "Ann end"]) + "\n")
    return log


def _standings(text: str) -> dict[str, list[str]]:
    """The standings' cells by the name that heads each row."""
    table = text[text.index("<caption>Standings</caption>"):]
    table = table[:table.index("</table>")]
    rows = re.findall(r'<tr[^>]*><th scope="row"[^>]*>([^<]+)</th>(.*?)</tr>', table)
    return {name: re.findall(r"<td[^>]*>([^<]*)", cells) for name, cells in rows}


def _numbers(text: str, title: str) -> list[list[str]]:
    """The rows (the turn, then a value per player) of "The numbers" under the chart titled ``title``."""
    table = text[text.index(f"<figcaption>{title}"):]
    table = table[table.index("<tbody>"):table.index("</tbody>")]
    return [[x, *re.findall(r'<td class="num">([^<]*)</td>', cells)]
            for x, cells in re.findall(r'<tr><th scope="row">([^<]+)</th>(.*?)</tr>', table)]


@pytest.mark.parametrize("log", ["four-players", "power-up", "from-position", "first-edition"])
def test_the_verdict_gives_each_winners_points_as_the_standings_do(tmp_path: Path, log: str) -> None:
    _, text, code = _page(tmp_path, KOT / f"{log}.log")
    assert code == 0
    headline = re.search(r"<p><strong>((?:Winner|Shared victory): [^<]+)</strong></p>", text)
    assert headline, "no verdict"
    standings = _standings(text)
    winners = [w for w in standings if w in headline.group(1)]
    assert winners
    for w in winners:  # the VP column comes first
        assert f"{standings[w][0]} VP" in headline.group(1), (headline.group(1), w, standings[w][0])


@pytest.mark.parametrize("case", ["finished", "stopped"])
def test_the_charts_end_where_the_standings_are(tmp_path: Path, case: str) -> None:
    """A monster eliminated is at 0 life on the chart and in its numbers, also when checking stopped
    in the turn that eliminated it."""
    log = KOT / "four-players.log" if case == "finished" else _stopped_after_an_elimination(tmp_path)
    _, text, code = _page(tmp_path, log)
    assert code == (0 if case == "finished" else 1)
    standings = _standings(text)
    life = _numbers(text, "Life at the end of each turn")
    vp = _numbers(text, "Victory points at the end of each turn")
    names = ["Ann", "Bob", "Cid", "Dee"]
    assert all("-" not in row for row in life + vp)
    assert dict(zip(names, life[-1][1:], strict=True)) == {n: standings[n][1] for n in names}
    assert dict(zip(names, vp[-1][1:], strict=True)) == {n: standings[n][0] for n in names}
    assert standings["Cid"][1] == standings["Dee"][1] == "0"
    assert life[-1][0] == ("46" if case == "finished" else "42")


def test_a_matchs_winner_and_totals_come_first(tmp_path: Path) -> None:
    from kbgrules.core.check import check_file

    _, text, code = _page(tmp_path, KD / "dynasty.log")
    assert code == 0
    (match,) = check_file(str(KD / "dynasty.log")).matches
    top = text[:text.index("<article")]  # before the first game
    assert "Dynasty match" in top and f"Winner: {', '.join(match['winners'])}" in top
    for name, total in match["totals"].items():
        assert re.search(rf'<th scope="row">{name}</th><td class="num">{total}</td>', top), (name, total)


def test_bad_input_still_gives_a_page_that_shows_it(tmp_path: Path) -> None:
    unknown = tmp_path / "chess.log"
    unknown.write_text("@game chess\n@players A B\ne4 e5\n")
    page, text, code = _page(tmp_path, unknown, ROOT / "docs" / "examples" / "syntax.log", tmp_path / "no.log")
    assert code == 2
    assert "errors" in next(e for e in page.elements if e["tag"] == "p")["class"]  # type: ignore[operator]
    assert "unknown-game" in text or "log-header" in text
    assert "unreadable" in text and "no.log" in text
    assert len(page.by_class("errors", "article")) == 2


def test_nothing_from_a_log_reaches_the_page_unescaped(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text("@game kingdomino\n@players Ann Bob\ndeal 3 17 22 40\nBob claim 40 # <script>alert(1)</script>\n")
    page, text, _ = _page(tmp_path, log)
    assert "<script>alert" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert not [e for e in page.elements if e["tag"] == "script"]


def test_the_page_is_never_written_over_an_input(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text((KD / "two-players.log").read_text())
    before = log.read_bytes()
    r = CliRunner().invoke(app, ["check", str(log), "--html", str(log)])
    assert r.exit_code == 2 and "is an input" in r.stderr and log.read_bytes() == before
    r = CliRunner().invoke(app, ["check", str(tmp_path), "--html", str(log)])  # an input found in a folder
    assert r.exit_code == 2 and log.read_bytes() == before
    r = CliRunner().invoke(app, ["check", str(log), "--html", ""])
    assert r.exit_code == 2


@pytest.mark.parametrize("command", ["check", "show"])
@pytest.mark.parametrize("logs", [("two-players.log",), ("dynasty.log", "two-players.log")], ids=["game", "match+1"])
def test_html_keeps_the_usual_output_and_exit_code(tmp_path: Path, command: str, logs: tuple[str, ...]) -> None:
    """With a fourth game after a Dynasty, the match's line stays after its third game (issue 25 #9)."""
    log = tmp_path / "in.log"
    log.write_text("\n".join((KD / name).read_text(encoding="utf-8") for name in logs), encoding="utf-8")
    plain = CliRunner().invoke(app, [command, str(log)])
    with_html = CliRunner().invoke(app, [command, str(log), "--html", str(tmp_path / "r.html")])
    assert (with_html.exit_code, with_html.stdout) == (plain.exit_code, plain.stdout)


@pytest.mark.parametrize("args", [["check", "--html"], ["show", "--html"], ["check"]], ids=" ".join)
def test_one_run_expands_its_inputs_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    """The overwrite guard of --html, the check and the page read one expansion of the inputs (a folder's
    logs are listed once a run)."""
    import functools
    import sys

    from kbgrules.core import logfile

    real = logfile.input_files
    calls: list[list[str]] = []

    @functools.wraps(real)
    def counting(paths: list[str]) -> list[str]:
        calls.append(list(paths))
        return real(paths)

    # the function itself, and wherever a module holds it by name (a module first imported in an earlier run of
    # this test holds that run's counter)
    for module in list(sys.modules.values()):
        held = getattr(module, "input_files", None)
        if held is real or getattr(held, "__wrapped__", None) is real:
            monkeypatch.setattr(module, "input_files", counting)
    folder = tmp_path / "logs"
    folder.mkdir()
    for name in ("two-players.log", "dynasty.log"):
        (folder / name).write_text((KD / name).read_text(encoding="utf-8"), encoding="utf-8")
    page = tmp_path / "report.html"
    command, *html = args
    r = CliRunner().invoke(app, [command, str(folder), *(f"{o}={page}" for o in html)])
    assert r.exit_code == 0, r.output
    assert calls == [[str(folder)]]
    assert page.is_file() == bool(html)


SHIPPED_SITE = {"index.html", "glossary.html", "search-index.js", "search.js", "site.js",
                *(f"kingdomino-{p}.html" for p in ("rules", "faq", "dominoes", "components", "setup")),
                *(f"king-of-tokyo-{p}.html" for p in ("rules", "faq", "cards", "tiles", "evolutions", "components",
                                                      "setup"))}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    r = CliRunner().invoke(app, ["site", str(out)])
    written = re.search(r"wrote (\d+) files", r.stderr)
    assert r.exit_code == 0 and written and int(written.group(1)) == len(list(out.iterdir()))
    assert {p.name for p in out.iterdir()} >= SHIPPED_SITE  # and a plug-in game's pages, if one is installed
    return out


def test_the_site_shows_every_entry_once_under_its_id(site: Path) -> None:
    from kbgrules.explain.store import topics

    ids: dict[str, list[str]] = {}
    for page in site.glob("*.html"):
        for el in Page(page.read_text(encoding="utf-8")).elements:
            if el["tag"] == "article" and el["id"]:
                ids.setdefault(str(el["id"]), []).append(page.name)
    expected = {t["id"] for t in topics()}
    assert set(ids) == expected and all(len(pages) == 1 for pages in ids.values())


def test_a_site_entry_says_what_kbg_explain_says(site: Path) -> None:
    from markupsafe import escape

    from kbgrules.explain.store import lookup

    for eid, page in [("kot.card.acid-attack", "king-of-tokyo-cards.html"),
                      ("kd.score.tiebreak", "kingdomino-rules.html"),
                      ("kot.faq.heal-in-tokyo", "king-of-tokyo-faq.html"),
                      ("kd.domino.37", "kingdomino-dominoes.html")]:
        entry = lookup(eid)
        assert entry is not None
        text = (site / page).read_text(encoding="utf-8")
        block = text[text.index(f'id="{eid}"'):]
        block = block[:block.index("</article>")]
        for part in [entry["text"], entry.get("conflict"), *(entry.get("by_edition") or {}).values(),
                     *(entry.get("translations") or {}).values()]:
            if part:
                assert str(escape(part)) in block, (eid, part[:60])
        assert f"kbg explain {eid}" in block


def test_every_link_of_the_site_leads_somewhere(site: Path) -> None:
    anchors = {p.name: {str(e["id"]) for e in Page(p.read_text(encoding="utf-8")).elements if e["id"]}
               for p in site.glob("*.html")}
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        for href in re.findall(r'href="([^"]+)"', text):
            assert "://" not in href, (page.name, href)
            name, _, anchor = href.partition("#")
            target = name or page.name
            assert target in anchors, (page.name, href)
            assert not anchor or anchor in anchors[target], (page.name, href)
        assert re.findall(r'src="([^"]+)"', text) in ([], ["search-index.js", "search.js", "site.js"])


def test_the_site_tabulates_setup_and_the_glossary(site: Path) -> None:
    setup = (site / "kingdomino-setup.html").read_text(encoding="utf-8")
    head = setup[setup.index("<thead>"):setup.index("</thead>")]
    assert re.findall(r'<th scope="col">([^<]+)</th>', head) == [
        "fact", "2 players", "3 players", "4 players", "2 players, The Mighty Duel"]
    glossary = (site / "glossary.html").read_text(encoding="utf-8")
    assert '<td lang="ko">' in glossary and "항복" in glossary and "Königreich".lower() in glossary.lower()
    index = (site / "search-index.js").read_text(encoding="utf-8")
    assert index.startswith("window.KBG_INDEX = {") and "window.KBG_PAGES" in index


def test_the_site_holds_house_rules(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["--rules", str(ROOT / "docs" / "examples" / "house-rules"), "site", str(tmp_path)])
    assert r.exit_code == 0
    assert "big-kingdom" in (tmp_path / "kingdomino-rules.html").read_text(encoding="utf-8")
    r = CliRunner().invoke(app, ["site", ""])
    assert r.exit_code == 2


def test_a_page_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    log = str(KD / "two-players.log")
    r = CliRunner().invoke(app, ["check", log, "--html", str(tmp_path / "no" / "r.html")])
    assert r.exit_code == 2 and r.stderr == f"kbg: error io: cannot write {tmp_path / 'no' / 'r.html'}: " \
                                            "No such file or directory\n"
    afile = tmp_path / "a-file"
    afile.write_text("x")
    r = CliRunner().invoke(app, ["site", str(afile)])
    assert r.exit_code == 2 and r.stderr.startswith(f"kbg: error io: cannot make the folder {afile}:")
    assert r.stderr.count("\n") == 1 and afile.read_text() == "x"


def test_a_page_too_big_to_draw_is_refused_quickly(tmp_path: Path) -> None:
    """50,000 games on one page would take gigabytes: more than a page draws is one line, exit 2."""
    from kbg_cli.web.report import MAX_GAMES, MAX_LINES

    many = tmp_path / "many.log"
    many.write_text("@game kingdomino\n@players A B\ndeal 18 5 25 14\n" * (MAX_GAMES + 1))
    long = tmp_path / "long.log"
    long.write_text("@game kingdomino\n@players A B\n" + "# a comment\n" * MAX_LINES)
    cr = tmp_path / "cr.log"  # lines ended by CR alone are lines too (issue 25: they were not counted)
    cr.write_bytes(b"@game kingdomino\r@players A B\r" + b"# a comment\r" * MAX_LINES)
    for log in (many, long, cr):
        out = tmp_path / "r.html"
        r = CliRunner().invoke(app, ["check", str(log), "--html", str(out)])
        assert r.exit_code == 2 and r.stderr.startswith("kbg: error html-too-big: ") and r.stderr.count("\n") == 1
        assert not out.exists()


def test_a_page_to_a_device_or_a_pipe_is_written_into_it_not_put_in_its_place(tmp_path: Path) -> None:
    """The fuzzer's `kbg check --html /dev/null`, run as root, replaced /dev/null with a regular file (the
    page was written beside it and renamed over it): every later reader of /dev/null read the pages. A
    target that exists and is not a regular file is now written into; a named pipe stands for /dev/null."""
    import os
    import stat
    import subprocess
    import sys
    import threading

    fifo = tmp_path / "page.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    r = subprocess.run([sys.executable, "-m", "kbg_cli", "check", "--html", str(fifo),
                        str(ROOT / "examples" / "kingdomino" / "two-players.log")],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    reader.join(timeout=60)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and got and got[0].lower().startswith(b"<!doctype html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.fifo"]  # no temporary file left beside it
