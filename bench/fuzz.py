"""A seeded, mutation-based fuzzer of kbg's input surfaces (issues 15 and 25): game logs of both games,
positions, kingdom grids, user rule files and ``kbg explain`` queries, fed to the library in-process,
logs with CR or CRLF line ends drawn as the HTML report, the public functions given arguments of the
wrong kind (only TypeError, ValueError or KbgError may come out), and argument lists fed to the ``kbg``
command (in-process too, through its console-script entry).

    python bench/fuzz.py [--n 10000] [--seed 1] [--cli-only]

Every input must give a report or a ``KbgError``: no other exception, no diagnostic that points past
the input (a line after the last, a column after the end of its line), no control character in a
message, no input slower than 5 s (30 s for `kbg site` and for a command under a new rule folder, which
builds explain's index for it once), no process bigger than 500 MiB. Every argument list must end
with exit code 0, 1 or 2, with no traceback, no ``error internal`` and no control character on
stderr. Findings are printed (seed, case, input) and the exit code is 1; ``tests/test_fuzz.py`` runs
a small number on every change, and each finding becomes a regression test.

The argument lists are drawn from the commands and options typer declares (so new ones are fuzzed
too), with values from the example files (copied to a temporary folder, the working directory while
they run), missing and odd paths, and odd words. Left out: ``--install-completion`` (it edits the
shell's start-up files) and ``--dask`` (it waits for a network answer).
"""

from __future__ import annotations

import argparse
import errno
import io
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "cli")]

ODD = ["\x00", "\x0b", "\x0c", "\x1b[31m", "\x1b]0;pwned\x07", "\x9b2J", "\x85", "\u2028", "\u202e", "\t", "\r",
       "\r\n", " ", "#", ":", ",",
       "@", "é", "한", "9" * 12, "9" * 5000, "-1", "0", "99", "e9", "z0", "W4", "C", ".", "?", "keep", "end"]


def seeds() -> list[tuple[str, str]]:
    """(kind, text) of every example log and grid."""
    out = [("log", p.read_text(encoding="utf-8")) for p in sorted((ROOT / "examples").glob("*/*.log"))]
    out += [("grid", p.read_text(encoding="utf-8")) for p in sorted((ROOT / "examples").glob("*/kingdoms/*.grid"))]
    out += [("rules", p.read_text(encoding="utf-8")) for p in sorted((ROOT / "docs" / "examples").glob("*/*.yaml"))]
    return out


def mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        n = rng.randrange(len(lines))
        words = lines[n].split(" ")
        op = rng.randrange(7)
        if op == 0 and words:  # replace a word
            words[rng.randrange(len(words))] = rng.choice(ODD)
        elif op == 1:  # insert a word
            words.insert(rng.randint(0, len(words)), rng.choice(ODD))
        elif op == 2 and len(lines) > 1:  # drop a line
            del lines[n]
            continue
        elif op == 3:  # repeat a line
            lines.insert(n, lines[n])
        elif op == 4 and words:  # swap two words
            i, j = rng.randrange(len(words)), rng.randrange(len(words))
            words[i], words[j] = words[j], words[i]
        elif op == 5:  # insert a character inside a word
            w = lines[n]
            at = rng.randint(0, len(w))
            lines[n] = w[:at] + rng.choice(ODD) + w[at:]
            continue
        else:  # swap two lines
            m = rng.randrange(len(lines))
            lines[n], lines[m] = lines[m], lines[n]
            continue
        lines[n] = " ".join(words)
    return "\n".join(lines)


def _line_lengths(text: str) -> list[int]:
    from kbgrules.core.logfile import lines

    return [len(x) for x in lines(text)] or [0]


def check_positions(text: str, diags: list[object]) -> str | None:
    lengths = _line_lengths(text)
    for d in diags:
        line, col = getattr(d, "line", 1), getattr(d, "col", 1)
        shown = str(d)
        if any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 for c in shown):
            return f"control character in {shown!r}"
        if line < 1 or line > len(lengths) + 1:
            return f"line {line} past the input ({len(lengths)} lines): {shown}"
        if line <= len(lengths) and not 1 <= col <= lengths[line - 1] + 1:
            return f"column {col} past line {line} ({lengths[line - 1]} characters): {shown}"
    return None


def run_log(text: str) -> str | None:
    from kbgrules.core.check import check_text

    report = check_text("f.log", text, timeline=False)
    diags: list[object] = [*report.input_errors]
    for g in report.games:
        diags += [*g.errors, *g.violations, *g.notes]
    return check_positions(text, diags)


def run_grid(text: str) -> str | None:
    import kbgrules
    from kbgrules.errors import KbgError
    from kbgrules.kingdomino.kingdom import score
    from kbgrules.kingdomino.positions import read_grid

    rs = kbgrules.load("kingdomino")
    try:
        kingdom, warnings = read_grid("g.grid", text, rs)
        score(kingdom, rs)
    except KbgError as exc:
        return check_positions(text, list(getattr(exc, "diagnostics", [])))
    return check_positions(text, list(warnings))


def run_rules(text: str) -> str | None:
    """A user rule file (a house variant, mutated), loaded with ``--rules``: a ruleset or a DataError."""
    import tempfile

    import kbgrules
    from kbgrules.errors import KbgError

    with tempfile.TemporaryDirectory() as d:
        Path(d, "house.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
        game = "king-of-tokyo" if "king-of-tokyo" in text else "kingdomino"
        try:
            kbgrules.load(game, rules_dirs=[d])
        except KbgError as exc:
            return check_positions(text, list(getattr(exc, "diagnostics", [])))
    return None


def run_query(text: str) -> str | None:
    from kbgrules.explain import search

    search(text[:300])  # a query it cannot read is a QueryError, a KbgError: fine
    return None


# values of the wrong kind for the library's parameters (issue 25: AttributeError, KeyError, a walk of the disk)
WRONG: list[Any] = [None, True, 3.5, {}, 2 ** 70, -1, b"kd", ["a", 3], Path("/nonexistent-kbg"), "", "\x00",
                    "x" * 300, object()]
KD_LOG = ROOT / "examples" / "kingdomino" / "two-players.log"
KOT_LOG = ROOT / "examples" / "king-of-tokyo" / "two-players.log"


def _started(game: Any) -> Any:
    """The game once chance has set it up: a player's move is next."""
    rng = random.Random(1)
    while game.is_chance():
        game.push(game.sample_chance(rng))
    return game


def _report(log: Path) -> Any:
    from kbgrules.core.check import check_text

    return check_text(log.name, log.read_text(encoding="utf-8"), timeline=True).games[0]


def public_calls() -> dict[str, tuple[Callable[[], Callable[..., Any]], list[Any]]]:
    """Every function and method docs/library.md shows, as label: (a factory of the callable, arguments
    that work). A factory gives a fresh object each time, so that a wrong call cannot spoil the next."""
    import kbgrules
    from kbgrules.core.check import check_bytes, check_text
    from kbgrules.explain import search
    from kbgrules.kingdomino.kingdom import Kingdom, cell_name, parse_cell, square
    from kbgrules.kingdomino.positions import read_grid

    def kd() -> Any:
        return _started(kbgrules.new_game("kingdomino", ["Ann", "Bob"]))

    def kot() -> Any:
        return _started(kbgrules.new_game("king-of-tokyo", ["Ann", "Bob"]))

    def first(game: Any) -> Any:
        return game.legal_moves()[0]

    kd_rs, kot_rs = kbgrules.load("kingdomino"), kbgrules.load("king-of-tokyo")
    kd_text = KD_LOG.read_text(encoding="utf-8")
    kd_line, kot_line = kd().move_text(first(kd())), kot().move_text(first(kot()))
    kd_timeline, kot_timeline = _report(KD_LOG).show_timeline(), _report(KOT_LOG).show_timeline()
    return {
        "load": (lambda: kbgrules.load, ["kingdomino", None, (), 2, ()]),
        "games": (lambda: kbgrules.games, [()]),
        "new_game": (lambda: kbgrules.new_game, ["kingdomino", ["Ann", "Bob"]]),
        "read_games": (lambda: kbgrules.read_games, [kd_text, ()]),
        "setup_sheet": (lambda: kbgrules.setup_sheet, [kbgrules.load("kingdomino", players=2)]),
        "check_file": (lambda: kbgrules.check_file, [str(KD_LOG), ()]),
        "check_files": (lambda: kbgrules.check_files, [[str(KD_LOG)], (), 1]),
        "iter_check_file": (lambda: kbgrules.iter_check_file, [str(KD_LOG), ()]),
        "iter_check_files": (lambda: kbgrules.iter_check_files, [[str(KD_LOG)], (), 1]),
        "check_text": (lambda: check_text, ["a.log", kd_text, ()]),
        "check_bytes": (lambda: check_bytes, ["a.log", kd_text.encode(), ()]),
        "explain.search": (lambda: search, ["can I heal in Tokyo?"]),
        "read_grid": (lambda: read_grid, ["g.grid", "C\n", kd_rs]),
        "parse_cell": (lambda: parse_cell, ["e5", 5]),
        "cell_name": (lambda: cell_name, [(0, 0), 5]),
        "square": (lambda: square, [kd_rs, "W1"]),
        "Kingdom.for_rules": (lambda: Kingdom.for_rules, [kd_rs]),
        "Kingdom.legal_placements": (lambda: Kingdom.for_rules(kd_rs).legal_placements, [kd_rs.domino(1)]),
        "Kingdom.placement_problems": (lambda: Kingdom.for_rules(kd_rs).placement_problems,
                                       [kd_rs.domino(1), (1, 0), (2, 0)]),
        "Ruleset.rule": (lambda: kd_rs.rule, ["kd.setup.players"]),
        "Ruleset.has_variant": (lambda: kd_rs.has_variant, ["dynasty"]),
        "Ruleset.domino": (lambda: kd_rs.domino, [1]),
        "Ruleset.terrain": (lambda: kd_rs.terrain, ["wheat"]),
        "Ruleset.card": (lambda: kot_rs.card, ["heal"]),
        "kd.push": (lambda: kd().push, [first(kd())]),
        "kd.push_text": (lambda: kd().push_text, [kd_line]),
        "kd.is_legal": (lambda: kd().is_legal, [first(kd())]),
        "kd.move_text": (lambda: kd().move_text, [first(kd())]),
        "kd.parse_move": (lambda: kd().parse_move, [kd_line]),
        "kd.kingdom": (lambda: kd().kingdom, ["Ann"]),
        "kd.sample_chance": (lambda: kbgrules.new_game("kingdomino", ["Ann", "Bob"]).sample_chance,
                             [random.Random(2)]),
        "kd.placement_problems": (lambda: kd().placement_problems, ["Ann", 1, "e5", "f5"]),
        "kot.push": (lambda: kot().push, [first(kot())]),
        "kot.push_text": (lambda: kot().push_text, [kot_line]),
        "kot.is_legal": (lambda: kot().is_legal, [first(kot())]),
        "kot.move_text": (lambda: kot().move_text, [first(kot())]),
        "kot.parse_move": (lambda: kot().parse_move, [kot_line]),
        "kot.sample_chance": (lambda: kbgrules.new_game("king-of-tokyo", ["Ann", "Bob"]).sample_chance,
                              [random.Random(2)]),
        "kd.result.summary": (lambda: _report(KD_LOG).result.summary, [False]),
        "kd.result.progress": (lambda: _report(KD_LOG).result.progress, [kd_timeline]),
        "kd.result.charts": (lambda: _report(KD_LOG).result.charts, [kd_timeline]),
        "kot.result.progress": (lambda: _report(KOT_LOG).result.progress, [kot_timeline]),
        "kot.result.charts": (lambda: _report(KOT_LOG).result.charts, [kot_timeline]),
    }


def wrong_call(label: str, place: int, wrong: Any, calls: dict[str, Any]) -> str | None:
    """``calls[label]`` with ``wrong`` in argument ``place``: None if it answers, or raises a KbgError, a
    ValueError, or a TypeError that names the parameter; else what it did."""
    import inspect

    from kbgrules.errors import KbgError

    factory, good = calls[label]
    fn = factory()
    name = [p.name for p in inspect.signature(fn).parameters.values()][place]
    args = list(good)
    args[place] = wrong
    try:
        result = fn(*args)
        if hasattr(result, "__next__"):
            list(result)
    except (KbgError, ValueError):
        pass
    except TypeError as exc:
        # the compiled build (docs/scale.md) checks a signature's types itself first, naming no parameter
        if name not in str(exc) and " object expected; got " not in str(exc):
            return f"{label}({name}={wrong!r:.40}): a TypeError that does not name {name}: {exc}"
    except Exception as exc:
        return f"{label}({name}={wrong!r:.40}) raised {type(exc).__name__}: {exc}"
    return None


_CALLS: dict[str, Any] = {}


def api_case(rng: random.Random) -> Callable[[], str | None]:
    """A public call with one argument of the wrong kind."""
    if not _CALLS:
        _CALLS.update(public_calls())
    label = rng.choice(sorted(_CALLS))
    place = rng.randrange(len(_CALLS[label][1]))
    wrong = rng.choice(WRONG)
    return lambda: wrong_call(label, place, wrong, _CALLS)


def run_html(text: str) -> str | None:
    """A log with CR or CRLF line ends, drawn as the HTML report (its size caps count such lines too)."""
    import tempfile

    from kbg_cli.web.report import page

    with tempfile.TemporaryDirectory() as d:
        Path(d, "f.log").write_bytes(text.encode("utf-8", "surrogatepass"))
        page([str(Path(d, "f.log"))], ())
    return None


_SKIPPED_OPTIONS = {"--install-completion", "--dask"}
_PATHS = ["two-players.log", "dynasty.log", "kot.log", "corner.grid", "logs", "empty", "missing.log", "-", "",
          "binary.log", "/dev/null", "/dev/full", "out.log", "logs/../two-players.log", ".", "bad\nname.log"]


def _workdir() -> str:
    """A folder with copies of the example logs and grids (and a few odd files), kept for the run."""
    import shutil
    import tempfile

    d = Path(tempfile.mkdtemp(prefix="kbg-fuzz-"))
    ex = ROOT / "examples"
    shutil.copy(ex / "kingdomino" / "two-players.log", d / "two-players.log")
    shutil.copy(ex / "kingdomino" / "dynasty.log", d / "dynasty.log")
    shutil.copy(sorted((ex / "king-of-tokyo").glob("*.log"))[0], d / "kot.log")
    shutil.copy(sorted((ex / "kingdomino" / "kingdoms").glob("*.grid"))[0], d / "corner.grid")
    shutil.copytree(ex / "king-of-tokyo", d / "logs", ignore=shutil.ignore_patterns("*.md"))
    (d / "empty").mkdir()
    (d / "binary.log").write_bytes(bytes(range(256)))
    return str(d)


def argv_case(rng: random.Random) -> list[str]:
    """An argument list for ``kbg``: a command (or an odd word), some of its options with values that
    fit or not, some arguments."""
    import typer

    from kbg_cli.app import app

    group: Any = typer.main.get_command(app)  # a click Group (typer may vendor its own click)

    def options(params: list[Any]) -> list[str]:
        out: list[str] = []
        for p in params:
            if p.param_type_name != "option" or rng.random() < 0.6 or _SKIPPED_OPTIONS & set(p.opts):
                continue
            out.append(rng.choice(p.opts))
            if not p.is_flag:
                out.append(value(p))
        return out

    def value(p: Any) -> str:
        r = rng.random()
        if r < 0.3 and p.type.name.startswith("integer"):
            return str(rng.choice([0, 1, 2, 3, 4, 5, -1, 99, 10 ** 9, 10 ** 30]))
        if r < 0.6:
            return rng.choice(["kingdomino", "king-of-tokyo", "kd", "kot", "first", "second", "2016", "2011",
                               "dark", "dynasty", "harmony", "middle-kingdom", "mighty-duel", "two-player-energy",
                               "yield", "cards", "setup", "en", "ko", "fr", "de", "xx", "bash", "zsh"])
        if r < 0.8:
            return rng.choice(_PATHS)
        return rng.choice(ODD)

    argv: list[str] = options(list(group.params))
    if rng.random() < 0.05:
        argv.append(rng.choice([*ODD, "--help", "-h", "help"]))
    else:
        name = rng.choice(sorted(group.commands))
        argv.append(name)
        cmd = group.commands[name]
        argv += options(list(cmd.params))
        for p in cmd.params:
            if p.param_type_name == "argument":
                count = rng.choice([0, 1, 1, 1, 2]) if p.nargs == -1 else (0 if rng.random() < 0.1 else 1)
                argv += [value(p) for _ in range(count)]
        if rng.random() < 0.1:
            argv.insert(rng.randint(0, len(argv)), rng.choice([*ODD, "--help", "--json", "--", "-x"]))
    return argv


class _Full(io.StringIO):
    """A stdout that fails as a full disk does (``> /dev/full``)."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


def _controls(text: str) -> list[str]:
    """The C0 and C1 control characters in ``text`` but the line feed (issue 25: escapes from a log or a
    rule file reached the terminal)."""
    return [c for c in text if (ord(c) < 32 and c != "\n") or 0x7f <= ord(c) < 0xa0]


def run_cli(argv: list[str], workdir: str, full: bool = False) -> str | None:
    """``kbg ARGV`` in ``workdir``, its output captured (or, with ``full``, written to a stdout that
    fails): exit 0, 1 or 2, no traceback, no internal error, no control character on stdout or stderr."""
    import contextlib
    import os
    import stat

    from kbg_cli.entry import main

    out, err = _Full() if full else io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(b"@game kingdomino\n@players A B\ndeal 3 17 22 40\n"))
    here, real_stdin = os.getcwd(), sys.stdin
    os.chdir(workdir)
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code: object = main(argv)
            except SystemExit as exc:
                code = exc.code
    finally:
        os.chdir(here)
        sys.stdin = real_stdin
    shown = err.getvalue()
    if not stat.S_ISCHR(os.stat(os.devnull).st_mode):  # an output path of /dev/null put a file in its place
        return f"{os.devnull} is no longer a device"
    if code not in (0, 1, 2, None):
        return f"exit code {code!r}; stderr: {shown[-300:]!r}"
    if "Traceback" in shown or "error internal" in shown:
        return f"stderr: {shown[-300:]!r}"
    for stream, text in (("stderr", shown), ("stdout", "" if full else out.getvalue())):
        bad = _controls(text)
        if bad:
            at = text.index(bad[0])
            return f"control character {bad[0]!r} on {stream}: {text[max(0, at - 150):at + 150]!r}"
    return None


def rules_argv(rng: random.Random, game: str) -> list[str]:
    """A command that shows what a rule file says: its rules, their explanations, a game checked and
    drawn under them, a set-up sheet."""
    log = "kot.log" if game == "king-of-tokyo" else "two-players.log"
    return rng.choice([["explain", rng.choice(["yield", "setup", "score", "variant", "heal", "kingdom"])],
                       ["show", log], ["check", log], ["rules", game], ["rules", game, "variants"],
                       ["setup", game, "--players", "2"], ["list"], ["site", "site-out"]])


def run_rules_cli(text: str, argv: list[str], workdir: str) -> str | None:
    """``kbg --rules DIR ARGV`` with a (mutated) user rule file in DIR: the same demands as
    :func:`run_cli`; what the file says reaches the output only escaped."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        Path(d, "house.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
        return run_cli(["--rules", d, *argv], workdir)


# a command under a new rule folder may build explain's index for it first (seconds, once per folder);
# `kbg site` writes every page of the site
SLOW_LIMIT = 30


def cases(n: int, seed: int, cli_share: float = 0.1) -> Iterator[tuple[int, str, str, Callable[[str], str | None]]]:
    rng = random.Random(seed)
    base = seeds()
    workdir = _workdir() if cli_share else ""
    if cli_share:  # with a plug-in game installed, explain's first answer builds its index once (seconds)
        from kbgrules.explain import search

        search("yield")
    for i in range(n):
        if rng.random() < cli_share:
            argv = argv_case(rng)
            full = rng.random() < 0.1  # a stdout that fails, as `> /dev/full` does, with -j too
            if full and argv[:1] == ["check"] and rng.random() < 0.5:
                argv[1:1] = ["-j", "2"]
            label = "cli" + (" > /dev/full" if full else "")
            yield i, label, repr(argv), lambda _text, a=argv, f=full: run_cli(a, workdir, f)  # type: ignore[misc]
            continue
        if rng.random() < 0.03:
            call = api_case(rng)
            yield i, "api", "a public call with a wrong argument", lambda _text, c=call: c()  # type: ignore[misc]
            continue
        kind, text = rng.choice(base)
        mutated = mutate(text, rng)
        if kind == "log" and rng.random() < 0.03:
            ends = rng.choice(["\r", "\r\n"])
            yield i, "html", mutated.replace("\n", ends), run_html
        elif kind == "grid":
            yield i, "grid", mutated, run_grid
        elif kind == "rules" and workdir and rng.random() < 0.1:
            game = "king-of-tokyo" if "king-of-tokyo" in text else "kingdomino"
            argv = rules_argv(rng, game)
            yield i, f"rules {' '.join(argv)}", mutated, \
                lambda t, a=argv: run_rules_cli(t, a, workdir)  # type: ignore[misc]
        elif kind == "rules":
            yield i, "rules", mutated, run_rules
        elif rng.random() < 0.05:
            yield i, "query", " ".join(mutated.split()[:8]), run_query
        else:
            yield i, "log", mutated, run_log


def _peak_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def fuzz(n: int, seed: int, cli_share: float = 0.1) -> list[str]:
    """Findings among ``n`` inputs of ``seed`` (a share ``cli_share`` of them argument lists)."""
    from kbgrules.errors import KbgError

    findings = []
    for i, kind, text, run in cases(n, seed, cli_share):
        start = time.perf_counter()
        try:
            problem = run(text)
        except KbgError:
            problem = None
        except Exception as exc:  # the finding: anything else
            problem = f"{type(exc).__name__}: {exc}"
        took = time.perf_counter() - start
        if took > (SLOW_LIMIT if kind.startswith("rules ") or "'site'" in text or "'--rules'" in text else 5):
            problem = f"took {took:.1f} s"
        peak = _peak_mib()
        if peak > 500 and not any("MiB" in f for f in findings):  # the process's peak: the first case past it
            problem = f"the process reached {peak:.0f} MiB"
        if problem:
            findings.append(f"seed {seed} case {i} ({kind}): {problem}\n  input: {text[:300]!r}")
    return findings


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cli-only", action="store_true", help="only argument lists for the kbg command")
    ap.add_argument("--cli-share", type=float, default=0.1, help="the share of argument lists (0.1)")
    a = ap.parse_args()
    found = fuzz(a.n, a.seed, 1.0 if a.cli_only else a.cli_share)
    for f in found:
        print(f)
    print(f"{a.n} inputs, {len(found)} findings")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
