"""Output on narrow terminals and without colour: tables never cut a word, kingdoms keep their cells
apart, counts agree with their nouns, and people read names where the log writes ids."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kbg_cli import render
from kbgrules.core.check import check_text
from kbgrules.core.words import counted, fill

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


def terminal(*args: str, columns: int = 60, **env: str) -> str:
    """What the real ``kbg ARGS`` shows on a pseudo-terminal ``columns`` wide, without colour codes."""
    pytest.importorskip("pty")
    script = f"import pty, sys; sys.exit(pty.spawn([sys.executable, '-m', 'kbg_cli', *{list(args)!r}]) >> 8)"
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env={**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns), "NO_COLOR": "1", **env},
                       timeout=120)
    return ANSI.sub("", r.stdout.replace("\r", ""))


def piped(*args: str, columns: int = 100) -> str:
    r = subprocess.run([sys.executable, "-m", "kbg_cli", *args], capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL, env={**os.environ, "COLUMNS": str(columns)})
    return r.stdout


def corrupted(tmp_path: Path) -> str:
    """README's corrupted log: Kingdomino's standings, which are wider than 60 columns."""
    text = (ROOT / "examples" / "kingdomino" / "four-players.log").read_text(encoding="utf-8")
    log = tmp_path / "corrupted.log"
    log.write_text(text.replace("Cid place 27 d4 d5\n", "Cid place 27 d6 d7\n"), encoding="utf-8")
    return str(log)


# --------------------------------------------------------------------------- tables on 60 columns


def test_standings_headers_are_never_cut_on_60_columns(tmp_path: Path) -> None:
    log = corrupted(tmp_path)
    out = terminal("check", log)
    words = out.split()
    for word in ("rank", "player", "score", "bonuses", "largest", "property", "crowns", "discards"):
        assert word in words, out
    assert max(len(x) for x in out.splitlines() if not x.startswith(f"{log}:")) <= 60  # diagnostics: one line each


def test_list_never_cuts_an_id_on_60_columns() -> None:
    out = terminal("list")
    ids = [o["id"] for g in json.loads(piped("list", "--json"))["games"] for o in (*g["editions"], *g["variants"])]
    assert "death-from-above-bay-stays" in ids
    words = out.split()
    assert [i for i in ids if i not in words] == [], out


@pytest.mark.parametrize("log", ["king-of-tokyo/four-players.log", "king-of-tokyo/dark-edition.log",
                                 "king-of-tokyo/six-players.log", "kingdomino/four-players.log"])
def test_show_never_cuts_a_cell_on_60_columns(log: str) -> None:
    """Every cell of the table (as a wide pipe writes it) comes whole on 60 columns, the table side by
    side or a turn at a time."""
    wide = piped("show", str(ROOT / "examples" / log), columns=1000).split("Standings")[0]
    cells = {w for line in wide.splitlines() if re.match(r" +\d", line) for w in line.split()}
    assert any("/" in c for c in cells) or "(22)" in cells, wide[:300]
    out = terminal("show", str(ROOT / "examples" / log))
    assert cells - set(out.split()) == set()
    assert max(map(len, out.splitlines())) <= 60


def _table(columns: list[str], *rows: list[object], numeric: tuple[int, ...] = ()) -> render.Table:
    t = render.Table("Title", columns, numeric=numeric)
    for r in rows:
        t.add(*r)
    return t


WIDE = _table(["name", "largest property", "what it says"],
              ["death-from-above-bay-stays", 12, "a long sentence that has to wrap over several lines somewhere"],
              ["even-bigger", 3, "short"], numeric=(1,))


@pytest.mark.parametrize("room", [40, 50, 60, 80, 200])
def test_plain_and_rich_tables_wrap_between_words(room: int) -> None:
    from rich.console import Console

    console = Console(width=room, file=io.StringIO(), no_color=True, force_terminal=False)
    render._rich_table(console, WIDE)
    for text in ("\n".join(render._plain_table(WIDE, room)), console.file.getvalue()):
        lines = text.splitlines()
        assert max(len(x.rstrip()) for x in lines) <= room, text
        words = text.split()
        for cell in ("name", "largest", "property", "death-from-above-bay-stays", "even-bigger", "several"):
            assert cell in words, text


def test_a_table_whose_words_cannot_sit_side_by_side_goes_a_row_at_a_time() -> None:
    lines = render._plain_table(WIDE, 40)
    assert lines[:4] == ["Title", "  name        death-from-above-bay-stays", "  largest     12", "  property"], lines
    assert "  name        even-bigger" in lines and "" in lines  # a blank line between two rows, one layout
    assert render._plain_table(WIDE, 100)[1].split() == ["name", "largest", "property", "what", "it", "says"]


def test_fit_narrows_the_widest_columns_never_below_a_word() -> None:
    assert render.fit([4, 3, 5], [4, 10, 30], 100) == [4, 10, 30]  # room for all
    assert render.fit([4, 3, 5], [4, 10, 30], 24) == [4, 10, 10]
    assert render.fit([4, 3, 12], [4, 10, 30], 20) == [4, 4, 12]  # a long word keeps its column wide
    assert render.fit([4, 3, 12], [4, 10, 30], 18) is None


# --------------------------------------------------------------------------- kingdoms without colour


def test_kingdom_cells_are_one_width_and_apart_without_colour(tmp_path: Path) -> None:
    grid = tmp_path / "k.grid"
    grid.write_text("M3 W1 C S2\nF . G L1\n", encoding="utf-8")
    lines = terminal("score", str(grid), columns=80).splitlines()
    at = next(i for i, x in enumerate(lines) if x.split() == ["c", "d", "e", "f"])
    head, rows = lines[at], lines[at + 1:at + 3]
    starts = [head.index(c) for c in "cdef"]
    pitch = starts[1] - starts[0]
    assert [b - a for a, b in itertools.pairwise(starts)] == [pitch] * 3
    cells = [[row[s:s + pitch] for s in starts] for row in rows]
    assert [c.rstrip() for c in cells[0]] == ["M♛♛♛", "W♛", "♜", "S♛♛"]
    assert [c.rstrip() for c in cells[1]] == ["F", "·", "G", "L♛"]
    assert all(c[:pitch - 1] == c[:pitch - 1].rstrip().ljust(pitch - 1) and c[pitch - 1:] in ("", " ")
               for row in cells for c in row), cells  # a space ends every cell: two never run together


# --------------------------------------------------------------------------- counts and names


def test_counts_agree_with_their_nouns() -> None:
    assert (counted(1, "file"), counted(2, "file"), counted(1, "die", "dice"), counted(0, "die", "dice")) == (
        "1 file", "2 files", "1 die", "0 dice")
    assert fill("{a:die|dice} re-rolled, {b}", {"a": 1, "b": 2}) == "1 die re-rolled, 2"


def test_a_violation_counts_dice_in_words() -> None:
    log = "@game king-of-tokyo\n@players Ann Bob Cid\nfirst Ann\nAnn roll 1 1 1 s e h\nAnn reroll h : s s\n"
    (game,) = check_text("x.log", log).games
    assert [v.message for v in game.violations] == ["1 die re-rolled but 2 new faces given"]


def test_the_closing_count_of_one_file_is_singular(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "kbg_cli", "check", "--summary",
                        str(ROOT / "examples" / "kingdomino" / "two-players.log")],
                       capture_output=True, text=True, timeout=120)
    assert r.stderr.startswith("kbg: 1 file, 1 game: 1 legal, "), r.stderr


def test_people_read_names_not_ids() -> None:
    kot = piped("check", str(ROOT / "examples" / "king-of-tokyo" / "four-players.log"))
    assert "(King of Tokyo, New edition (2016); 4 players): valid" in kot
    assert "Even Bigger" in kot and "even-bigger" not in kot
    kd = piped("check", str(ROOT / "examples" / "kingdomino" / "four-players-bonuses.log"))
    assert "The Middle Kingdom +10, Harmony +5" in kd and "middle-kingdom" not in kd
    dynasty = piped("check", str(ROOT / "examples" / "kingdomino" / "dynasty.log"))
    assert "Dynasty, " in dynasty and "Second edition (Blue Orange US rulebook), Dynasty; 3 players" in dynasty
    evolutions = piped("rules", "kot", "evolutions", "-v", "power-up")
    assert "The King" in evolutions and "the-king" not in evolutions
    assert "Tokyo City, Tokyo Bay" in piped("rules", "kot", "setup")
    on_terminal = terminal("check", str(ROOT / "examples" / "king-of-tokyo" / "four-players.log"))
    assert "Even Bigger" in on_terminal and "even-bigger" not in on_terminal


# --------------------------------------------------------------------------- names written with spaces


HEAD = "@game king-of-tokyo\n@players Ann Bob Cid\nfirst Ann\n"
BUY = "market corner-store heal tank\nAnn roll 1 1 1 s e h\nAnn end\nBob roll s s s e e e\nAnn yield\n"


@pytest.mark.parametrize(("lines", "hint"), [
    (BUY + "Bob buy Corner Store : energize", "write 'corner-store' for 'Corner Store'"),
    (BUY + "Bob buy heal : Death From Above", "write 'death-from-above' for 'Death From Above'"),
    (BUY + "Bob use Corner Stor", "write 'corner-store' for 'Corner Stor'"),
    ("market Corner Store heal", "write 'corner-store' for 'Corner Store'"),
])
def test_a_card_name_written_with_spaces_is_answered_with_its_id(lines: str, hint: str) -> None:
    """`Bob buy Corner Store : energize` said only what a buy line holds: it now says how to write the card."""
    (game,) = check_text("x.log", HEAD + lines + "\n").games
    (error,) = game.errors
    assert "names are written as one word, their ids" in error.message and hint in error.message, error.message


def test_a_wrong_line_with_no_spaced_name_gets_no_such_hint() -> None:
    (game,) = check_text("x.log", HEAD + BUY + "Bob buy heal tank\n").games
    (error,) = game.errors
    assert error.message.startswith("expected: NAME buy CARD : REVEALED-CARD") and "one word" not in error.message
