"""A seeded, mutation-based fuzzer of kbg's input surfaces (issue 15): game logs of both games,
positions, kingdom grids and ``kbg explain`` queries, fed to the library in-process.

    python bench/fuzz.py [--n 10000] [--seed 1]

Every input must give a report or a ``KbgError``: no other exception, no diagnostic that points past
the input (a line after the last, a column after the end of its line), no control character in a
message, no input slower than 5 s. Findings are printed (seed, case, input) and the exit code is 1;
``tests/test_fuzz.py`` runs a small number on every change, and each finding becomes a regression test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ODD = ["\x00", "\x0b", "\x0c", "\x1b[31m", "\x85", "\u2028", "\u202e", "\t", "\r", "\r\n", " ", "#", ":", ",",
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


def cases(n: int, seed: int) -> Iterator[tuple[int, str, str, Callable[[str], str | None]]]:
    rng = random.Random(seed)
    base = seeds()
    for i in range(n):
        kind, text = rng.choice(base)
        mutated = mutate(text, rng)
        if kind == "grid":
            yield i, "grid", mutated, run_grid
        elif kind == "rules":
            yield i, "rules", mutated, run_rules
        elif rng.random() < 0.05:
            yield i, "query", " ".join(mutated.split()[:8]), run_query
        else:
            yield i, "log", mutated, run_log


def fuzz(n: int, seed: int) -> list[str]:
    from kbgrules.errors import KbgError

    findings = []
    for i, kind, text, run in cases(n, seed):
        start = time.perf_counter()
        try:
            problem = run(text)
        except KbgError:
            problem = None
        except Exception as exc:  # the finding: anything else
            problem = f"{type(exc).__name__}: {exc}"
        took = time.perf_counter() - start
        if took > 5:
            problem = f"took {took:.1f} s"
        if problem:
            findings.append(f"seed {seed} case {i} ({kind}): {problem}\n  input: {text[:300]!r}")
    return findings


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    found = fuzz(a.n, a.seed)
    for f in found:
        print(f)
    print(f"{a.n} inputs, {len(found)} findings")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
