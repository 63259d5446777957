"""Start-up of `kbg explain` (a word, a question, a forum post; piped) and of other commands against a bare
`python3 -c pass`: medians of repeated runs.

    python bench/startup.py            # prints the figures
    python bench/startup.py --write    # also rewrites the start-up paragraph of docs/explain.md

Commands run as an installed kbg runs: with compiled bytecode (pip compiles it at install time).
PYTHONDONTWRITEBYTECODE is dropped from the environment, bytecode goes to a temporary
PYTHONPYCACHEPREFIX, and one warm-up run per command writes it before timing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _docs import write_section

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "explain.md"
BEGIN, END = "<!-- startup:begin -->", "<!-- startup:end -->"


QUESTION = "can I heal in tokyo?"
POST = ("We played last night with five friends. Bob was in Tokyo City with Poison Quills and Acid Attack, and "
        "Cid bought Flame Thrower and hit him for two. We argued for an hour about who owed what. Anyway: can "
        "Bob yield Tokyo after losing life to Flame Thrower, or only after a smash? Thanks for any help.")
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="kbg-bench-pycache-")


def median_ms(cmd: list[str], runs: int) -> float:
    times = []
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV)  # warm-up
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    kbg = shutil.which("kbg") or str(Path(sys.executable).with_name("kbg"))
    base = median_ms([sys.executable, "-c", "pass"], args.runs)
    explain = median_ms([kbg, "explain", "yield"], args.runs)
    question = median_ms([kbg, "explain", QUESTION], args.runs)
    post = median_ms([kbg, "explain", POST], args.runs)
    version = median_ms([kbg, "--version"], args.runs)
    setup = median_ms([kbg, "setup", "kingdomino", "--players", "3"], args.runs)
    check = median_ms([kbg, "check", str(ROOT / "examples" / "king-of-tokyo" / "annotated.log")], args.runs)
    kot = ROOT / "examples" / "king-of-tokyo"  # a user's rule folder: checked once, then read as it is (cached)
    rules = median_ms([kbg, "--rules", str(kot / "godzilla-rules"), "check", str(kot / "godzilla.log")], args.runs)
    text = (f"{BEGIN}\n| command | median |\n| --- | --- |\n| `python3 -c pass` | {base:.0f} ms |\n"
            f"| `kbg explain yield` (piped) | {explain:.0f} ms ({explain / base:.1f}x) |\n"
            f"| `kbg explain \"{QUESTION}\"` | {question:.0f} ms ({question / base:.1f}x) |\n"
            f"| `kbg explain` a forum post of {len(POST.split())} words | {post:.0f} ms ({post / base:.1f}x) |\n"
            f"| `kbg --version` (typer) | {version:.0f} ms ({version / base:.1f}x) |\n"
            f"| `kbg setup kingdomino --players 3` | {setup:.0f} ms ({setup / base:.1f}x) |\n"
            f"| `kbg check examples/king-of-tokyo/annotated.log` | {check:.0f} ms ({check / base:.1f}x) |\n"
            f"| `kbg --rules examples/king-of-tokyo/godzilla-rules check examples/king-of-tokyo/godzilla.log` "
            f"(after the first run) | {rules:.0f} ms ({rules / base:.1f}x; {rules / check:.1f}x the check above) |\n\n"
            f"Measured with `python bench/startup.py` ({args.runs} runs each).\n{END}")
    print(text)
    if args.write:
        write_section(DOC, BEGIN, END, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
