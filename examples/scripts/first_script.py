"""A tool author's first script: replay the games of a log, then look at what comes next.

    python examples/scripts/first_script.py examples/kingdomino/two-players.log

CI type-checks it with ``mypy --strict`` against the installed wheel (kbgrules ships py.typed).
"""

from __future__ import annotations

import sys

import kbgrules


def summary(path: str) -> list[str]:
    lines = []
    for logged in kbgrules.read_games(path):
        try:
            game: kbgrules.Game = logged.replay()
        except kbgrules.KbgError as exc:  # the first problem, as file:line:col: message
            lines.append(f"game {logged.index}: {exc}")
            continue
        outcome = game.outcome()
        if outcome is not None:
            lines.append(f"game {logged.index}: won by {', '.join(outcome.winners)}")
        else:
            moves = [game.move_text(m) for m in game.legal_moves()]
            lines.append(f"game {logged.index}: {game.turn or 'a chance event'} to move, {len(moves)} legal moves")
    return lines


if __name__ == "__main__":
    print("\n".join(summary(sys.argv[1])))
