"""kbgrules: board-game rules as data, and the validators built on them.

>>> import kbgrules
>>> rs = kbgrules.load("kingdomino", players=3)
>>> rs.setup.dominoes_used, rs.setup.line_size, rs.setup.rounds
(36, 3, 12)
>>> kbgrules.load("kd", edition="2nd", players=3).setup.dominoes_used
48
"""

from __future__ import annotations

import os
from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:  # `import kbgrules` stays light: typing is not imported at run time
    from collections.abc import Sequence
    from typing import Any, Literal, overload

    from kbgrules.core.check import check_file, check_files, iter_check_file, iter_check_files
    from kbgrules.core.games import LoggedEvent, LoggedGame, new_game, read_games
    from kbgrules.core.model import GameInfo, OverlayInfo, RuleEntry, Ruleset, Source
    from kbgrules.core.protocols import Game
    from kbgrules.core.report import CheckReport, GameReport
    from kbgrules.core.setup import SetupSheet
    from kbgrules.errors import (
        AmbiguousMoveError,
        DataError,
        Diagnostic,
        IllegalMoveError,
        KbgError,
        LogSyntaxError,
        PlayerCountError,
        UnknownNameError,
        UnsafeYamlError,
        VariantConflictError,
    )
    from kbgrules.king_of_tokyo.model import Card, KingOfTokyoRuleset
    from kbgrules.kingdomino.model import Domino, KingdominoRuleset

_LAZY = {
    **dict.fromkeys(["DataError", "Diagnostic", "KbgError", "PlayerCountError", "UnknownNameError",
                     "UnsafeYamlError", "VariantConflictError"], "errors"),
    **dict.fromkeys(["GameInfo", "OverlayInfo", "RuleEntry", "Ruleset", "Source"], "core.model"),
    **dict.fromkeys(["Card", "KingOfTokyoRuleset"], "king_of_tokyo.model"),
    **dict.fromkeys(["Domino", "KingdominoRuleset"], "kingdomino.model"),
    **dict.fromkeys(["LoggedEvent", "LoggedGame", "new_game", "read_games"], "core.games"),
    "Game": "core.protocols",
    **dict.fromkeys(["check_file", "check_files", "iter_check_file", "iter_check_files"], "core.check"),
    **dict.fromkeys(["CheckReport", "GameReport"], "core.report"),
    **dict.fromkeys(["AmbiguousMoveError", "IllegalMoveError", "LogSyntaxError"], "errors"),
}


def __getattr__(name: str) -> Any:
    """Names are imported on first use, so ``import kbgrules`` (and ``kbg explain``) start fast."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kbgrules' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value

__version__ = "0.1.0"

__all__ = [
    "AmbiguousMoveError",
    "Card",
    "CheckReport",
    "DataError",
    "Diagnostic",
    "Domino",
    "Game",
    "GameInfo",
    "GameReport",
    "IllegalMoveError",
    "KbgError",
    "KingOfTokyoRuleset",
    "KingdominoRuleset",
    "LogSyntaxError",
    "LoggedEvent",
    "LoggedGame",
    "OverlayInfo",
    "PlayerCountError",
    "RuleEntry",
    "Ruleset",
    "Source",
    "UnknownNameError",
    "UnsafeYamlError",
    "VariantConflictError",
    "__version__",
    "check_file",
    "check_files",
    "games",
    "iter_check_file",
    "iter_check_files",
    "load",
    "new_game",
    "read_games",
    "setup_sheet",
]

if TYPE_CHECKING:
    RulesDirs = Sequence[str | os.PathLike[str]]


def setup_sheet(rs: Ruleset) -> SetupSheet:
    """The setup sheet of a ruleset loaded with a player count (``kbg setup``), as its game writes it.

    >>> sheet = setup_sheet(load("kingdomino", players=3))
    >>> sheet.summary
    '36 dominoes used, 12 returned to the box, 3 per line, 12 rounds, 5x5 kingdoms'
    """
    from kbgrules.core.registry import engine_for

    return engine_for(rs.data).setup_sheet(rs)


def games(rules_dirs: RulesDirs = ()) -> tuple[GameInfo, ...]:
    """Every game available, with its editions (the default marked) and variants."""
    from kbgrules.core.build import game_info
    from kbgrules.core.data import catalog

    cat = catalog(rules_dirs)
    return tuple(game_info(gf) for _, gf in sorted(cat.games.items()))


if TYPE_CHECKING:
    @overload
    def load(game: Literal["kingdomino", "kd"], edition: str | None = ..., variants: Sequence[str] = ...,
             players: int | None = ..., rules_dirs: RulesDirs = ...) -> KingdominoRuleset: ...
    @overload
    def load(game: Literal["king-of-tokyo", "kot"], edition: str | None = ..., variants: Sequence[str] = ...,
             players: int | None = ..., rules_dirs: RulesDirs = ...) -> KingOfTokyoRuleset: ...
    @overload
    def load(game: str, edition: str | None = ..., variants: Sequence[str] = ...,
             players: int | None = ..., rules_dirs: RulesDirs = ...) -> Ruleset: ...
    def load(game: str, edition: str | None = None, variants: Sequence[str] = (), players: int | None = None,
             rules_dirs: RulesDirs = ()) -> Ruleset:
        return _load(game, edition, variants, players, rules_dirs)


def _load(
    game: str,
    edition: str | None = None,
    variants: Sequence[str] = (),
    players: int | None = None,
    rules_dirs: RulesDirs = (),
) -> Ruleset:
    """The effective rules of ``game``: base data + ``edition`` (default edition if None) + ``variants``.

    Names resolve through ids and aliases, ignoring case. ``players`` is checked against the game
    and the variants; ``rules_dirs`` adds directories of user YAML, validated on every load.
    Raises a :class:`KbgError` subclass with a stable ``code`` on any problem.
    """
    from kbgrules.core import args

    args.text(game, "game")
    args.text(edition, "edition", optional=True)
    variants = args.names(variants, "variants")
    args.count(players, "players", optional=True)
    dirs = args.folders(rules_dirs)
    if not dirs:
        return _load_shipped(game, edition, variants, players)
    from kbgrules.core.data import user_dirs_stamp

    return _load_user(game, edition, tuple(variants), players, dirs, user_dirs_stamp(dirs))


if not TYPE_CHECKING:  # the overloads above are for type checkers; typing is not imported at run time
    load = _load
    load.__name__ = load.__qualname__ = "load"


@lru_cache(maxsize=64)
def _load_user(game: str, edition: str | None, variants: tuple[str, ...], players: int | None,
               rules_dirs: tuple[str, ...], stamp: tuple[tuple[str, int, int], ...]) -> Ruleset:
    """Loads with user rule files are shared too while those files stay as they were (``stamp``);
    a load that fails is not cached, so its errors are reported every time."""
    from kbgrules.core.data import resolve

    if players is not None:  # the rules do not depend on the count: check it, and share the build
        import dataclasses

        resolve(game, edition, variants, players, rules_dirs, validate=False)
        return dataclasses.replace(_load_user(game, edition, variants, None, rules_dirs, stamp), players=players)
    from kbgrules.core.registry import engine_for

    res = resolve(game, edition, variants, None, rules_dirs)
    return engine_for(res.files.game.data).build(res)


@lru_cache(maxsize=256)
def _load_shipped(game: str, edition: str | None, variants: tuple[str, ...], players: int | None) -> Ruleset:
    """Rulesets are immutable, so loads of the shipped data are shared. The rules do not depend on the
    player count (only which counts are allowed does): a load for a count is the one without a count,
    built once, with the count set on it."""
    from kbgrules.core.data import resolve

    res = resolve(game, edition, variants, players)  # checks the player count
    if players is not None:
        import dataclasses

        return dataclasses.replace(_build_shipped(game, edition, variants), players=players)
    return _build_shipped(game, edition, variants, res)


_BUILT: dict[tuple[str, str | None, tuple[str, ...]], Ruleset] = {}


def _build_shipped(game: str, edition: str | None, variants: tuple[str, ...], res: Any = None) -> Ruleset:
    """One build per (game, edition, variants), never evicted: every load for a player count shares it
    (an LRU entry could outlive the build it was made from, and the rules would then exist twice)."""
    key = (game, edition, variants)
    built = _BUILT.get(key)
    if built is None:
        from kbgrules.core.data import resolve
        from kbgrules.core.registry import engine_for

        res = res if res is not None else resolve(game, edition, variants, None)
        built = _BUILT[key] = engine_for(res.files.game.data).build(res)
    return built
