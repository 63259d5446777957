"""The HTML report and the offline site in a real browser: the system's Chromium (Debian's package
``chromium``), driven by Playwright without its own browser download. Each page is opened from a
file at a phone's width (360 px) and a desktop's (1280 px): what matters is there and visible, no
console error, no request leaves the disk, nothing wider than a phone's screen but the parts that
scroll; the site's search box answers as ``kbg explain`` does. Screenshots go to docs/img/, which
the README shows.

Skipped, saying why, where Playwright or Chromium is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kbg_cli.app import app

from .conftest import ROOT

IMG = ROOT / "docs" / "img"
SHIPPED = {"KBG_NO_PLUGINS": "1"}
PHONE, DESKTOP = {"width": 360, "height": 740}, {"width": 1280, "height": 800}
PHONE_390 = {"width": 390, "height": 844}
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-extensions"]


def _chromium() -> str | None:
    """The browser: KBG_CHROMIUM, else Debian's Chromium itself (not the /usr/bin/chromium wrapper
    script, whose start-up `ls` message turned up in later tests' pseudo-terminals), else by name."""
    for name in (os.environ.get("KBG_CHROMIUM"), "/usr/lib/chromium/chromium", "chromium", "chromium-browser",
                 "google-chrome"):
        found = name and shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed: "
                                   "pip install -e '.[test]'")
    executable = _chromium()
    if executable is None:
        pytest.skip("no Chromium on this machine: apt-get install chromium (or set KBG_CHROMIUM to a browser)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=FLAGS)
        yield b
        b.close()


class Visit:
    """A page opened from a file, with what it printed to the console and what it asked for."""

    def __init__(self, browser: Any, path: Path | str, viewport: dict[str, int], query: str = "") -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page = browser.new_page(viewport=viewport)
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(Path(path).resolve().as_uri() + query)

    def visible(self, selector: str) -> Any:
        el = self.page.locator(selector).first
        assert el.is_visible(), selector
        box = el.bounding_box()
        assert box and box["width"] > 0 and box["height"] > 0, selector
        return el

    def clean(self) -> None:
        assert self.errors == [], self.errors
        outside = [u for u in self.requests if not u.startswith("file:")]
        assert outside == [], f"requests that leave the disk: {outside}"

    def fits(self, width: int) -> None:
        """Nothing but the scrolling parts (tables, the Tokyo strip) is wider than the screen."""
        wide = self.page.evaluate("""(w) => [...document.querySelectorAll('body *')].filter(e => {
            const r = e.getBoundingClientRect();
            return r.right > w + 1 && !e.closest('.table-wrap, .scroll') && r.width > 0;
        }).map(e => e.tagName + '.' + e.className)""", width)
        assert wide == [], wide

    def shot(self, name: str) -> None:
        IMG.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(IMG / name))

    def close(self) -> None:
        self.page.close()


def _report(tmp_path: Path, *logs: Path, name: str = "report.html") -> Path:
    """A report on copies of ``logs`` in ``tmp_path``, named as a user would (the screenshots show them)."""
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        for log in logs:
            if log.parent != tmp_path:
                shutil.copy(log, tmp_path / log.name)
        CliRunner().invoke(app, ["check", *(log.name for log in logs), "--html", name])
    finally:
        os.chdir(here)
    out = tmp_path / name
    assert out.exists()
    return out


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("pages")
    bad = tmp / "three-players.log"
    text = (ROOT / "examples" / "kingdomino" / "three-players-second-edition.log").read_text()
    lines = text.splitlines(keepends=True)
    at = max(i for i, x in enumerate(lines) if " place " in x)  # the last placement: kingdoms nearly full
    words = lines[at].split()
    lines[at] = " ".join([*words[:3], "e5", "e6"]) + "\n"  # onto the castle
    bad.write_text("".join(lines))
    site = tmp / "site"
    r = CliRunner().invoke(app, ["site", str(site)], env=SHIPPED)  # the README's screenshots show kbg as shipped
    assert r.exit_code == 0, r.output
    stopped = tmp / "stopped.log"  # Bob has placed two dominoes, Ann none: a 2 by 3 kingdom beside a castle
    stopped.write_text("@game kingdomino\n@edition first\n@players Ann Bob\ndeal 18 5 25 14\n"
                       "kings Ann Ann Bob Bob\nAnn claim 25\nAnn claim 18\nBob claim 5\nBob claim 14\n"
                       "deal 47 23 11 9\nBob place 5 e4 f4\nBob claim 11\nBob place 14 e6 f6\nBob claim 99\n")
    return {
        "violation": _report(tmp, bad, name="violation.html"),
        "stopped": _report(tmp, stopped, name="stopped.html"),
        "race": _report(tmp, ROOT / "examples" / "king-of-tokyo" / "four-players.log", name="race.html"),
        "kot": _report(tmp, ROOT / "examples" / "king-of-tokyo" / "dark-edition.log", name="kot.html"),
        "dynasty": _report(tmp, ROOT / "examples" / "kingdomino" / "dynasty.log", name="dynasty.html"),
        "site": site,
    }


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_report_shows_the_verdict_the_violation_at_its_line_and_the_kingdoms(
        browser: Any, pages: dict[str, Path], viewport: dict[str, int]) -> None:
    v = Visit(browser, pages["violation"], viewport)
    verdict = v.visible("p.verdict.violation")
    assert verdict.bounding_box()["y"] < 200  # the verdict first
    problem = v.visible(".problems li.violation")
    assert "kd-" in problem.inner_text() and v.visible(".problems .rule .sources")
    v.visible("ol.log li.hit")
    for k in range(3):
        assert v.page.locator("svg.grid").nth(k).bounding_box()["width"] > 100
    v.clean()
    v.fits(viewport["width"])
    if viewport is DESKTOP:  # tall enough to show the kingdoms under the violation
        v.page.set_viewport_size({"width": 1280, "height": 1180})
    v.shot(f"report-{'phone' if viewport is PHONE else 'desktop'}.png")
    problem.locator("a").first.click()  # the link goes to the line, which the page marks
    assert v.page.evaluate("location.hash").startswith("#f1-L")
    v.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_king_of_tokyo_report_draws_the_race_and_tokyo(browser: Any, pages: dict[str, Path],
                                                         viewport: dict[str, int]) -> None:
    v = Visit(browser, pages["kot"], viewport)
    v.visible("p.verdict.valid")
    assert v.page.locator("svg.chart").count() == 2
    chart = v.visible("svg.chart")
    assert chart.bounding_box()["width"] > 250
    assert v.page.locator("svg.chart polyline").count() == 8  # life and VP of four monsters
    v.visible("svg.strip")
    v.visible("svg.gauge")
    v.clean()
    v.fits(viewport["width"])
    if viewport is DESKTOP:
        v.page.locator("svg.chart").first.scroll_into_view_if_needed()
        v.shot("report-king-of-tokyo-desktop.png")
    v.close()


SIZES = [PHONE_390, DESKTOP]
SIZE_IDS = ["phone-390", "desktop"]


@pytest.mark.parametrize("viewport", SIZES, ids=SIZE_IDS)
def test_chart_labels_neither_overlap_nor_leave_their_picture(browser: Any, pages: dict[str, Path],
                                                              viewport: dict[str, int]) -> None:
    """46 turns: the turns written under a chart keep apart, the last one among them; the Tokyo strip's
    row names and the charts' values are inside their picture."""
    v = Visit(browser, pages["race"], viewport)
    pictures = v.page.evaluate("""() => [...document.querySelectorAll('svg.chart, svg.strip')].map(svg => {
        const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.right, e.textContent]; };
        return {box: box(svg), under: [...svg.querySelectorAll('text.tick[text-anchor=middle]')].map(box),
                texts: [...svg.querySelectorAll('text')].map(box)};
    })""")
    assert len(pictures) == 3
    for p in pictures:
        left, right, _ = p["box"]
        outside = [t for t in p["texts"] if t[0] < left - 0.5 or t[1] > right + 0.5]
        assert outside == [], outside
    for p in pictures[:2]:
        under = sorted(p["under"])
        assert under[-1][2] == "46" and len(under) >= 4
        crowded = [(a[2], b[2]) for a, b in pairwise(under) if b[0] < a[1] + 2]
        assert crowded == [], crowded
    v.clean()
    v.close()


def test_the_margins_hold_the_longest_words(browser: Any, tmp_path: Path) -> None:
    """A strip's place names and a chart's values are measured for their margins: wide capitals, large
    numbers and a long run of turns stay inside the picture and apart."""
    from kbg_cli.web import static, svg
    from kbgrules.core.views import Chart, Strip

    xs = tuple(range(1, 1203, 3))
    pictures = [svg.strip(Strip("places", "turn", xs[:30], (("WWW MEGA PLAZA", ("Ann",) * 30), ("Bay", (None,) * 30)),
                                ("Ann",))),
                svg.line_chart(Chart("points", "Turn", "Points", xs, (("Ann", tuple(range(0, 12030, 30))),))),
                svg.line_chart(Chart("short", "Round", "Score", (1, 2), (("Ann", (0, 3)),)))]
    page = tmp_path / "pictures.html"
    page.write_text(f"<!doctype html><meta charset=utf-8><style>{static('style.css')}</style><main>"
                    + "".join(f"<figure>{p}</figure>" for p in pictures) + "</main>", encoding="utf-8")
    for viewport in SIZES:
        v = Visit(browser, page, viewport)
        found = v.page.evaluate("""() => [...document.querySelectorAll('svg')].map(svg => {
            const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.right, e.textContent]; };
            return {box: box(svg), under: [...svg.querySelectorAll('text.tick[text-anchor=middle]')].map(box),
                    texts: [...svg.querySelectorAll('text')].map(box)};
        })""")
        for p in found:
            left, right, _ = p["box"]
            outside = [t for t in p["texts"] if t[0] < left - 0.5 or t[1] > right + 0.5]
            assert outside == [], (viewport, outside)
            under = sorted(p["under"])
            assert [a[2] for a, b in pairwise(under) if b[0] < a[1] + 2] == [], (viewport, under)
        assert sorted(found[1]["under"])[-1][2] == str(xs[-1]) and len(found[1]["under"]) >= 4
        assert [t[2] for t in sorted(found[2]["under"])] == ["1", "2"]
        v.clean()
        v.close()


@pytest.mark.parametrize("viewport", SIZES, ids=SIZE_IDS)
def test_the_kingdoms_of_a_game_share_one_scale(browser: Any, pages: dict[str, Path],
                                                viewport: dict[str, int]) -> None:
    """Each game draws its kingdoms with squares of one size, whatever their extent (a castle alone
    beside a kingdom of two dominoes where checking stopped early)."""
    for name, games in (("stopped", 1), ("violation", 1), ("dynasty", 3)):
        v = Visit(browser, pages[name], viewport)
        sizes = v.page.evaluate("""() => [...document.querySelectorAll('article.game')].map(a =>
            [...a.querySelectorAll('svg.grid rect.castle')].map(r => r.getBoundingClientRect().width))""")
        assert len(sizes) == games and all(sizes), (name, sizes)
        for game in sizes:
            assert max(game) - min(game) < 0.5 and min(game) > 20, (name, game)
        v.fits(viewport["width"])
        v.close()


@pytest.mark.parametrize("viewport", SIZES, ids=SIZE_IDS)
def test_a_matchs_winner_and_totals_are_in_the_first_screen(browser: Any, pages: dict[str, Path],
                                                             viewport: dict[str, int]) -> None:
    v = Visit(browser, pages["dynasty"], viewport)
    heading = v.page.get_by_text("Dynasty match").first
    assert heading.is_visible() and heading.bounding_box()["y"] < viewport["height"]
    totals = v.page.locator("table", has=v.page.locator("caption", has_text="Totals")).first
    box = totals.bounding_box()
    assert totals.is_visible() and box["y"] + box["height"] <= viewport["height"], box
    assert "Cid" in totals.inner_text()
    v.clean()
    v.fits(viewport["width"])
    v.close()


def test_on_a_phone_no_column_of_the_standings_is_out_of_sight(browser: Any, pages: dict[str, Path]) -> None:
    """At 390 px every cell of the standings is on the screen, with its column's name; what still
    scrolls sideways (the Tokyo strip of a long game) shows that it does."""
    width = PHONE_390["width"]
    for name in ("violation", "kot"):
        v = Visit(browser, pages[name], PHONE_390)
        cells = v.page.evaluate("""() => {
            const table = [...document.querySelectorAll('table')].find(t => t.caption &&
                t.caption.textContent === 'Standings');
            return [...table.tBodies[0].querySelectorAll('td, th')].map(c => {
                const r = c.getBoundingClientRect();
                const label = getComputedStyle(c, '::before').content;
                return [r.left, r.right, c.textContent, label];
            });
        }""")
        out = [c for c in cells if c[0] < 0 or c[1] > width + 0.5]
        assert cells and out == [], (name, out)
        labels = " ".join(c[3] for c in cells)
        for column in (("crowns", "discards") if name == "violation" else ("energy", "wickedness", "cards")):
            assert column in labels, (name, column)
        v.clean()
        v.close()
    v = Visit(browser, pages["race"], PHONE_390)
    cue = v.page.evaluate("""() => { const s = document.querySelector('figure.strip .scroll');
        const style = getComputedStyle(s);
        return [s.scrollWidth > s.clientWidth, style.maskImage || style.webkitMaskImage]; }""")
    assert cue[0] and "gradient" in cue[1], cue  # the strip overflows and fades out at the edge
    assert "scroll" in v.visible("figure.strip .hint").inner_text().lower()
    v.close()
    v = Visit(browser, pages["race"], DESKTOP)  # no hint where nothing scrolls
    assert not v.page.locator("figure.strip .hint").is_visible()
    v.close()


def test_a_report_prints(browser: Any, pages: dict[str, Path]) -> None:
    v = Visit(browser, pages["dynasty"], DESKTOP)
    v.page.emulate_media(media="print")
    assert v.page.locator("svg.grid").count() == 9 and v.page.locator("svg.grid").first.is_visible()
    pdf = v.page.pdf()
    assert pdf[:4] == b"%PDF" and len(pdf) > 10_000
    v.clean()
    v.close()


QUESTIONS = ["can I heal in tokyo?", "항복", "kann ich in Tokio heilen?", "domino 37", "tie breaker",
             "peut-on se soigner dans tokyo", "armor plating"]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_site_searches_as_kbg_explain_does(browser: Any, pages: dict[str, Path], viewport: dict[str, int],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from kbgrules.explain import search

    monkeypatch.setenv("KBG_NO_PLUGINS", "1")  # the site was built so

    v = Visit(browser, pages["site"] / "index.html", viewport)
    box = v.visible("#q")
    for q in QUESTIONS:
        box.fill(q)
        first = v.page.locator("#results li a").first
        first.wait_for(state="visible")
        result = search(q)
        assert first.get_attribute("href").endswith("#" + result.best.id), (q, first.get_attribute("href"))
        # as kbg explain: the answer when it is sure, else the closest three
        status = v.page.locator("#search-status").inner_text()
        assert status.startswith("The answer first" if result.confident else "Not sure"), (q, status)
        assert v.page.locator("#results li").count() == (min(5, len(result.hits)) if result.confident else 3), q
    box.fill("can I heal in tokyo?")
    v.page.locator("#results li a").first.wait_for(state="visible")
    v.shot(f"site-{'phone' if viewport is PHONE else 'desktop'}.png")
    v.page.locator("#results li a").first.click()
    v.page.wait_for_load_state()
    target = v.page.evaluate("location.hash")[1:]
    assert target == search("can I heal in tokyo?").best.id
    assert v.page.locator(f"[id='{target}']").is_visible()
    v.clean()
    v.fits(viewport["width"])
    v.close()


def test_every_site_page_loads_cleanly_and_fits_a_phone(browser: Any, pages: dict[str, Path]) -> None:
    for page in sorted(pages["site"].glob("*.html")):
        v = Visit(browser, page, PHONE)
        v.visible("main h2")
        v.clean()
        v.fits(PHONE["width"])
        v.close()


def test_a_plugin_games_pages_load_cleanly_and_search_finds_them(browser: Any, tmp_path: Path) -> None:
    """The site with the plug-in game the tests install (tests/plugins): its pages, and its entries found."""
    from kbgrules.core.plugins import installed
    from kbgrules.explain import search

    if not installed():
        pytest.fail("no plug-in game is installed: pip install tests/plugins/kbg-nothanks")
    r = CliRunner().invoke(app, ["site", str(tmp_path)])
    assert r.exit_code == 0, r.output
    games = [p.game for p in installed()]
    for page in sorted(tmp_path.glob("*.html")):
        if page.name.startswith(tuple(f"{g}-" for g in games)):
            v = Visit(browser, page, PHONE)
            v.visible("main h2")
            v.clean()
            v.fits(PHONE["width"])
            v.close()
    v = Visit(browser, tmp_path / "index.html", DESKTOP)
    v.visible("#q").fill("what if I have no chips left?")
    first = v.page.locator("#results li a").first
    first.wait_for(state="visible")
    assert first.get_attribute("href").endswith("#" + search("what if I have no chips left?").best.id)
    v.close()


def test_the_keyboard_reaches_the_content_first(browser: Any, pages: dict[str, Path]) -> None:
    v = Visit(browser, pages["site"] / "kingdomino-rules.html", DESKTOP)
    v.page.keyboard.press("Tab")
    focused = v.page.evaluate("document.activeElement.className + ' ' + document.activeElement.getAttribute('href')")
    assert focused == "skip #main" and v.page.locator("a.skip").is_visible()
    v.close()
