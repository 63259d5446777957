"""compare_chess.py's comparison counted in machine instructions (valgrind's callgrind), not in seconds.

    python bench/instructions.py            # prints the figures
    python bench/instructions.py --write    # also rewrites its section of docs/benchmarks.md

Wall-clock ratios on a shared machine move by a third from one run to the next; an instruction count
does not (with ``PYTHONHASHSEED=0`` it is the same from run to run), so a change of a few per cent can
be seen. Each workload runs in a child interpreter under callgrind twice, over its games once and
twice: the difference is the cost of one pass, without start-up, imports or warming up. The ratio to
python-chess is its instructions per checked ply over kbg's per checked event: the speed ratio if
both ran as many instructions per second (they need not: read it next to compare_chess.py's).
Needs valgrind; the figures are for the build installed (pure Python unless the compiled wheel is).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _docs import figures, write_section
from compare_chess import KOT_EDITIONS, events_in, random_chess_game, read_and_push

from kbgrules.core.check import check_text
from kbgrules.core.compiled import PURE, build
from kbgrules.king_of_tokyo.simulate import simulate_king_of_tokyo
from kbgrules.kingdomino.simulate import simulate_kingdomino

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- instructions:begin -->", "<!-- instructions:end -->"


def child(kind: str, path: str, passes: int) -> None:
    """Run one workload ``passes`` times after a warm-up (in the interpreter callgrind watches)."""
    payload = json.loads(Path(path).read_text(encoding="utf-8"))
    if kind == "chess":
        def once() -> None:
            read_and_push(payload)
    else:
        def once() -> None:
            for log in payload:
                check_text("b.log", log)
    if kind != "chess":
        check_text("b.log", payload[0])
    for _ in range(passes):
        once()


def counted(kind: str, payload: object, tmp: str) -> int:
    """Instructions of one pass of the workload: (two passes) - (one pass)."""
    path = os.path.join(tmp, f"{kind}.json")
    Path(path).write_text(json.dumps(payload), encoding="utf-8")
    # no .pyc written: else the first run compiles and writes what the second only reads, and the
    # difference loses the compiling (figures far too low in a fresh checkout)
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
    totals = []
    for passes in (1, 2):
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={os.path.join(tmp, 'callgrind.out')}",
             sys.executable, __file__, "--child", kind, path, str(passes)],
            capture_output=True, text=True, env=env, check=False)
        found = re.search(r"Collected : (\d+)", run.stderr)
        if run.returncode != 0 or found is None:
            raise SystemExit(f"callgrind failed on {kind}: {run.stderr[-500:]}")
        totals.append(int(found.group(1)))
    return totals[1] - totals[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="games of each kind (default 40)")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--child", nargs=3, metavar=("KIND", "FILE", "PASSES"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: this benchmark counts instructions with valgrind's callgrind",
              file=sys.stderr)
        return 2
    n: int = args.games
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        made = [random_chess_game(seed) for seed in range(n)]
        plies = sum(len(s) for _, s in made)
        per_ply = counted("chess", "\n\n".join(text for text, _ in made) + "\n", tmp) / plies
        rows.append((f"python-chess: instructions per checked ply (read_game + push), {n} random games",
                     f"{per_ply:,.0f}"))
        for label, edition, variants in KOT_EDITIONS:
            logs = [simulate_king_of_tokyo(4, seed, edition, variants) for seed in range(n)]
            events = events_in(logs)
            total = counted("kot", logs, tmp)
            rows.append((f"kbg King of Tokyo {label}: instructions per checked event ({total / n / 1e6:.2f} M "
                         f"per 4-player game); ÷ python-chess", f"{total / events:,.0f}; "
                         f"{per_ply / (total / events):.2f}"))
        logs = [simulate_kingdomino(4, seed) for seed in range(n)]
        total = counted("kd", logs, tmp)
        rows.append((f"kbg Kingdomino: instructions per checked 4-player game ({events_in(logs) / n:.0f} events)",
                     f"{total / n / 1e6:.2f} M"))
    what = ("pure Python (the default install)" if build() == PURE else "the compiled build (mypyc)")
    games = "" if n == 40 else f" --games {n}"
    text = figures(BEGIN, END, f"python bench/instructions.py{games}",
                   f"{what}; valgrind callgrind, PYTHONHASHSEED=0, one pass of each workload", rows)
    print(text)
    if args.write:
        write_section(DOC, BEGIN, END, text)
        print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
