"""The loader: a game's effective rules, the list of games, and a setup sheet.

The top package exposes these as ``kbgrules.load`` (typed there with each shipped game's ruleset),
``kbgrules.games`` and ``kbgrules.setup_sheet``; the core imports them from here, so no arrow runs
back up to the top package, which imports every game.
"""

from __future__ import annotations

from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:  # `import kbgrules` stays light: typing is not imported at run time
    import os
    from collections.abc import Sequence
    from typing import Any

    from kbgrules.core.model import GameInfo, Ruleset
    from kbgrules.core.setup import SetupSheet

    RulesDirs = Sequence[str | os.PathLike[str]]

__all__ = ["games", "load", "setup_sheet"]


def setup_sheet(rs: Ruleset) -> SetupSheet:
    """The setup sheet of a ruleset loaded with a player count (``kbg setup``), as its game writes it."""
    from kbgrules.core import args
    from kbgrules.core.model import Ruleset
    from kbgrules.core.registry import engine_for

    args.of_type(rs, Ruleset, "rs", "a Ruleset (from kbgrules.load)")
    return engine_for(rs.data).setup_sheet(rs)


def games(rules_dirs: RulesDirs = (), plugins: bool = True) -> tuple[GameInfo, ...]:
    """Every game available, with its editions (the default marked) and variants: the shipped games and
    the plug-in games installed (only the shipped ones if ``plugins`` is False), sorted by id."""
    from kbgrules.core import args
    from kbgrules.core.build import game_info
    from kbgrules.core.data import catalog

    dirs = args.folders(rules_dirs)
    args.flag(plugins, "plugins")
    cat = catalog(dirs, with_plugins=plugins)
    return tuple(game_info(gf) for _, gf in sorted(cat.games.items()))


def load(
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
    from kbgrules.core.datafiles import user_dirs_stamp

    return _load_user(game, edition, tuple(variants), players, dirs, user_dirs_stamp(dirs))


def load_for_log(game: str, edition: str | None, variants: list[str], players: int,
                 rules_dirs: RulesDirs) -> Ruleset:
    """``load`` for the values of a log's headers (strings, a count: nothing to check of their types):
    the shared load of the shipped data without ``load``'s argument checks when no rule folders are given."""
    if type(rules_dirs) is tuple and not rules_dirs:
        return _load_shipped(game, edition, tuple(variants), players)
    return load(game, edition=edition, variants=variants, players=players, rules_dirs=rules_dirs)


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
    import dataclasses

    return _pickles_as_load(dataclasses.replace(engine_for(res.files.game.data).build(res), rules_dirs=rules_dirs))


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


def _pickles_as_load(rs: Ruleset) -> Ruleset:
    """``rs``, just built; rulesets are pickled as the load that made them (``Ruleset.__reduce__``)."""
    from kbgrules.core.model import Ruleset

    Ruleset.loader = load  # set here, not at import: the model is not imported until a build
    return rs


def _build_shipped(game: str, edition: str | None, variants: tuple[str, ...], res: Any = None) -> Ruleset:
    """One build per (game, edition, variants), never evicted: every load for a player count shares it
    (an LRU entry could outlive the build it was made from, and the rules would then exist twice)."""
    key = (game, edition, variants)
    built = _BUILT.get(key)
    if built is None:
        from kbgrules.core.data import resolve
        from kbgrules.core.registry import engine_for

        res = res if res is not None else resolve(game, edition, variants, None)
        built = _BUILT[key] = _pickles_as_load(engine_for(res.files.game.data).build(res))
    return built
