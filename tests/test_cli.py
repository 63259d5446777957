"""The kbg command through typer's test runner: results on stdout, one-line errors on stderr, exit codes."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kbg_cli.app import app, main

from .conftest import ROOT
from .test_loader import HOUSE

runner = CliRunner()


def kbg(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str) -> str:
    code, out, err = kbg(*args)
    assert (code, err) == (0, ""), err
    return out


def usage_error(*args: str) -> str:
    code, out, err = kbg(*args)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kbg: "), err
    assert "Traceback" not in err
    return lines[0]


def test_setup_kingdomino_three_players() -> None:
    out = ok("setup", "kingdomino", "--players", "3")
    assert "36 dominoes used, 12 returned to the box, 3 per line, 12 rounds" in out
    assert "12  dominoes, drawn at random and returned unseen" in out
    assert "\x1b[" not in out  # plain when not a terminal


def test_setup_kingdomino_second_edition() -> None:
    out = " ".join(ok("setup", "kd", "-p", "3", "--edition", "second").split())
    assert "48 dominoes used, 0 returned to the box, 4 per line, 12 rounds" in out
    assert "unclaimed domino of each line discarded" in out


def test_setup_json() -> None:
    data = json.loads(ok("setup", "kingdomino", "--players", "3", "--json"))
    assert data["kbg_json"] == 1 and data["edition"] == "first" and data["players"] == 3
    f = data["facts"]
    assert (f["dominoes_used"], f["dominoes_removed"], f["line_size"], f["rounds"]) == (36, 12, 3, 12)
    assert {s["id"] for s in data["sections"]} >= {"take", "box", "each", "area", "first", "flow"}
    duel = json.loads(ok("setup", "kd", "-p", "2", "-v", "mighty-duel", "--json"))
    assert duel["facts"]["kingdom_size"] == 7 and duel["facts"]["dominoes_per_player"] == 24
    assert duel["variants"] == ["mighty-duel"]


@pytest.mark.parametrize("players,spaces", [(4, ["city"]), (5, ["city", "bay"])])
def test_setup_king_of_tokyo(players: int, spaces: list[str]) -> None:
    data = json.loads(ok("setup", "king-of-tokyo", "--players", str(players), "--json"))
    f = data["facts"]
    assert f["tokyo_spaces"] == spaces
    assert (f["start_life"], f["start_vp"], f["start_energy"], f["market_size"]) == (10, 0, 0, 3)
    assert f["monsters_in_box"] == 6 - players
    text = ok("setup", "kot", "-p", str(players))
    assert "most smashes" in text.lower() or "smashes goes first" in text


def test_setup_two_player_rule() -> None:
    data = json.loads(ok("setup", "kot", "-p", "2", "-v", "two-player", "--json"))
    assert data["facts"]["enter_reward"] == {"resource": "energy", "amount": 1}
    assert "+1 energy on entering" in ok("setup", "kot", "-p", "2", "-v", "2p")


def test_list() -> None:
    out = ok("list")
    assert "Kingdomino" in out and "King of Tokyo" in out
    assert "second" in out and "mighty-duel" in out and "two-player" in out
    data = json.loads(ok("list", "--json"))
    kd = next(g for g in data["games"] if g["id"] == "kingdomino")
    assert [e["id"] for e in kd["editions"] if e["default"]] == ["first"]


def test_rules_browsing() -> None:
    assert "kd.place.connect" in ok("rules", "kingdomino")
    one = ok("rules", "kot", "kot.tokyo.yield")
    assert "Yielding Tokyo" in one and "Sources" in one
    assert "kot.tokyo.yield" in ok("rules", "kot", "yield")
    cards = ok("rules", "kot", "cards")
    assert "Acid Attack" in cards and "66 cards" in cards
    assert "Monster Batteries" in ok("rules", "kot", "cards", "--edition", "2011")
    doms = ok("rules", "kd", "dominoes")
    assert "48" in doms and "wheat field" in doms
    assert len(json.loads(ok("rules", "kd", "dominoes", "--json"))["dominoes"]) == 48
    assert json.loads(ok("rules", "kd", "kd.place.connect", "--json"))["rule"]["sources"]
    for topic in ("components", "documents", "terrains", "setup"):
        ok("rules", "kd", topic)
    ok("rules", "kot", "setup")


def test_rules_card_and_domino_topics() -> None:
    armor = ok("rules", "kot", "Armor Plating")
    assert "keep card, cost 4" in armor and "Clarification" in armor
    data = json.loads(ok("rules", "kot", "armor-plating", "--json"))["card"]
    assert (data["cost"], data["type"]) == (4, "keep")
    dom = json.loads(ok("rules", "kd", "domino 37", "--json"))["domino"]
    assert dom["halves"] == [{"terrain": "lake", "crowns": 0}, {"terrain": "grassland", "crowns": 1}]
    assert "unknown-domino" in usage_error("rules", "kd", "49")


@pytest.mark.parametrize("args,code", [
    (("setup", "chess", "--players", "2"), "unknown-game"),
    (("setup", "kingdomno", "--players", "2"), "did you mean 'kingdomino'"),
    (("setup", "kd", "--players", "3", "--edition", "third"), "unknown-edition"),
    (("setup", "kd", "--players", "3", "--variant", "mighty-dual"), "did you mean 'mighty-duel'"),
    (("setup", "kd", "--players", "5"), "player-count"),
    (("setup", "kd", "--players", "3", "--variant", "mighty-duel"), "The Mighty Duel is played with 2 players"),
    (("setup", "kot", "--players", "1"), "player-count"),
    (("setup", "kd", "--players", "three"), "error usage"),
    (("setup", "kd"), "error usage"),
    (("setup",), "error usage"),
    (("frobnicate",), "error usage"),
    (("setup", "kd", "-p", "3", "--colour"), "error usage"),
    (("rules", "kd", "xyzzy-plugh"), "unknown-topic"),
])
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], code: str) -> None:
    assert code in usage_error(*args)


def test_version_and_help() -> None:
    assert ok("--version").startswith("kbg 0.")
    assert "setup" in ok("--help") and "--players" in ok("setup", "--help")
    assert "setup" in ok()  # no command: help, exit 0


def test_user_rules_option_and_env(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text(HOUSE, encoding="utf-8")
    data = json.loads(ok("--rules", str(tmp_path), "setup", "kd", "-p", "4", "-v", "big", "--json"))
    assert data["facts"]["kingdom_size"] == 6
    code, out, _ = kbg("setup", "kd", "-p", "4", "-v", "big", "--json", env={"KBG_RULES": str(tmp_path)})
    assert code == 0 and json.loads(out)["facts"]["kingdom_size"] == 6


def test_bad_user_rules_report_every_problem(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text(HOUSE.replace("kingdom_size: 6", "kingdom_size: on\n    kingdom_size: 7"),
                                         encoding="utf-8")
    code, out, err = kbg("--rules", str(tmp_path), "list")
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 2 and all(line.startswith(f"kbg: {tmp_path / 'house.yaml'}:") for line in lines)
    assert "yaml11-boolean" in lines[0] and "duplicate-key" in lines[1]


def test_main_returns_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["setup", "kd", "-p", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == 3
    assert main(["setup", "kd", "-p", "9"]) == 2
    assert capsys.readouterr().err.startswith("kbg: error player-count:")


def _run(args: list[str], env_extra: dict[str, str] | None = None, **kw: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run(args, capture_output=True, text=True, env=env, **kw)  # type: ignore[call-overload]


def test_python_dash_m() -> None:
    r = _run([sys.executable, "-m", "kbg_cli", "setup", "kd", "--players", "3"])
    assert r.returncode == 0 and "36 dominoes used" in r.stdout
    r = _run([sys.executable, "-m", "kbg_cli", "setup", "kd", "--players", "7"])
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stdout == ""


@pytest.mark.parametrize("args", [["check"], ["check", "--json"], ["show"], ["explain", "yield", "--game", "kot"]],
                         ids=["check", "check-json", "show", "explain"])
def test_a_reader_that_goes_away_ends_kbg_quietly_with_0(tmp_path: Path, args: list[str]) -> None:
    """`kbg check BIG.log | head -1`: click's own handler of a closed pipe exited with 1."""
    log = tmp_path / "many.log"
    log.write_text("@game kingdomino\n@players A B\ndeal 18 5 25 14\n" * 400)
    argv = [sys.executable, "-m", "kbg_cli", *args] + ([] if args[0] == "explain" else [str(log)])
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0 and err == b""


def test_terminal_output_uses_rich_and_no_color(tmp_path: Path) -> None:
    pytest.importorskip("pty")
    script = ("import pty, sys; sys.exit(pty.spawn([sys.executable, '-m', 'kbg_cli', 'setup', 'kd', '-p', '3']) >> 8)")
    r = _run([sys.executable, "-c", script], {"TERM": "xterm-256color", "COLUMNS": "100"}, stdin=subprocess.DEVNULL)
    assert re.search(r"\x1b\[(?:[0-9]+;)*(?:3[0-8]|9[0-7])(?:;[0-9]+)*m", r.stdout)
    assert "36 dominoes used" in re.sub(r"\x1b\[[0-9;]*m", "", r.stdout)
    env = {"TERM": "xterm-256color", "COLUMNS": "100", "NO_COLOR": "1"}
    r = _run([sys.executable, "-c", script], env, stdin=subprocess.DEVNULL)
    assert "36 dominoes used" in r.stdout
    colour = re.compile(r"\x1b\[(?:[0-9]+;)*(?:3[0-8]|9[0-7])(?:;[0-9]+)*m")
    assert not colour.search(r.stdout)  # NO_COLOR: bold may stay, colours go


def _on_terminal(*args: str, **env: str) -> str:
    """What ``kbg ARGS`` writes on a pseudo-terminal (stdout and stderr together), with ``env`` added."""
    pytest.importorskip("pty")
    script = f"import pty, sys; sys.exit(pty.spawn([sys.executable, '-m', 'kbg_cli', *{list(args)!r}]) >> 8)"
    r = _run([sys.executable, "-c", script], {"TERM": "xterm-256color", "COLUMNS": "100", **env},
             stdin=subprocess.DEVNULL)
    return r.stdout.replace("\r", "")


@pytest.mark.parametrize("columns", ["60", "80"])
def test_terminal_verdict_is_never_cut(columns: str) -> None:
    """On a narrow terminal the heading wraps: the verdict at its end is shown whole."""
    log = str(Path(__file__).resolve().parent.parent / "examples" / "king-of-tokyo" / "annotated.log")
    text = re.sub(r"\x1b\[[0-9;]*m", "", _on_terminal("check", log, COLUMNS=columns, NO_COLOR="1"))
    assert "3 players): valid" in " ".join(text.split()), text[:400]


def test_terminal_colours_the_verdict_and_the_diagnostics(tmp_path: Path) -> None:
    log = tmp_path / "bad.log"
    log.write_text("@game kingdomino\n@players Alice Bernard\ndeal 3 17 22 40\nBernad claim 3\n", encoding="utf-8")
    out = _on_terminal("check", str(log))
    assert "\x1b[1;31merror log-player\x1b[0m: 'Bernad' is not a player" in out  # red on the terminal
    assert re.search(r"\x1b\[1;33m[^\x1b]*errors in the log", out)  # the verdict in yellow
    out = _on_terminal("check", str(log), NO_COLOR="1")
    assert "error log-player: 'Bernad'" in re.sub(r"\x1b\[1m|\x1b\[0m", "", out)
    assert not re.search(r"\x1b\[(?:[0-9]+;)*(?:3[0-8]|9[0-7])(?:;[0-9]+)*m", out)


@pytest.mark.parametrize("terminal", [False, True])
def test_kingdoms_are_labelled_as_the_log_names_squares(tmp_path: Path, terminal: bool) -> None:
    """Column letters above, row numbers on the left: the castle stands under 'e' on row 5, and a square
    placed at d6 in the log is drawn under 'd' on row 6 (domino 3: forest, forest)."""
    log = tmp_path / "g.log"
    log.write_text("@game kingdomino\n@players Ann Bob\ndeal 3 17 22 40\nBob claim 3\nAnn claim 17\nBob claim 22\n"
                   "Ann claim 40\ndeal 1 2 4 5\nBob place 3 d5 d6\n", encoding="utf-8")
    out = _on_terminal("check", str(log), NO_COLOR="1") if terminal else kbg("check", str(log))[1]
    lines = re.sub(r"\x1b\[[0-9;]*m", "", out).split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.strip() in ("Bob:", "Bob"))
    head, rows = lines[at + 1], {ln.split()[0]: ln for ln in lines[at + 2:at + 4]}
    assert head.split() == ["d", "e"] and list(rows) == ["6", "5"], lines[at:at + 4]
    d, e = head.index("d"), head.index("e")
    assert rows["6"][d] == "F" and rows["5"][d] == "F" and rows["6"][e:e + 2].strip() in (".", "·")
    assert rows["5"][e - 1:e + 2].strip() in ("C", "♜")  # the castle on e5


def test_explain_on_a_terminal_wraps_once_and_keeps_the_title() -> None:
    """rich wraps the answer to the terminal (not kbg first at 100 columns, then rich again)."""
    out = re.sub(r"\x1b\[[0-9;]*m", "", _on_terminal("explain", "can I heal in tokyo?", COLUMNS="60"))
    lines = out.split("\n")
    assert max(len(x.rstrip()) for x in lines) <= 60
    assert "[kot.faq.heal-in-tokyo, King of Tokyo]" in " ".join(out.split())
    body = [x.rstrip() for x in lines[3:8]]
    assert all(len(x) > 40 for x in body[:4]), body  # full lines: no short remainders of a second wrap


Writer = Callable[[str, str], Path]


# --------------------------------------------------------------------------- check, score, simulate

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "kingdomino"


def test_check_example_clean() -> None:
    code, out, err = kbg("check", str(EXAMPLES / "four-players.log"))
    assert (code, err) == (0, "")
    assert "valid" in out and "Winner" in out and "rank" in out


def test_check_directory_and_json() -> None:
    code, out, _ = kbg("check", "--json", str(EXAMPLES))
    docs = [json.loads(line) for line in out.splitlines()]  # JSON Lines: one document per file, in order
    files = sorted(str(p) for p in EXAMPLES.rglob("*.log"))
    assert code == 0 and len(docs) == len(files)
    assert [d["games"][0]["file"] for d in docs] == files
    assert sum(len(d["games"]) for d in docs) == len(files) + 2  # dynasty holds 3 games
    assert [m["variant"] for d in docs for m in d.get("matches", [])] == ["dynasty"]
    one = json.loads(kbg("check", "--json", files[0])[1])  # a single input: one indented document
    assert one == docs[0]


def test_check_jobs_quiet_and_summary(tmp_path: Path) -> None:
    for i in range(4):
        log = (EXAMPLES / "two-players.log").read_text()
        if i == 2:
            log = log.replace("kings ", "kings Bob Bob Bob # ", 1)
        (tmp_path / f"g{i}.log").write_text(log)
    serial = kbg("check", "-j", "1", str(tmp_path))
    parallel = kbg("check", "-j", "2", str(tmp_path))
    assert serial[0] == parallel[0] == 1
    assert serial[1] == parallel[1]  # the same verdicts in the same (input) order
    strip = re.compile(r" \([0-9.]+ s\)$", re.M)
    assert strip.sub("", serial[2]) == strip.sub("", parallel[2])
    assert parallel[2].splitlines()[-1].startswith("kbg: 4 files, 4 games: 3 legal, 1 with a rule violation")
    code, out, err = kbg("check", "--quiet", str(tmp_path))
    assert code == 1 and out == "" and "g2.log" in err and "g0.log" not in err
    code, out, err = kbg("check", "--summary", str(tmp_path))
    assert code == 1 and out == "" and err.count("\n") == 1 and "1 with a rule violation" in err


def test_check_violation_exit_1(tmp_path: Path) -> None:
    log = (EXAMPLES / "two-players.log").read_text().replace("kings ", "kings Bob Bob Bob # ", 1)
    (tmp_path / "bad.log").write_text(log)
    code, out, err = kbg("check", str(tmp_path / "bad.log"))
    assert code == 1
    first = err.splitlines()[0]
    pattern = rf"{re.escape(str(tmp_path / 'bad.log'))}:\d+:1: error kd-kings-order: .* \[kd\.setup\.first-claims\]$"
    assert re.match(pattern, first)
    assert "checking stopped" in err and "rule violation" in out
    before = (tmp_path / "bad.log").read_text()
    assert before == log  # input files are never modified


def test_check_stdin_and_unreadable(tmp_path: Path) -> None:
    log = (EXAMPLES / "two-players.log").read_text()
    result = runner.invoke(app, ["check", "-"], input=log)
    assert result.exit_code == 0
    code, _, err = kbg("check", str(tmp_path / "missing.log"))
    assert code == 2 and "unreadable" in err
    (tmp_path / "bin.log").write_bytes(b"\x00\x01\x02")
    code, _, err = kbg("check", str(tmp_path / "bin.log"))
    assert code == 2 and err.count("\n") == 1 and "binary-file" in err
    code, _, err = kbg("check", str(tmp_path))
    assert code == 2 and "binary-file" in err  # the directory holds bin.log


def test_score_grid() -> None:
    path = EXAMPLES / "kingdoms" / "complete-centred.grid"
    data = json.loads(ok("score", str(path), "--variant", "middle-kingdom", "--variant", "harmony", "--json"))
    assert data["bonuses"] == {"middle-kingdom": 10, "harmony": 5} and data["warnings"] == []
    assert data["score"] == data["base"] + 15
    assert sum(p["points"] for p in data["properties"]) == data["base"]
    text = ok("score", str(EXAMPLES / "kingdoms" / "rulebook-forest.grid"))
    assert "18 points" in text


def test_score_warnings_and_errors(tmp_path: Path) -> None:
    code, _, err = kbg("score", str(EXAMPLES / "kingdoms" / "impossible.grid"))
    assert code == 0 and "warning grid-too-big" in err and "warning grid-inventory" in err
    (tmp_path / "bad.grid").write_text("W1 Q\n")
    code, out, err = kbg("score", str(tmp_path / "bad.grid"))
    assert code == 2 and out == "" and ":1:4: error grid-cell" in err
    (tmp_path / "empty.grid").write_text("")
    assert kbg("score", str(tmp_path / "empty.grid"))[0] == 2
    assert "Invalid value for FILE: an empty path names no file" in usage_error("score", "")  # not ':1:1: unreadable'


def test_simulate_is_deterministic_and_checks_clean(tmp_path: Path) -> None:
    a = ok("simulate", "kingdomino", "--players", "3", "--seed", "5")
    assert a == ok("simulate", "kd", "-p", "3", "-s", "5")
    assert a != ok("simulate", "kd", "-p", "3", "-s", "6")
    ok("simulate", "kd", "-p", "2", "-s", "1", "-v", "mighty-duel", "-o", str(tmp_path / "duel.log"))
    assert kbg("check", str(tmp_path / "duel.log"))[0] == 0
    kot = ok("simulate", "kot", "-p", "4", "-s", "2")
    (tmp_path / "kot.log").write_text(kot)
    assert kbg("check", str(tmp_path / "kot.log"))[0] == 0
    assert "player-count" in usage_error("simulate", "kd", "-p", "5")


def test_show_turn_by_turn() -> None:
    kot = Path(__file__).resolve().parent.parent / "examples" / "king-of-tokyo" / "annotated.log"
    out = ok("show", str(kot))
    assert "turn by turn" in out and "10/2/1*C" in out and "7/2/1" in out
    kd = ok("show", str(EXAMPLES / "two-players.log"))
    assert "score after each round" in kd and "Winner" in kd


def test_plain_tables_align_decomposed_accents_and_wide_letters() -> None:
    """Piped tables line up whatever the script: a name written decomposed (Vietnamese in NFD) takes the
    columns it shows, Hangul two per letter."""
    import unicodedata

    from rich.cells import cell_len

    from kbg_cli import render

    t = render.Table(None, ["player", "score"], numeric=[1])
    for name, score in ((unicodedata.normalize("NFD", "Nguyễn Thị"), 12), ("한국", 7), ("Bob", 100)):
        t.add(name, score)
    lines = [x for x in render._plain_table(t) if x.strip()]
    assert len({cell_len(x.rstrip()) for x in lines[2:]}) == 1, lines  # every row ends in the same column


def test_piped_output_wraps_at_columns() -> None:
    r = _run([sys.executable, "-m", "kbg_cli", "rules", "kd", "kd.place.overlap"], {"COLUMNS": "60"})
    assert r.returncode == 0 and max(len(x) for x in r.stdout.splitlines()) <= 60, r.stdout
    r = _run([sys.executable, "-m", "kbg_cli", "rules", "kd", "kd.place.overlap"], {"COLUMNS": "junk"})
    assert r.returncode == 0 and max(len(x) for x in r.stdout.splitlines()) > 60  # 100, the default


@pytest.mark.parametrize(("shell", "env", "offered"), [
    ("bash", {"COMP_WORDS": "kbg ch", "COMP_CWORD": "1"}, "check"),
    ("zsh", {"_TYPER_COMPLETE_ARGS": "kbg se"}, '"setup"'),
    ("fish", {"_TYPER_COMPLETE_ARGS": "kbg ru", "_TYPER_COMPLETE_FISH_ACTION": "get-args"}, "rules"),
    ("bash", {"COMP_WORDS": "kbg explain --la", "COMP_CWORD": "2"}, "--lang"),
])
def test_completion(shell: str, env: dict[str, str], offered: str) -> None:
    r = _run([sys.executable, "-m", "kbg_cli", "--show-completion", shell])
    script_of = {"bash": "complete -o default -F _kbg_completion kbg", "zsh": "#compdef kbg",
                 "fish": "complete --command kbg"}
    assert r.returncode == 0 and "_KBG_COMPLETE" in r.stdout and script_of[shell] in r.stdout, r.stdout[:300]
    r = _run([sys.executable, "-m", "kbg_cli"], {"_KBG_COMPLETE": f"complete_{shell}", **env})
    assert offered in r.stdout, r.stdout


def test_completion_installs_for_the_shell_named_and_refuses_others(tmp_path: Path) -> None:
    r = _run([sys.executable, "-m", "kbg_cli", "--install-completion", "zsh"], {"HOME": str(tmp_path)})
    assert r.returncode == 0 and "zsh completion installed" in r.stdout, r.stdout + r.stderr
    assert "#compdef kbg" in (tmp_path / ".zfunc" / "_kbg").read_text(encoding="utf-8")
    r = _run([sys.executable, "-m", "kbg_cli", "--show-completion", "tcsh"])
    assert r.returncode == 2 and r.stdout == "" and "no completion for the shell 'tcsh'" in r.stderr




def _help_examples(text: str) -> list[str]:
    return [ln.strip() for ln in text.split("Examples:\n", 1)[1].splitlines() if ln.strip()]


@pytest.mark.parametrize("command", ["", "list", "setup", "rules", "check", "show", "score", "simulate", "explain"])
def test_every_help_page_ends_with_examples_that_parse(command: str) -> None:
    """Each help page closes with examples, and each example names real options with valid values."""
    import shlex

    import click
    import typer

    from kbg_cli import explain_cmd

    r = _run([sys.executable, "-m", "kbg_cli", *([command] if command else []), "--help"])
    assert r.returncode == 0 and r.stdout.startswith(f"Usage: kbg {command}".rstrip()), r.stdout
    examples = _help_examples(r.stdout)
    assert examples, r.stdout
    group = typer.main.get_command(app)
    for example in examples:
        for part in example.split("|"):
            words = shlex.split(part)
            if words[0] != "kbg" or words[1:] in (["COMMAND", "--help"], ["check", "-"]) or "COMMAND" in words:
                continue
            if words[1] == "explain":
                explain_cmd.parse(words[2:])
                continue
            with click.Context(group, info_name="kbg", resilient_parsing=False) as ctx:
                sub = group.get_command(ctx, words[1])  # type: ignore[attr-defined]
                assert sub is not None, example
                sub.make_context(words[1], words[2:], parent=ctx)


def test_explain_through_typer_answers_as_the_fast_path() -> None:
    """The typer declaration (used by `kbg --rules DIR explain ...`; here through typer's runner) and the
    fast path of the console script (`kbg explain ...`) give the same answer."""
    typer_way = kbg("explain", "yield", "--lang", "ko", "--json")
    assert typer_way[0] == 0 and json.loads(typer_way[1])["best"]["id"] == "kot.tokyo.yield"
    r = _run([sys.executable, "-m", "kbg_cli", "explain", "yield", "--lang", "ko", "--json"])
    assert r.returncode == 0 and json.loads(r.stdout) == json.loads(typer_way[1])


def test_explain_takes_each_rules_folder_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """KBG_RULES's folders, then those of `kbg --rules`, then those of `explain --rules`: each once, through
    typer as on the fast path."""
    import kbgrules.explain
    from kbg_cli import explain_cmd

    real, seen = kbgrules.explain.search, []
    env_a, env_b, top, own = (str(tmp_path / name) for name in ("env-a", "env-b", "top", "own"))
    for d in (env_a, env_b, top, own):
        os.mkdir(d)

    def spy(query: str, game: str | None = None, rules_dirs: Sequence[str] = ()) -> object:
        seen.append(list(rules_dirs))
        return real(query, game)

    monkeypatch.setattr(kbgrules.explain, "search", spy)
    monkeypatch.setenv("KBG_RULES", os.pathsep.join([env_a, env_b]))
    assert kbg("--rules", top, "explain", "yield", "--rules", own, "--json")[0] == 0
    assert explain_cmd.run(["yield", "--rules", own, "--json"]) == 0
    assert seen == [[env_a, env_b, top, own], [env_a, env_b, own]]
    assert json.loads(capsys.readouterr().out)["best"]["id"] == "kot.tokyo.yield"


@pytest.mark.parametrize("args", [
    "list", "setup kot -p 5 -e dark", "rules kot cards", "rules kd setup", "check examples/king-of-tokyo/annotated.log",
    "show examples/kingdomino/two-players.log", "score examples/kingdomino/kingdoms/complete-centred.grid",
    "explain yield", "explain",
])
def test_nothing_is_wider_than_a_60_column_terminal(args: str) -> None:
    from rich.cells import cell_len

    root = Path(__file__).resolve().parent.parent
    out = _on_terminal(*[str(root / a) if a.startswith("examples/") else a for a in args.split()], COLUMNS="60")
    text = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", out)
    wide = [ln for ln in text.splitlines() if cell_len(ln) > 60]
    assert not wide and text.strip(), wide[:3]


def test_check_turns_adds_the_state_after_every_turn() -> None:
    from jsonschema import Draft202012Validator

    root = Path(__file__).resolve().parent.parent
    schema = json.loads((root / "docs" / "check-output.schema.json").read_text(encoding="utf-8"))
    code, out, _ = kbg("check", "--json", "--turns", str(root / "examples" / "king-of-tokyo" / "two-players.log"))
    data = json.loads(out)
    Draft202012Validator(schema).validate(data)
    turns = data["games"][0]["turns"]
    assert code == 0 and len(turns) > 3 and turns[0] == {"turn": 1, "monster": "Ann", "monsters": turns[0]["monsters"]}
    assert "turns" not in json.loads(kbg("check", "--json", str(EXAMPLES / "two-players.log"))[1])["games"][0]
    assert "--turns" in usage_error("check", "--json", "--turns", "--dask", "tcp://127.0.0.1:1", str(EXAMPLES))


def test_a_failing_stdout_during_a_parallel_check_leaves_no_thread_behind(tmp_path: Path) -> None:
    """Issue 25 #5: with -j 2, a stdout that fails (/dev/full) or a reader that goes away (| head -1) printed
    "Exception ignored ... threading._shutdown ... OSError" in some runs (Python 3.11's executor race):
    the worker pool now stops its feeding threads before kbg exits. Run 30 times each, as the fuzzer did."""
    for name in ("two-players", "four-players", "dynasty", "mighty-duel"):
        for k in range(3):
            (tmp_path / f"{name}-{k}.log").write_bytes((ROOT / "examples" / "kingdomino" / f"{name}.log").read_bytes())
    one = (ROOT / "examples" / "kingdomino" / "four-players.log").read_text(encoding="utf-8")
    (tmp_path / "big.log").write_text("\n".join([one] * 140), encoding="utf-8")  # 270 KB: checked here, not on a worker
    kbg = f"{shlex.quote(sys.executable)} -m kbg_cli"
    for command in (f"{kbg} check --json -j 2 {tmp_path} > /dev/full",
                    f"{kbg} check -j 2 {tmp_path} | head -1 > /dev/null"):
        for _ in range(30):
            stderr = _run_or_dump(command)
            assert "Exception ignored" not in stderr and "Traceback" not in stderr, stderr
            assert stderr.count("\n") <= 1, stderr


def _run_or_dump(command: str, timeout: float = 90) -> str:
    """The stderr of a shell command; one that hangs fails the test with every thread's stack
    (faulthandler, on SIGABRT to the whole process group), so a rare hang says where it waits."""
    import signal

    env = {**os.environ, "PYTHONFAULTHANDLER": "1"}
    proc = subprocess.Popen(["sh", "-c", command], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    try:
        return proc.communicate(timeout=timeout)[1]
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGABRT)
        try:
            stderr = proc.communicate(timeout=10)[1]
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stderr = proc.communicate()[1]
        pytest.fail(f"hung for {timeout:.0f} s: {command}\n{stderr}")
