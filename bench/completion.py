"""Shell completion's answer time: `kbg` run as each shell's completion script runs it (typer's protocol,
``_KBG_COMPLETE``), against a bare `python3 -c pass` and `kbg --version`: medians of repeated runs.

    python bench/completion.py            # prints the figures
    python bench/completion.py --write    # also rewrites the completion figures of docs/cli.md

Commands run as an installed kbg runs: with compiled bytecode (see bench/startup.py), the plug-in games
hidden (``KBG_NO_PLUGINS=1``: kbg as shipped).
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
DOC = ROOT / "docs" / "cli.md"
BEGIN, END = "<!-- completion:begin -->", "<!-- completion:end -->"
ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "KBG_RULES")}
ENV["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="kbg-bench-pycache-")
ENV["KBG_NO_PLUGINS"] = "1"

# (what, the line typed, the shell): the line ends where TAB is pressed
ASKED = [
    ("a command (typer alone, no value read)", "kbg se", "bash"),
    ("a game", "kbg setup ", "bash"),
    ("an edition of the game typed", "kbg setup kot --edition ", "bash"),
    ("a variant of the game typed", "kbg setup kd -p 3 --variant ", "bash"),
    ("a variant, with a rule folder of the user's", f"kbg --rules {ROOT}/docs/examples/house-rules setup kd --variant ",
     "bash"),
    ("a rule topic or id", "kbg rules kot ", "bash"),
    ("an explain topic", "kbg explain ", "bash"),
    ("a language", "kbg explain --lang ", "bash"),
    ("an edition, zsh (values with their help)", "kbg setup kot --edition ", "zsh"),
    ("an edition, fish", "kbg setup kot --edition ", "fish"),
]


def medians_ms(runs: list[tuple[list[str], dict[str, str]]], rounds: int) -> list[float]:
    """The median time of each run (a command and its environment), timed in turns: one of each per
    round, so that a busy machine slows them all alike."""
    times: list[list[float]] = [[] for _ in runs]
    for r in range(rounds + 1):  # round 0 warms up (and writes the bytecode)
        for i, (cmd, env) in enumerate(runs):
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env={**ENV, **env})
            if r:
                times[i].append(time.perf_counter() - t)
    return [statistics.median(t) * 1000 for t in times]


def protocol(line: str, shell: str) -> dict[str, str]:
    """The environment a shell's completion script gives kbg for ``line``."""
    if shell == "bash":
        words = line.split()
        return {"_KBG_COMPLETE": "complete_bash", "COMP_WORDS": line,
                "COMP_CWORD": str(len(words) if line.endswith(" ") else len(words) - 1)}
    return {"_KBG_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": line,
            "_TYPER_COMPLETE_FISH_ACTION": "get-args"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    kbg = shutil.which("kbg") or str(Path(sys.executable).with_name("kbg"))
    runs = [([sys.executable, "-c", "pass"], {}), ([kbg, "--version"], {}),
            *(([kbg], protocol(line, shell)) for _, line, shell in ASKED)]
    base, version, *asked = medians_ms(runs, args.runs)
    rows = [f"| `python3 -c pass` | {base:.0f} ms |",
            f"| `kbg --version` (typer) | {version:.0f} ms ({version / base:.1f}x) |"]
    for (what, line, shell), ms in zip(ASKED, asked, strict=True):
        shown = line.replace(f"{ROOT}/", "")
        rows.append(f"| {what}: `{shown}` TAB, {shell} | {ms:.0f} ms ({ms / base:.1f}x) |")
    text = (f"{BEGIN}\n| completing | median |\n| --- | --- |\n" + "\n".join(rows) +
            f"\n\nMeasured with `python bench/completion.py` ({args.runs} runs each, in turns).\n{END}")
    print(text)
    if args.write:
        write_section(DOC, BEGIN, END, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
