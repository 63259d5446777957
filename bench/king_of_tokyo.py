"""King of Tokyo benchmarks: events and four-player games checked per second.

    python bench/king_of_tokyo.py            # prints the figures
    python bench/king_of_tokyo.py --write    # also rewrites the King of Tokyo section of docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from _docs import figures, write_section

from kbgrules.core.check import check_text
from kbgrules.king_of_tokyo.simulate import simulate_king_of_tokyo

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- king-of-tokyo:begin -->", "<!-- king-of-tokyo:end -->"


def timed(logs: list[str], repeats: int) -> tuple[int, float]:
    """The events in ``logs`` and the best time, in seconds, to check them all."""
    events = sum(1 for log in logs for line in log.splitlines() if line and line[0] not in "@#")
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        for log in logs:
            check_text("b.log", log)
        best = min(best, time.perf_counter() - t)
    return events, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    logs = [simulate_king_of_tokyo(4, seed) for seed in range(args.games)]
    check_text("warm.log", logs[0])
    events, best = timed(logs, args.repeats)
    rows = [("4-player games checked (parse + replay)", f"{args.games / best:,.0f} games/s"),
            ("log events checked", f"{events / best:,.0f} events/s"),
            ("events per simulated game (average)", f"{events / args.games:,.0f}")]
    for label, edition, variants in (("Dark Edition", "dark", ()), ("Power Up!", None, ("power-up",)),
                                     ("Dark Edition + Power Up!", "dark", ("power-up",))):
        n = max(10, args.games // 4)
        eevents, ebest = timed([simulate_king_of_tokyo(4, seed, edition, variants) for seed in range(n)],
                               args.repeats)
        rows.append((f"{label}: log events checked ({n} games)", f"{eevents / ebest:,.0f} events/s"))
    text = figures(BEGIN, END, f"python bench/king_of_tokyo.py --games {args.games}",
                   f"simulated random 4-player games, best of {args.repeats}", rows)
    print(text)
    if args.write:
        write_section(DOC, BEGIN, END, text, 'King of Tokyo')


if __name__ == "__main__":
    sys.exit(main())
