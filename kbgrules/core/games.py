"""Games from code: start one, or read the games of a log and replay them into game objects.

Examples with both shipped games: docs/library.md (run as doctests).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from kbgrules.core.check import LoggedEvent, LoggedGame, logged_games
from kbgrules.core.logfile import read_text
from kbgrules.core.protocols import Game
from kbgrules.errors import KbgError, LogSyntaxError

__all__ = ["Game", "LoggedEvent", "LoggedGame", "logged_games", "new_game", "read_games"]

def new_game(game: str, players: Sequence[str], edition: str | None = None, variants: Sequence[str] = (),
             rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> Game:
    """A new game of ``game`` (an id or alias) between the named players, at its set-up: a
    :class:`Game` (``legal_moves``, ``push``, ``push_text``, ``pop``, ``outcome``...)."""
    from kbgrules.core import args
    from kbgrules.core.load import load
    from kbgrules.core.registry import engine_for

    players = args.names(players, "players")
    rs = load(game, edition=edition, variants=variants, players=len(players), rules_dirs=rules_dirs)
    made: Game = engine_for(rs.data).new_game(rs, players)
    return made


def read_games(source: str | os.PathLike[str], rules_dirs: Sequence[str | os.PathLike[str]] = ()) \
        -> list[LoggedGame]:
    """The games of a log: ``source`` is a path (an ``os.PathLike``, or a string naming an existing
    file) or the log's text. Lines that cannot be read are kept in each game's ``errors`` (and
    :meth:`LoggedGame.replay` raises the first). A file is read as ``kbg check`` reads it, with the same
    size limit: one it cannot read raises :class:`KbgError` (code ``unreadable``), one too large, binary
    or not UTF-8 raises :class:`LogSyntaxError` (``file-too-large``, ``binary-file``, ``not-utf8``)."""
    from kbgrules.core import args

    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"source must be a log's text, or a path (str or os.PathLike), not {type(source).__name__}")
    rules_dirs = args.folders(rules_dirs)
    if isinstance(source, os.PathLike) or ("\n" not in source and os.path.isfile(source)):
        path = os.fspath(source)
        file, text, unreadable = read_text(os.path.join(os.curdir, path) if path == "-" else path)  # a file, not stdin
        if text is None:
            d = unreadable[0]
            exc = KbgError(d.message, code=d.code) if d.code == "unreadable" else \
                LogSyntaxError(d.message, d.col, d.code)
            raise exc.located(d.file, d.line, d.col)
    else:
        file, text = "<text>", str(source)
    games, _ = logged_games(file, text, rules_dirs)
    return games
