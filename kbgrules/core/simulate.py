"""``kbg simulate``: a random legal game of any game, written as a log, by the game's engine."""

from __future__ import annotations

from collections.abc import Sequence

DEFAULT_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


def simulate(game: str, players: int, seed: int, edition: str | None = None, variants: Sequence[str] = (),
             names: Sequence[str] | None = None, rules_dirs: Sequence[str] = ()) -> str:
    """A complete random legal game of ``game`` as log text; the same seed gives the same game."""
    from kbgrules.core.registry import engine_of

    return engine_of(game, rules_dirs).simulate(players, seed, edition, variants, names, rules_dirs)
