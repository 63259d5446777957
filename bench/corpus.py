"""Checking a whole corpus of logs: the library against `kbg check`, worker processes, memory, start-up.

    python bench/corpus.py                # prints the figures
    python bench/corpus.py --write        # also rewrites the corpus section of docs/benchmarks.md

The corpus is ``--logs`` simulated random 4-player games, one per file, seeds 1..N: odd seeds
Kingdomino, even seeds King of Tokyo. The first quarter of the files is in one sub-directory, so
the same corpus is also checked at a quarter of its size. Events are counted as in the other
bench scripts: non-blank lines that do not start with ``@`` or ``#`` (kingdom grid lines included).

Measured, wall-clock, best of ``--repeats`` (memory: one run each):

- the library: ``check_files(paths, jobs=1)`` consumed in a loop, in this process, after a warm-up;
- the CLI: ``kbg check --summary -j 1 DIR`` as a child process (start-up included), and its rate
  as a fraction of the library's;
- worker processes: the same with ``-j 2`` (and ``-j`` one per core when there are more than 2);
- peak RSS of ``kbg check --summary -j 1`` on a quarter of the corpus and on all of it;
- peak RSS of ``kbg check --summary`` and ``--json`` on one file holding a quarter of the games and
  on one holding all of them (a file's games are checked and dropped one at a time);
- start-up: ``kbg --version`` against ``python -c pass``, best of 5.

Child processes run as an installed kbg runs, with compiled bytecode (see bench/startup.py).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from _docs import figures, write_section

from kbgrules.core.check import check_files
from kbgrules.core.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- corpus:begin -->", "<!-- corpus:end -->"
KBG = str(Path(sys.executable).with_name("kbg"))
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="kbg-bench-pycache-")
MAXRSS = ("import resource, subprocess, sys; "
          "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode; "
          "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(rc)")

T = TypeVar("T")


def best_of(repeats: int, fn: Callable[[], T]) -> tuple[float, T]:
    """The best time of ``repeats`` calls, in seconds, and what the last call returned."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def build_corpus(root: Path, logs: int) -> int:
    """Write the corpus under ``root``; the number of events in it."""
    events = 0
    for sub in ("a", "b"):
        (root / sub).mkdir()
    for seed in range(1, logs + 1):
        game = "kingdomino" if seed % 2 else "king-of-tokyo"
        text = simulate(game, 4, seed)
        events += sum(1 for line in text.splitlines() if line and line[0] not in "@#")
        sub = "a" if seed <= logs // 4 else "b"
        (root / sub / f"{seed:06d}-{game}.log").write_text(text, encoding="utf-8")
    return events


def run(cmd: list[str]) -> tuple[int, str]:
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=ENV, check=False)
    return done.returncode, done.stderr


def require_ok(cmd: list[str], rc: int, stderr: str, files: int | None = None) -> None:
    if rc != 0 or (files is not None and f"kbg: {files} files" not in stderr):
        raise SystemExit(f"{' '.join(cmd)} exited {rc}, expected 0 on {files} legal logs:\n{stderr}")


def cli_seconds(cmd: list[str], repeats: int, files: int) -> float:
    require_ok(cmd, *run(cmd), files)
    best, (rc, err) = best_of(repeats, lambda: run(cmd))
    require_ok(cmd, rc, err, files)
    return best


def peak_mib(cmd: list[str]) -> float:
    """Peak resident memory of one run of ``cmd``, in MiB: GNU time's %M, else the wrapper's ru_maxrss."""
    gnu_time = shutil.which("time", path="/usr/bin:/bin")
    if gnu_time:
        with tempfile.NamedTemporaryFile("r", suffix=".txt") as out:
            rc, _ = run([gnu_time, "-f", "%M", "-o", out.name, *cmd])
            kib = out.read().strip().splitlines()
        if rc == 0 and kib and kib[-1].isdigit():
            return int(kib[-1]) / 1024
    done = subprocess.run([sys.executable, "-c", MAXRSS, *cmd], capture_output=True, text=True, env=ENV,
                          check=False)
    require_ok(cmd, done.returncode, done.stderr)
    return int(done.stdout.split()[-1]) / (1024 * 1024 if sys.platform == "darwin" else 1024)


def startup_ms(cmd: list[str], runs: int = 5) -> float:
    require_ok(cmd, *run(cmd))
    best, (rc, err) = best_of(runs, lambda: run(cmd))
    require_ok(cmd, rc, err)
    return best * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--logs", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    n, repeats = args.logs, args.repeats
    if n < 4:
        ap.error("--logs must be at least 4")
    try:
        return measure(n, repeats, args.write)
    finally:
        shutil.rmtree(ENV["PYTHONPYCACHEPREFIX"], ignore_errors=True)


def measure(n: int, repeats: int, write: bool) -> int:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kbg-corpus-") as tmp:
        root = Path(tmp)
        events = build_corpus(root, n)
        size = sum(p.stat().st_size for p in root.rglob("*.log"))
        paths = sorted(str(p) for p in root.rglob("*.log"))
        built = time.perf_counter() - started

        next(check_files(paths[:1], jobs=1))
        lib, worst = best_of(repeats, lambda: max(r.exit_code for r in check_files(paths, jobs=1)))
        if worst != 0:
            raise SystemExit(f"check_files: exit code {worst}, expected 0 on {n} legal logs")

        cores = os.cpu_count() or 1
        jobs = [1, 2] + ([cores] if cores > 2 else [])
        cli = {j: cli_seconds([KBG, "check", "--summary", "-j", str(j), str(root)], repeats, n) for j in jobs}

        quarter = n // 4
        mem_small = peak_mib([KBG, "check", "--summary", "-j", "1", str(root / "a")])
        mem_full = peak_mib([KBG, "check", "--summary", "-j", "1", str(root)])

        one_small, one_full = root / "one-quarter.all", root / "one-full.all"  # every game in one file
        with one_small.open("w", encoding="utf-8") as small, one_full.open("w", encoding="utf-8") as full:
            for i, p in enumerate(paths):
                text = Path(p).read_text(encoding="utf-8")
                full.write(text)
                if i < quarter:
                    small.write(text)
        one = {(mode, f): peak_mib([KBG, "check", mode, str(f)])
               for mode in ("--summary", "--json") for f in (one_small, one_full)}

    python_ms = startup_ms([sys.executable, "-c", "pass"])
    version_ms = startup_ms([KBG, "--version"])

    growth = (mem_full - mem_small) / ((n - quarter) / 1000)
    rows = [
        ("corpus (half Kingdomino, half King of Tokyo)",
         f"{n:,} logs, {events:,} events, {size / 2**20:,.1f} MiB"),
        ("library `check_files(jobs=1)`", f"{events / lib:,.0f} events/s ({n / lib:,.0f} files/s)"),
        ("`kbg check --summary -j 1`", f"{events / cli[1]:,.0f} events/s ({n / cli[1]:,.0f} files/s)"),
        ("CLI / library (goal ≥ 0.9)", f"{lib / cli[1]:.2f}"),
    ]
    rows += [(f"`kbg check --summary -j {j}`",
              f"{events / cli[j]:,.0f} events/s ({cli[1] / cli[j]:.2f}x -j 1)") for j in jobs[1:]]
    rows += [
        (f"peak RSS, `kbg check --summary -j 1`, {quarter:,} logs", f"{mem_small:,.1f} MiB"),
        (f"peak RSS, `kbg check --summary -j 1`, {n:,} logs", f"{mem_full:,.1f} MiB"),
        ("peak RSS growth per 1,000 logs", f"{growth:+,.2f} MiB"),
    ]
    rows += [(f"peak RSS, `kbg check {mode}`, one file of {quarter:,} / {n:,} games",
              f"{one[mode, one_small]:,.1f} MiB / {one[mode, one_full]:,.1f} MiB") for mode in ("--summary", "--json")]
    rows += [
        ("start-up: `kbg --version` / `python -c pass`",
         f"{version_ms:.0f} ms / {python_ms:.0f} ms ({version_ms / python_ms:.1f}x)"),
    ]
    text = figures(BEGIN, END, f"python bench/corpus.py --logs {n}",
                   f"{cores} cores; best of {repeats}, peak RSS of one run each", rows)
    print(text)
    print(f"corpus built in {built:.1f} s, total {time.perf_counter() - started:.1f} s", file=sys.stderr)
    if write:
        write_section(DOC, BEGIN, END, text, "Many files: the CLI, memory and worker processes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
