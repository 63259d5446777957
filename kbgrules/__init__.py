"""kbgrules: board-game rules as data, and the validators built on them.

>>> import kbgrules
>>> rs = kbgrules.load("kingdomino", players=3)
>>> rs.setup.dominoes_used, rs.setup.line_size, rs.setup.rounds
(36, 3, 12)
>>> kbgrules.load("kd", edition="2nd", players=3).setup.dominoes_used
48
>>> kbgrules.setup_sheet(rs).summary
'36 dominoes used, 12 returned to the box, 3 per line, 12 rounds, 5x5 kingdoms'
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # `import kbgrules` stays light: typing is not imported at run time
    import os
    from collections.abc import Sequence
    from typing import Any, Literal, overload

    from kbgrules.core.check import check_file, check_files, iter_check_file, iter_check_files
    from kbgrules.core.games import LoggedEvent, LoggedGame, new_game, read_games
    from kbgrules.core.model import GameInfo, OverlayInfo, RuleEntry, Ruleset, Source
    from kbgrules.core.protocols import Game
    from kbgrules.core.report import CheckReport, GameReport
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
    **dict.fromkeys(["games", "load", "setup_sheet"], "core.load"),
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

if TYPE_CHECKING:  # at run time the three come from the core's loader, through __getattr__
    from kbgrules.core.load import games as games
    from kbgrules.core.load import load as _load
    from kbgrules.core.load import setup_sheet as setup_sheet

    RulesDirs = Sequence[str | os.PathLike[str]]

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
