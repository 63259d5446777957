"""Kingdomino benchmarks: games checked per second, placements enumerated per second.

    python bench/kingdomino.py            # prints the figures
    python bench/kingdomino.py --write    # also rewrites the Kingdomino section of docs/benchmarks.md

Figures are wall-clock, single process (one core), best of several repeats.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from _docs import best_of, figures, write_section

import kbgrules
from kbgrules.core.check import check_text
from kbgrules.kingdomino.kingdom import Kingdom
from kbgrules.kingdomino.simulate import simulate_kingdomino

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- kingdomino:begin -->", "<!-- kingdomino:end -->"


def bench_check(games: int, repeats: int) -> tuple[float, float]:
    logs = [simulate_kingdomino(4, seed) for seed in range(games)]
    events = sum(1 for log in logs for line in log.splitlines() if line and line[0] not in "@#")
    check_text("warm.log", logs[0])
    t = best_of(repeats, lambda: [check_text("b.log", log) for log in logs])
    return games / t, events / t


def bench_placements(kingdoms: int, repeats: int) -> float:
    rs = kbgrules.load("kingdomino")
    rng = random.Random(1)
    cases = []
    for _ in range(kingdoms):
        k = Kingdom(rs.kingdom_size)
        for _ in range(rng.randint(0, 10)):
            d = rs.domino(rng.randint(1, 48))
            legal = k.legal_placements(d)
            if legal:
                k.place(d, *rng.choice(legal))
        cases.append((k, rs.domino(rng.randint(1, 48))))
    total = sum(len(k.legal_placements(d)) for k, d in cases)
    t = best_of(repeats, lambda: [k.legal_placements(d) for k, d in cases])
    return total / t


def bench_simulate(games: int, repeats: int) -> float:
    t = best_of(repeats, lambda: [simulate_kingdomino(4, seed) for seed in range(games)])
    return games / t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    games_s, events_s = bench_check(args.games, args.repeats)
    place_s = bench_placements(2000, args.repeats)
    sim_s = bench_simulate(max(20, args.games // 4), args.repeats)
    rows = [
        ("4-player games checked (parse + replay + scoring)", f"{games_s:,.0f} games/s"),
        ("log events checked", f"{events_s:,.0f} events/s"),
        ("legal placements enumerated", f"{place_s:,.0f} placements/s"),
        ("4-player games simulated (random legal moves)", f"{sim_s:,.0f} games/s"),
    ]
    text = figures(BEGIN, END, f"python bench/kingdomino.py --games {args.games}",
                   f"simulated random 4-player games, best of {args.repeats}", rows)
    print(text)
    if args.write:
        write_section(DOC, BEGIN, END, text, 'Kingdomino')


if __name__ == "__main__":
    sys.exit(main())
