"""Checking many files: in input order on worker processes, and on a Dask cluster when dask is installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from kbgrules.core.check import check_file, check_files

ROOT = Path(__file__).resolve().parent.parent
LOGS = sorted(str(p) for p in (ROOT / "examples").rglob("*.log"))


def _json(reports: object) -> list[dict[str, object]]:
    return [r.to_json() for r in reports]  # type: ignore[attr-defined]


def test_check_files_in_order_on_workers() -> None:
    one = _json(check_files(LOGS))
    assert _json(check_files(LOGS, jobs=2)) == one
    assert [d["games"][0]["file"] for d in one] == LOGS  # type: ignore[index]
    assert all(g.timeline_builder is None for r in check_files(LOGS[:3]) for g in r.games)
    assert check_file(LOGS[0], timeline=True).games[0].timeline_builder is not None


@pytest.mark.parametrize("game", ["king-of-tokyo", "kingdomino"])
def test_a_checked_game_leaves_no_cycles(game: str) -> None:
    """Reference counting alone frees a checked game (its report, state and timeline builder form no
    cycle), so the garbage collector has nothing to find: the engines run without its pauses."""
    import gc

    from kbgrules.core.check import check_text
    from kbgrules.king_of_tokyo.simulate import simulate_king_of_tokyo
    from kbgrules.kingdomino.simulate import simulate_kingdomino

    log = simulate_king_of_tokyo(4, 3) if game == "king-of-tokyo" else simulate_kingdomino(4, 3)
    check_text("warm.log", log)
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        report = check_text("a.log", log)
        assert report.games[0].valid and report.games[0].show_timeline()
        del report
        gc.collect()
        assert gc.garbage == []
    finally:
        gc.garbage.clear()
        gc.set_debug(0)
        gc.enable()


def test_check_file_unreadable(tmp_path: Path) -> None:
    report = check_file(str(tmp_path / "nope.log"))
    assert report.exit_code == 2 and report.input_errors[0].code == "unreadable"


def test_dask_cluster_equals_single_process() -> None:
    pytest.importorskip("dask.bag", reason="dask is not installed: pip install 'kbgrules[dask]'")
    distributed = pytest.importorskip("distributed", reason="distributed is not installed: "
                                      "pip install 'kbgrules[dask]'")
    from kbgrules.dask import check_files as dask_check_files

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        bag = dask_check_files(str(ROOT / "examples" / "**" / "*.log"))
        got = bag.map(lambda r: r.to_json()).compute(scheduler=client.get)
    assert got == _json(check_files(LOGS))


def test_kbg_check_dask_option(tmp_path: Path) -> None:
    pytest.importorskip("dask.bag", reason="dask is not installed: pip install 'kbgrules[dask]'")
    distributed = pytest.importorskip("distributed", reason="distributed is not installed")
    from typer.testing import CliRunner

    from kbg_cli.app import app

    examples = str(ROOT / "examples" / "kingdomino")
    here = CliRunner().invoke(app, ["check", "--json", examples])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        there = CliRunner().invoke(app, ["check", "--json", "--dask", cluster.scheduler_address, examples])
    assert (there.exit_code, there.stdout) == (here.exit_code, here.stdout)
    gone = CliRunner().invoke(app, ["check", "--dask", "nosuch://x", examples])
    assert gone.exit_code == 2 and "dask-unreachable" in gone.stderr and "Traceback" not in gone.stderr


def test_kbg_check_dask_address_that_is_not_dask(tmp_path: Path) -> None:
    """A server that answers with something else (here a frame length of 2**62 bytes) is unreachable, not a bug."""
    pytest.importorskip("distributed", reason="distributed is not installed")
    import socket
    import threading

    from typer.testing import CliRunner

    from kbg_cli.app import app

    server = socket.create_server(("127.0.0.1", 0))

    def answer() -> None:
        for _ in range(3):  # the client may try more than once
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall((2**62).to_bytes(8, "little") * 4)

    threading.Thread(target=answer, daemon=True).start()
    try:
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        r = CliRunner().invoke(app, ["check", "--dask", address, str(ROOT / "examples" / "kingdomino")])
    finally:
        server.close()
    assert r.exit_code == 2 and "error dask-unreachable" in r.stderr and "internal" not in r.stderr, r.stderr


def test_json_lines_follow_the_documented_schema() -> None:
    import json

    from jsonschema import Draft202012Validator
    from typer.testing import CliRunner

    from kbg_cli.app import app

    schema = json.loads((ROOT / "docs" / "check-output.schema.json").read_text())
    result = CliRunner().invoke(app, ["check", "--json", "-j", "2", str(ROOT / "examples")])
    lines = result.stdout.splitlines()
    assert result.exit_code == 2 and len(lines) == len(LOGS)  # godzilla.log needs its --rules DIR
    for line in lines:
        Draft202012Validator(schema).validate(json.loads(line))


def test_stopping_early_does_not_wait_for_the_workers() -> None:
    reports = check_files(LOGS * 20, jobs=2)
    assert next(reports).games
    reports.close()  # cancels what is queued; returns without checking the other files


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    import kbg_cli.play as play
    from kbg_cli.app import app

    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(play, "parts", interrupted)
    result = CliRunner().invoke(app, ["check", LOGS[0]])
    assert (result.exit_code, result.stderr) == (130, "kbg: aborted\n")


def test_loads_with_user_rules_are_reused_until_the_files_change(tmp_path: Path) -> None:
    import shutil

    import kbgrules
    from kbgrules.errors import KbgError

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "examples" / "king-of-tokyo" / "godzilla-rules", rules)
    first = kbgrules.load("kot", edition="godzilla", players=4, rules_dirs=[rules])
    assert kbgrules.load("kot", edition="godzilla", players=4, rules_dirs=[str(rules)]) is first
    victim = sorted(rules.rglob("*.yaml"))[0]
    victim.write_text(victim.read_text() + "# edited\n")
    second = kbgrules.load("kot", edition="godzilla", players=4, rules_dirs=[rules])
    assert second is not first
    victim.write_text("kind: [unclosed\n")
    for _ in range(2):  # a failed load is not cached: its error comes back each time
        with pytest.raises(KbgError):
            kbgrules.load("kot", edition="godzilla", players=4, rules_dirs=[rules])


def test_iter_games_gives_each_game_with_its_own_problems() -> None:
    from kbgrules.core.logfile import iter_games, split_games

    text = ("  stray indented line\n"
            "@game kingdomino\n@players Ann Bob\n@bogus_tag x\ndeal 1 2 3 4\n"
            "@game kingdomino\n@players Ann Bob\nAnn claim 1\n   \n@kbg 9\nBob claim 2\n")
    parts = list(iter_games("t.log", text))
    assert [(g.index if g else None, [(d.line, d.code) for d in found]) for g, found in parts] == [
        (None, [(1, "log-syntax")]),
        (1, [(4, "log-header")]),
        (2, []),
        (3, [(10, "log-header"), (10, "log-header"), (10, "log-header")]),  # @kbg 9; no @game, no @players
    ]
    assert [len(g.events) for g, _ in parts if g] == [1, 1, 1]
    games, errors = split_games("t.log", text)
    assert [g.index for g in games] == [1, 2, 3] and len(errors) == 5
    assert [d.code for _, found in iter_games("e.log", "# nothing\n") for d in found] == ["log-empty"]
    headless = [(g is not None, [d.code for d in f]) for g, f in iter_games("h.log", "Ann claim 1\n")]
    assert headless == [(True, ["log-header", "log-header", "log-header"])]


def test_dask_missing_is_a_kbg_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import kbgrules.dask as kd
    from kbgrules.errors import KbgError

    def no_module(name: str) -> object:
        raise ImportError(name)

    monkeypatch.setattr(kd.importlib, "import_module", no_module)
    with pytest.raises(KbgError) as info:
        kd.check_files(LOGS)
    assert info.value.code == "dask-missing"
    with pytest.raises(KbgError):
        next(kd.iter_reports(LOGS, "tcp://127.0.0.1:8786"))


def test_rules_built_once_for_every_player_count() -> None:
    """A mixed corpus builds each ruleset once: a load for a player count shares the rules of the load
    without one, and still refuses a count the game or a variant does not allow."""
    import kbgrules
    from kbgrules.errors import PlayerCountError

    two, four = kbgrules.load("kingdomino", players=2), kbgrules.load("kingdomino", players=4)
    assert (two.players, four.players, two.setup.players, four.setup.players) == (2, 4, 2, 4)
    assert two.data is four.data and two.rules is four.rules and two.dominoes is four.dominoes
    kot = kbgrules.load("king-of-tokyo", edition="dark", players=5)
    assert kot.derived is kbgrules.load("king-of-tokyo", edition="dark", players=3).derived
    with pytest.raises(PlayerCountError):
        kbgrules.load("kingdomino", players=5)
    with pytest.raises(PlayerCountError):
        kbgrules.load("kingdomino", variants=["mighty-duel"], players=3)


_TINY = "@game kingdomino\n@players A B\ndeal 18 5 25 14\nA claim 5\n"


@pytest.mark.parametrize("mode", [{"as_json": True}, {"as_json": False}, {"as_json": False, "summary": True}],
                         ids=["json", "text", "summary"])
def test_kbg_check_memory_is_flat_in_the_number_of_games(tmp_path: Path, mode: dict[str, bool]) -> None:
    """Issue 15, item 7: the games of one file are checked, written and dropped one at a time, so the
    peak memory of `kbg check` grows only with the input's own size (its text, and two passing copies
    while it is searched once for odd characters: about 3 bytes per byte of log; its lines are read one
    at a time), never with the reports of the games already checked (before: 4 KB a game in text, more
    in JSON; a 16 MiB log of tiny games needed ~5 GB)."""
    import contextlib
    import os
    import tracemalloc

    from kbg_cli.play import run_check

    def peak(games: int) -> int:
        path = tmp_path / f"{games}.log"
        path.write_text(_TINY * games)
        with open(os.devnull, "w") as null, contextlib.redirect_stdout(null), contextlib.redirect_stderr(null):
            run_check([str(path)], (), **mode)  # warm: rulesets built, modules imported
            tracemalloc.start()
            try:
                assert run_check([str(path)], (), **mode) == 0
                return tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()

    small, big = peak(150), peak(1500)
    assert big - small < 4 * len(_TINY) * 1350, (small, big)


def test_parts_of_a_file_merge_to_its_report() -> None:
    from kbgrules.core.check import check_text, iter_check_text

    dynasty = (ROOT / "examples" / "kingdomino" / "dynasty.log").read_text()
    text = "# before\nstray\n" + dynasty + _TINY + dynasty.replace("@kbg 1\n", "")
    parts = list(iter_check_text("d.log", text))
    assert all(len(p.games) <= 1 for p in parts) and len(parts) > 7
    assert [m["games"] for p in parts for m in p.matches] == [[2, 3, 4], [6, 7, 8]]
    whole = check_text("d.log", text)
    merged = __import__("kbgrules.core.report", fromlist=["x"]).CheckReport()
    for p in parts:
        merged.extend(p)
    assert merged.to_json() == whole.to_json() and whole.games[0].errors


def test_a_big_file_is_checked_here_in_parts_between_worker_results(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from kbgrules.core import check as check_module

    big = tmp_path / "big.log"
    big.write_text(_TINY * 5)
    monkeypatch.setattr(check_module, "STREAMED_BYTES", 200)
    paths = [LOGS[0], str(big), LOGS[1]]
    got = list(check_module.iter_check_files(paths, jobs=2))
    assert [i for i, _ in got] == [0, 1, 1, 1, 1, 1, 2]
    assert _json(check_files(paths, jobs=2)) == _json(check_files(paths))


def test_json_stream_writes_what_json_dumps_writes(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from kbg_cli.render import JsonStream

    for whole in [{"kbg_json": 1, "games": [{"a": [1, {"b": "é\n"}]}, {}], "errors": [], "matches": [{"x": 1}]},
                  {"kbg_json": 1, "games": [], "errors": [{"line": 2}]},
                  {"games": [3, 4]}, {"head": None, "games": []}]:
        for indent in (2, None):
            stream = JsonStream({**whole, "games": []}, "games", indent)
            for item in whole["games"]:  # type: ignore[attr-defined]
                stream.item(item)
            stream.close(whole)
            assert capsys.readouterr().out == json.dumps(whole, indent=indent, ensure_ascii=False) + "\n"


def test_a_tag_no_game_knows_is_reported_once_the_game_is_known() -> None:
    """``@bogus`` could be a game's own tag: reading the log keeps it, checking the game refuses it."""
    from kbgrules.core.check import check_text
    from kbgrules.core.logfile import iter_games

    text = "@game kingdomino\n@players Ann Bob\n@bogus x\n@monsters a b\ndeal 1 2 3 4\n"
    assert [found for _, found in iter_games("t.log", text)] == [[]]
    [g] = check_text("t.log", text).games
    assert [(d.line, d.code) for d in g.errors] == [(3, "log-header")]
    assert "@bogus" in g.errors[0].message and "@monsters" not in g.errors[0].message
