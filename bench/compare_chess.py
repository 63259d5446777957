"""kbg's log checker against python-chess, measured in the same run on the same machine.

    python bench/compare_chess.py            # prints the figures
    python bench/compare_chess.py --write    # also rewrites the comparison section of docs/benchmarks.md

python-chess: random legal games (random legal moves until the game is over or 200 plies), exported
as PGN, then read back with ``chess.pgn.read_game`` (which resolves every SAN move against the legal
moves) while every mainline move is pushed on a ``chess.Board``: checked plies per second. Also the
plies per second of ``Board.push_san`` from the SAN strings alone.

kbg: simulated random 4-player King of Tokyo games (several editions) and Kingdomino games, each
log checked with ``check_text`` (parse + replay, every event checked against the rules): events per
second, where an event is a line that is not blank, a comment (``#``) or a header (``@``). Also, for
each King of Tokyo edition, reading alone (the lines into events and the events into actions, as
``kbg check`` reads a log before replaying it; nothing replayed): the ceiling of that edition's ratio,
and what is left of a 3x budget for the rules once the log is read.

Figures are wall-clock, single process (one core). python-chess and each kbg workload are timed in
turn, round after round, and each ratio is taken from the best of each: a slower spell of a shared
machine slows both. Run with the compiled build installed (a scratch environment with the wheel of
``HATCH_BUILD_HOOK_ENABLE_MYPYC=1 python -m build``, see docs/scale.md), the figures go to their own
section: the build is the one ``kbg --version`` names.
"""

from __future__ import annotations

import argparse
import gc
import io
import platform
import random
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import chess
import chess.pgn
from _docs import best_of, write_section

from kbgrules.core.check import check_text
from kbgrules.core.compiled import PURE, build
from kbgrules.core.load import load
from kbgrules.core.logfile import iter_games
from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
from kbgrules.king_of_tokyo.parse import Parser
from kbgrules.king_of_tokyo.simulate import simulate_king_of_tokyo
from kbgrules.kingdomino.simulate import simulate_kingdomino

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- compare:begin -->", "<!-- compare:end -->"
BEGIN_MYPYC, END_MYPYC = "<!-- compare-mypyc:begin -->", "<!-- compare-mypyc:end -->"
MAX_PLIES = 200
KOT_EDITIONS: tuple[tuple[str, str | None, tuple[str, ...]], ...] = (
    ("2016 (default)", None, ()),
    ("2011", "2011", ()),
    ("Dark Edition", "dark", ()),
    ("2016 + Power Up!", None, ("power-up",)),
    ("Dark Edition + Power Up!", "dark", ("power-up",)),
)


def events_in(logs: Sequence[str]) -> int:
    return sum(1 for log in logs for line in log.splitlines() if line and line[0] not in "@#")


def random_chess_game(seed: int) -> tuple[str, list[str]]:
    """A random legal game: its PGN text and its moves in SAN."""
    rng = random.Random(seed)
    board = chess.Board()
    sans: list[str] = []
    while not board.is_game_over() and len(sans) < MAX_PLIES:
        move = rng.choice(list(board.legal_moves))
        sans.append(board.san(move))
        board.push(move)
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = f"random legal game, seed {seed}"
    return str(game), sans


def read_and_push(pgn: str) -> int:
    """Read every game of ``pgn`` and push its mainline moves on a board; the plies pushed."""
    stream = io.StringIO(pgn)
    plies = 0
    while (game := chess.pgn.read_game(stream)) is not None:
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
    return plies


def push_sans(games: Sequence[Sequence[str]]) -> int:
    plies = 0
    for sans in games:
        board = chess.Board()
        for san in sans:
            board.push_san(san)
        plies += len(sans)
    return plies


def paired(repeats: int, chess_run: Callable[[], object], kbg_run: Callable[[], object]) -> tuple[float, float]:
    """The best times of python-chess's and kbg's runs, taken in turn (one of each per round), so that a
    slower spell of a shared machine slows both alike."""
    best_chess = best_kbg = float("inf")
    for _ in range(repeats):
        best_chess = min(best_chess, best_of(1, chess_run))
        gc.collect()  # python-chess's game trees are cycles: collected here, not during kbg's run
        best_kbg = min(best_kbg, best_of(1, kbg_run))
        gc.collect()
    return best_chess, best_kbg


def check_all(logs: Sequence[str]) -> None:
    for log in logs:
        check_text("b.log", log)


def read_all(logs: Sequence[str], rs: KingOfTokyoRuleset) -> None:
    """Reading alone: each log's lines into events, and each event into its action by the parser
    ``kbg check`` uses; nothing is replayed."""
    for log in logs:
        for g, _ in iter_games("b.log", log):
            tag = g.tag("players") if g is not None else None
            assert g is not None and tag is not None
            read = Parser(rs, tuple(v.text for v in tag.values)).read
            for ev in g.events:
                read(ev)


def clean_logs(logs: Sequence[str]) -> int:
    """The events in ``logs``; every log must check clean."""
    bad = [i for i, log in enumerate(logs) if check_text("b.log", log).exit_code != 0]
    if bad:
        raise SystemExit(f"simulated logs {bad[:5]} do not check clean")
    return events_in(logs)


def render(command: str, what: str, rows: Sequence[tuple[str, str, str]], begin: str, end: str) -> str:
    machine = f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}"
    table = "\n".join(["| measure | figure | ÷ python-chess checked plies/s |", "| --- | --- | --- |",
                       *(f"| {a} | {b} | {c} |" for a, b, c in rows)])
    return f"{begin}\nMeasured with `{command}` ({machine}; {what}).\n\n{table}\n{end}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=None,
                    help="games of each kind (default: 200 chess, 200 King of Tokyo per edition, 500 Kingdomino)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    n_chess, n_kot, n_kd = (200, 200, 500) if args.games is None else (args.games,) * 3
    repeats: int = args.repeats
    pure = build() == PURE  # which build runs: pure Python, or the engine compiled by mypyc

    made = [random_chess_game(seed) for seed in range(n_chess)]
    pgn = "\n\n".join(text for text, _ in made) + "\n"
    sans = [s for _, s in made]
    plies = sum(len(s) for s in sans)
    if read_and_push(pgn) != plies or push_sans(sans) != plies:
        raise SystemExit("python-chess did not read back the games it wrote")
    chess_best = float("inf")
    measured: list[tuple[str, float, float, int, int]] = []  # label, chess time, kbg time, events, games
    reading: list[tuple[str, float, float, int]] = []  # label, chess time, reading time, events

    check_text("warm.log", simulate_king_of_tokyo(4, 0))
    for label, edition, variants in KOT_EDITIONS:
        logs = [simulate_king_of_tokyo(4, seed, edition, variants) for seed in range(n_kot)]
        events = clean_logs(logs)
        tc, tk = paired(repeats, lambda: read_and_push(pgn), partial(check_all, logs))
        chess_best = min(chess_best, tc)
        measured.append((f"kbg King of Tokyo {label}: events checked, {n_kot} 4-player games", tc, tk, events, n_kot))
        rs = load("king-of-tokyo", edition=edition, variants=variants, players=4)
        assert isinstance(rs, KingOfTokyoRuleset)
        tc, tr = paired(repeats, lambda: read_and_push(pgn), partial(read_all, logs, rs))
        chess_best = min(chess_best, tc)
        reading.append((label, tc, tr, events))
    kd_logs = [simulate_kingdomino(4, seed) for seed in range(n_kd)]
    events = clean_logs(kd_logs)
    kd_chess, kd_time = paired(repeats, lambda: read_and_push(pgn), lambda: check_all(kd_logs))
    chess_best = min(chess_best, kd_chess)
    san = best_of(repeats, lambda: push_sans(sans))

    rows = [(f"python-chess {chess.__version__}: checked plies (read_game + push), {n_chess} games",
             f"{plies / chess_best:,.0f} plies/s", "1"),
            ("python-chess: plies with push_san", f"{plies / san:,.0f} plies/s", f"{chess_best / san:.2f}"),
            ("python-chess: plies per random game (average)", f"{plies / n_chess:,.0f}", "")]
    for label, tc, tk, ev, games in measured:
        rows.append((f"{label} ({ev / games:,.0f} events/game, {games / tk:,.0f} games/s)",
                     f"{ev / tk:,.0f} events/s", f"{(ev / tk) / (plies / tc):.2f}"))
    for (label, tc, tr, ev), (_, tc2, tk, _, _) in zip(reading, measured, strict=True):
        left = 1 / 3 - (tr / ev) / (tc / plies)  # a ply's time, per event, left for the replay at 3x
        now = (tk / ev) / (tc2 / plies) - (tr / ev) / (tc / plies)
        rows.append((f"kbg King of Tokyo {label}: reading alone, no replay (the replay's time per event: "
                     f"{now:.2f} python-chess ply now, {left:.2f} at 3x)", f"{ev / tr:,.0f} events/s",
                     f"{(ev / tr) / (plies / tc):.2f}"))
    rows.append((f"kbg Kingdomino: 4-player games checked, {n_kd} games", f"{n_kd / kd_time:,.0f} games/s", ""))
    rows.append((f"kbg Kingdomino: events checked ({events / n_kd:,.0f} events/game)",
                 f"{events / kd_time:,.0f} events/s", f"{(events / kd_time) / (plies / kd_chess):.2f}"))

    begin, end = (BEGIN, END) if pure else (BEGIN_MYPYC, END_MYPYC)
    games_opt = "" if args.games is None else f" --games {args.games}"
    games_opt += "" if repeats == 5 else f" --repeats {repeats}"
    build_note = ("pure Python (the default install)" if pure
                  else "the compiled build, mypyc: HATCH_BUILD_HOOK_ENABLE_MYPYC=1 python -m build")
    text = render(f"python bench/compare_chess.py{games_opt}",
                  f"{build_note}; random legal games generated in the run, one process; each ratio from "
                  f"python-chess and kbg timed in turn, best of {repeats}", rows, begin, end)
    print(text)
    if args.write:
        page = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if begin in page and end in page:
            write_section(DOC, begin, end, text)
            print(f"wrote {DOC.relative_to(ROOT)}")
        else:
            print(f"{DOC.relative_to(ROOT)} has no section for this build: add the lines {begin} and {end} "
                  "where it goes, then run again with --write", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
