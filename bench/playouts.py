"""Random whole games played through the library's API, side by side with python-chess.

    python bench/playouts.py            # prints the figures
    python bench/playouts.py --write    # also rewrites the playouts section of docs/benchmarks.md

What a bot does: start every registered game with ``kbgrules.new_game`` (no log), then until the
game is over push ``sample_chance(rng)`` where chance moves next (a roll, a deal, a card drawn) and
a random legal move elsewhere; every tenth move is also taken back with ``pop`` and pushed again, as
a search does. python-chess plays random legal games (``Board.legal_moves``, ``push``, the same
``pop`` and re-push every tenth move, until the game is over or 200 plies) in the same run. The
figure is moves pushed per second (chance outcomes and set-up draws count as moves), wall-clock, one
core; each workload is timed in turn, round after round, best of each.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
from pathlib import Path
from typing import Any

import chess
from _docs import best_of, figures, write_section

import kbgrules

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- playouts:begin -->", "<!-- playouts:end -->"
MAX_PLIES = 200
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
UNDO_EVERY = 10


def play_out(game: Any, rng: random.Random) -> int:
    """Play ``game`` to its end as a random bot; the moves pushed."""
    pushed = 0
    while not game.is_over():
        if game.is_chance():
            move = game.sample_chance(rng)
        else:
            moves = game.legal_moves()
            if not moves:
                raise RuntimeError(f"no legal move and no chance at move {pushed}: {game.position_text()}")
            move = rng.choice(moves)
        game.push(move)
        pushed += 1
        if pushed % UNDO_EVERY == 0:
            game.push(game.pop())
            pushed += 1
    return pushed


def chess_play_out(rng: random.Random) -> int:
    board = chess.Board()
    pushed = 0
    while not board.is_game_over() and board.ply() < MAX_PLIES:
        board.push(rng.choice(list(board.legal_moves)))
        pushed += 1
        if pushed % UNDO_EVERY == 0:
            board.push(board.pop())
            pushed += 1
    return pushed


def workloads(games: int) -> list[tuple[str, Any]]:
    """(label, a function playing ``games`` random games and returning the moves pushed)."""
    out: list[tuple[str, Any]] = [("python-chess", lambda: sum(chess_play_out(random.Random(s)) for s in range(games)))]
    for info in kbgrules.games():
        for players in sorted({info.min_players, 4, info.max_players} & set(range(info.min_players,
                                                                               info.max_players + 1))):
            def run(gid: str = info.id, n: int = players) -> int:
                return sum(play_out(kbgrules.new_game(gid, NAMES[:n]), random.Random(s)) for s in range(games))
            out.append((f"{info.name}, {players} players", run))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="random games per workload and round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--write", action="store_true", help="rewrite the playouts section of docs/benchmarks.md")
    args = ap.parse_args()
    loads = workloads(args.games)
    moves = {label: fn() for label, fn in loads}  # also a warm-up
    best: dict[str, float] = {}
    gc.disable()
    for _ in range(args.rounds):
        for label, fn in loads:
            t = best_of(1, fn)
            best[label] = min(best.get(label, t), t)
    gc.enable()
    rows = []
    chess_rate = moves["python-chess"] / best["python-chess"]
    for label, _ in loads:
        rate = moves[label] / best[label]
        per_game = moves[label] / args.games
        ratio = "" if label == "python-chess" else f", {rate / chess_rate:.2f}x python-chess"
        rows.append((f"{label}: moves per second", f"{rate:,.0f} ({per_game:.0f} moves a game{ratio})"))
    for a, b in rows:
        print(f"{a:55} {b}")
    if args.write:
        text = figures(BEGIN, END, "python bench/playouts.py --write", f"{args.games} random games per "
                       f"workload, best of {args.rounds} rounds", rows)
        write_section(DOC, BEGIN, END, text, heading="Random playouts through the API")
        print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
