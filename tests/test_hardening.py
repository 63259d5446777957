"""Hostile or odd input (issue 15): huge numbers, other line breaks, control characters, one bad file
among good ones. Each case comes from a fuzzer finding, minimized."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kbgrules.core import check as check_module
from kbgrules.core.check import check_bytes, check_files, check_text

from .conftest import ROOT

HUGE = "9" * 5000


@pytest.mark.parametrize(("text", "line", "col", "code"), [
    (f"@game kingdomino\n@players Ann Bob\ndeal 3 17 22 {HUGE}\nAnn claim 3\n", 3, 14, "log-number"),
    (f"@game kot\n@players Ann Bob\nmarket heal tank energize\nAnn roll 1 1 {HUGE} 2 2 2\n", 4, 14, "log-number"),
    (f"@game kot\n@players Ann Bob\nAnn is hp={HUGE}\nmarket heal tank energize\nturn Ann\n", 3, 11, "log-number"),
    (f"@game kingdomino\n@players Ann Bob\ndeal 3 17 22 40\nAnn claim 3\nexpect score Ann {HUGE}\n", 5, 18,
     "log-number"),
    # a grid row: its square is refused by the grid reader, at the square
    (f"@game kingdomino\n@start position\n@players Ann Bob\nAnn kingdom\n  C W{HUGE}\n", 5, 5, "grid-cell"),
])
def test_a_huge_number_is_a_syntax_error_at_its_place(text: str, line: int, col: int, code: str) -> None:
    report = check_text("h.log", text)
    diags = [*report.input_errors, *(d for g in report.games for d in g.errors)]
    assert [(d.line, d.col, d.code) for d in diags][:1] == [(line, col, code)], [str(d) for d in diags]
    assert all(not g.violations for g in report.games)  # checking stops there: nothing follows from it
    assert report.exit_code == 2


def test_a_huge_crown_count_in_a_grid_is_refused(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from kbg_cli.app import app

    grid = tmp_path / "k.grid"
    grid.write_text(f"C W{HUGE}\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["score", str(grid)])
    assert r.exit_code == 2 and "at most 9 digits" in r.stderr and "internal" not in r.stderr


@pytest.mark.parametrize("brk", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_only_lf_crlf_and_cr_end_a_line(brk: str) -> None:
    commented = check_text("b.log", f"@game kingdomino\n@players Ann Bob\ndeal 3 17 22 40 # a{brk}of the game\n")
    assert commented.exit_code == 0, [str(d) for g in commented.games for d in g.errors]
    named = check_text("b.log", f"@game kot\n@players Ann jet{brk}fighters\n")
    (g,) = named.games
    assert len(g.players) == 2 and g.players[1] == f"jet{brk}fighters"
    for eol in ("\r\n", "\r"):
        text = f"@game kingdomino{eol}@players Ann Bob{eol}deal 3 17 22 40{eol}Ann claim 40{eol}"
        assert check_text("b.log", text).exit_code == 0


def test_a_bad_byte_is_placed_by_lines_and_characters() -> None:
    report = check_bytes("u.log", b"@game kingdomino\r@players Ann Bob\r\xc3\xa9\xc3\xa9 x\xff\n")
    (d,) = report.input_errors
    assert (d.line, d.col, d.code) == (3, 5, "not-utf8")  # two letters of two bytes each, a blank, x, then the byte


def test_control_characters_are_written_out_never_sent_to_the_terminal() -> None:
    from typer.testing import CliRunner

    from kbg_cli.app import app

    text = "@game kingdomino\n@players Ann Evil\x1b[31m\ndeal 3 17 22 40\nZed\u202e claim 9\n"
    report = check_text("e\x1b]0;x\x07.log", text)
    lines = [str(d) for g in report.games for d in (*g.errors, *g.notes)]
    assert lines and all("\x1b" not in x and "\u202e" not in x and "\x07" not in x for x in lines)
    assert "Evil\\x1b[31m" in lines[0] and "e\\x1b]0;x\\x07.log" in lines[0]
    r = CliRunner().invoke(app, ["check", "-"], input=text)
    assert "\x1b" not in r.stdout + r.stderr and "Evil\\x1b[31m" in r.stdout


def test_one_file_that_breaks_the_checker_does_not_hide_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    good = str(ROOT / "examples" / "kingdomino" / "two-players.log")
    real = check_module.iter_check_text

    def broken(name: str, text: str, *args: object, **kwargs: object) -> object:
        if name.endswith("bad.log"):
            raise RuntimeError("a bug")
        return real(name, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(check_module, "iter_check_text", broken)
    monkeypatch.delenv("KBG_DEBUG", raising=False)
    bad = ROOT / "tests" / "bad.log"
    real_read = check_module.read_text
    monkeypatch.setattr(check_module, "read_text",
                        lambda p: (p, "x", []) if p.endswith("bad.log") else real_read(p))
    reports = list(check_files([good, str(bad), good]))
    assert [r.exit_code for r in reports] == [0, 2, 0]
    (d,) = reports[1].input_errors
    assert (d.file, d.code) == (str(bad), "internal") and "RuntimeError: a bug" in d.message


@pytest.mark.parametrize(("call", "names"), [
    (lambda: __import__("kbgrules").load("kd", players=3.5), "players"),
    (lambda: __import__("kbgrules").load("kd", players=True), "players"),
    (lambda: __import__("kbgrules").load(3), "game"),
    (lambda: __import__("kbgrules").load("kd", variants=[1]), "variants"),
    (lambda: __import__("kbgrules").load("kd", rules_dirs=3), "rules_dirs"),
    (lambda: check_bytes(0, b""), "file"),  # type: ignore[arg-type]
    (lambda: check_bytes("f.log", object()), "raw"),  # type: ignore[arg-type]
    (lambda: check_text("f.log", None), "text"),  # type: ignore[arg-type]
    (lambda: __import__("kbgrules.core.check", fromlist=["x"]).check_file(3.5), "path"),
    (lambda: __import__("kbgrules.explain", fromlist=["x"]).search(True), "query"),
])
def test_library_calls_with_wrong_types_say_which_argument(call: object, names: str) -> None:
    with pytest.raises(TypeError, match=names):
        call()  # type: ignore[operator]


def test_a_string_of_rule_folders_is_one_folder(tmp_path: Path) -> None:
    import kbgrules
    from kbgrules.errors import KbgError

    with pytest.raises(KbgError) as info:
        kbgrules.load("kd", rules_dirs=str(tmp_path / "nope"))
    assert info.value.code == "no-such-directory" and "nope" in str(info.value)
    assert kbgrules.load("kd", rules_dirs=str(ROOT / "docs" / "examples" / "house-rules")).game.id == "kingdomino"


def test_rule_folders_never_read_through_a_symbolic_link(tmp_path: Path) -> None:
    import kbgrules
    from kbgrules.errors import KbgError

    secret = tmp_path / "secret.yaml"
    secret.write_text("secret_token_123: 1\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "more.yaml").write_text("secret_token_456: 1\n", encoding="utf-8")
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "link.yaml").symlink_to(secret)
    (rules / "sub").symlink_to(outside, target_is_directory=True)
    with pytest.raises(KbgError) as info:
        kbgrules.load("kd", rules_dirs=[rules])
    text = "\n".join(info.value.lines())
    assert "secret_token" not in text and text.count("error symlink") >= 1, text
    assert all(d.code == "symlink" for d in info.value.diagnostics)  # type: ignore[attr-defined]


def test_an_alias_bomb_of_long_strings_is_stopped_while_read() -> None:
    from kbgrules.core.yamlsafe import parse_bytes
    from kbgrules.errors import UnsafeYamlError

    text = ("kind: variant\ngame: kingdomino\nid: x\ntitle: &a " + "y" * 1_000_000 + "\nsummary: ["
            + ", ".join(["*a"] * 9000) + "]\n")
    with pytest.raises(UnsafeYamlError) as info:
        parse_bytes("bomb.yaml", text.encode())
    assert [d.code for d in info.value.diagnostics] == ["alias-limit"]


@pytest.mark.parametrize(("key", "value"), [("copies", 10_000_000), ("cost", 1_000_000_000)])
def test_user_rule_numbers_are_bounded(tmp_path: Path, key: str, value: int) -> None:
    import kbgrules
    from kbgrules.errors import KbgError

    card = {"name": "Big", "cost": 3, "type": "keep", "effect": "Ours.", "sources": [{"doc": "BGA", "section": "x"}],
            key: value}
    body = "\n".join(f"    {k}: {v!r}" if not isinstance(v, list) else "    sources: [{doc: BGA, section: x}]"
                     for k, v in card.items())
    (tmp_path / "cards.yaml").write_text(f"kind: cards\ngame: king-of-tokyo\ncards:\n  big:\n{body}\n",
                                         encoding="utf-8")
    with pytest.raises(KbgError) as info:
        kbgrules.load("kot", rules_dirs=[tmp_path])
    assert "greater than the maximum" in "\n".join(info.value.lines()), info.value.lines()


def test_explain_with_user_rules_builds_its_index_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kbgrules.explain import rank, store

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KBG_NO_CACHE", raising=False)
    rules = tmp_path / "rules"
    rules.mkdir()
    house = ROOT / "docs" / "examples" / "house-rules" / "big-kingdom.yaml"
    (rules / "big-kingdom.yaml").write_bytes(house.read_bytes())
    store._user_index.cache_clear()
    first = rank.search("big kingdom", rules_dirs=[rules])
    cached = list((tmp_path / "cache" / "kbg").glob("explain-*.json"))
    assert len(cached) == 1
    store._user_index.cache_clear()
    built = 0
    real = __import__("kbgrules.explain.index", fromlist=["x"]).build_index

    def counting(*a: object, **k: object) -> object:
        nonlocal built
        built += 1
        return real(*a, **k)

    monkeypatch.setattr("kbgrules.explain.index.build_index", counting)
    again = rank.search("big kingdom", rules_dirs=[rules])
    assert built == 0 and again.best.id == first.best.id  # read back, not rebuilt
    (rules / "big-kingdom.yaml").write_bytes(house.read_bytes() + b"\n# changed\n")
    store._user_index.cache_clear()
    rank.search("big kingdom", rules_dirs=[rules])
    assert built == 1  # a changed file: a new digest, a new build


def test_a_bug_in_one_game_is_that_games_error_and_the_others_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error boundary per game: an unexpected exception in the check of one game is an `internal` error
    at that game's first line; the file's other games are checked as usual."""
    from kbgrules.core import registry

    real = registry.engine_for

    class Buggy:  # the game's engine, with a bug in the check of a file's first game
        def __init__(self, engine: Any) -> None:
            self.engine = engine

        def __getattr__(self, name: str) -> Any:
            return getattr(self.engine, name)

        def check(self, file: str, g: Any, rs: Any, report: Any) -> Any:
            if report.index == 1:
                raise KeyError("boom")
            return self.engine.check(file, g, rs, report)

    monkeypatch.setattr(registry, "engine_for", lambda data: Buggy(real(data)))  # patched where the core reads it
    monkeypatch.delenv("KBG_DEBUG", raising=False)
    one = "@game kot\n@players Ann Bob\nfirst Ann\nmarket heal tank energize\nAnn roll 1 1 1 s s s\nAnn end\n"
    report = check_text("b.log", "# two games\n" + one + "\n" + one.replace("Ann end", "Bob end"))
    first, second = report.games
    assert [(e.line, e.code) for e in first.errors] == [(2, "internal")] and "KeyError" in first.errors[0].message
    assert [(v.line, v.code) for v in second.violations] == [(14, "kot-wrong-monster")]
    assert report.exit_code == 2
    monkeypatch.setenv("KBG_DEBUG", "1")
    with pytest.raises(KeyError):
        check_text("b.log", one)


# the wrong values of issue 25's fuzzing: each where a parameter wants something else
WRONG: tuple[Any, ...] = (None, True, 3.5, {}, 2**70, b"kd", Path("/nonexistent-kbg-folder"), ["a", 3])
VALID = {"check_file": ("x.log",), "check_files": (["x.log"],), "games": (), "iter_check_file": ("x.log",),
         "iter_check_files": (["x.log"],), "load": ("kd",), "new_game": ("kd", ["Ann", "Bob"]),
         "read_games": ("@game kd\n",), "setup_sheet": ()}


def _public_calls() -> list[tuple[str, int, Any]]:
    import inspect

    import kbgrules

    out = []
    for name in sorted(VALID):
        params = list(inspect.signature(getattr(kbgrules, name)).parameters)
        out += [(name, i, bad) for i in range(len(params)) for bad in WRONG]
    return out


@pytest.mark.parametrize(("name", "at", "bad"), _public_calls())
def test_the_public_functions_answer_wrong_types_with_type_or_value_errors(name: str, at: int, bad: Any) -> None:
    """Every argument of kbgrules' top-level functions, given a value of the wrong kind, gives TypeError,
    ValueError or KbgError (naming the parameter), never AttributeError, KeyError, IndexError,
    OverflowError or a walk of the disk."""
    import kbgrules

    args = list(VALID[name]) if name != "setup_sheet" else [kbgrules.load("kd", players=2)]
    while len(args) <= at:
        args.append(())
    args[at] = bad
    try:
        result = getattr(kbgrules, name)(*args)
        if hasattr(result, "__next__"):
            list(result)
    except (TypeError, ValueError, kbgrules.KbgError):
        pass


def test_the_errors_name_the_parameter() -> None:
    import kbgrules
    from kbgrules.kingdomino import kingdom
    from kbgrules.kingdomino.kingdom import cell_name, parse_cell
    from kbgrules.kingdomino.positions import read_grid

    for call, said in [
        (lambda: kbgrules.games(True), "rules_dirs"), (lambda: kbgrules.setup_sheet("kd"), "rs"),
        (lambda: kbgrules.load("kot").card(3.5), "key"), (lambda: kbgrules.load("kd").terrain({}), "key"),
        (lambda: kbgrules.read_games(None), "source"), (lambda: kbgrules.read_games("@game kd\n", 3.5), "rules_dirs"),
        (lambda: kbgrules.new_game("kot", 0), "players"), (lambda: parse_cell(2**70, 7), "text"),
        (lambda: cell_name([], 7), "cell"), (lambda: cell_name({}, 7), "cell"),
        (lambda: cell_name((1, 2), 2**70), "size"), (lambda: read_grid("g", "C W\n", "kd"), "rs"),
    ]:
        with pytest.raises((TypeError, ValueError)) as exc:
            call()
        if said in ("text", "cell", "size") and kingdom.__file__.endswith(".so"):
            continue  # compiled (docs/scale.md): mypyc checks the signature's types first, naming no parameter
        assert str(exc.value).startswith(said), (said, exc.value)


def test_a_string_folder_is_one_folder_and_a_long_name_is_no_such_directory(tmp_path: Path) -> None:
    import kbgrules

    (tmp_path / "r").mkdir()
    assert [g.id for g in kbgrules.games(str(tmp_path / "r"))] == [g.id for g in kbgrules.games()]
    with pytest.raises(kbgrules.DataError) as exc:
        kbgrules.load("kd", rules_dirs="x" * 300)
    assert exc.value.diagnostics[0].code == "no-such-directory"
