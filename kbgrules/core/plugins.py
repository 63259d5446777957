"""Plug-in games: games from other installed distributions, beside the shipped ones.

A distribution registers a game under the entry-point group ``kbgrules.games``: the entry point's
name is the game's id, its value the package whose folder holds the game's ``rules_data/``::

    [project.entry-points."kbgrules.games"]
    my-game = "my_game"

kbg reads that folder as it reads its own rule data (with every file checked against its schema:
:mod:`kbgrules.core.data`) and imports the package only to play the game (the ``engine:`` of its
``game.yaml``). ``KBG_NO_PLUGINS=1`` hides every plug-in.

Finding the entry points imports neither :mod:`importlib.metadata` (about 40 ms, more than ``kbg
explain`` takes to answer) nor the plug-in's package: the ``entry_points.txt`` of each distribution
on ``sys.path`` is read directly, the first distribution of a name winning, as
:func:`importlib.metadata.entry_points` does (``tests/test_plugin.py`` compares the two), and the
package's folder is found with :func:`importlib.util.find_spec`, which runs none of its code.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

GROUP = "kbgrules.games"
ENV_OFF = "KBG_NO_PLUGINS"
_META = (".dist-info", ".egg-info")


class Plugin:
    """One plug-in game: its id, the package that holds its data, the distribution that declares it,
    and its ``rules_data`` folder."""

    __slots__ = ("distribution", "folder", "game", "package")
    game: str
    package: str
    distribution: str
    folder: str

    def __init__(self, game: str, package: str, distribution: str, folder: str) -> None:
        self.game, self.package, self.distribution, self.folder = game, package, distribution, folder

    def _key(self) -> tuple[str, str, str, str]:
        return (self.game, self.package, self.distribution, self.folder)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Plugin) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Plugin(game={self.game!r}, package={self.package!r}, distribution={self.distribution!r})"


def disabled() -> bool:
    return os.environ.get(ENV_OFF, "").lower() in ("1", "true", "yes")


def _normal(name: str) -> str:
    """A distribution's name as importlib.metadata compares them (PEP 503, ``-`` for ``_`` and ``.``)."""
    return "-".join(name.replace("_", "-").replace(".", "-").lower().split("-"))


def _section(text: str, group: str) -> Iterable[tuple[str, str]]:
    """The ``name = value`` lines of one section of an ``entry_points.txt`` (an INI file)."""
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            inside = line == f"[{group}]"
            continue
        if inside and "=" in line:
            name, _, value = line.partition("=")
            yield name.strip(), value.strip()


def declared(path: Iterable[str], group: str = GROUP) -> list[tuple[str, str, str]]:
    """``(name, value, distribution)`` of every entry point of ``group`` that the distributions on
    ``path`` declare, in ``path`` order; a distribution found twice counts where it is found first."""
    seen: set[str] = set()
    out: list[tuple[str, str, str]] = []
    for entry in path:
        folder = entry or "."
        try:
            names = sorted(os.listdir(folder))
        except (OSError, ValueError):  # a zip file, a folder that went away, a NUL in the name
            continue
        for name in names:
            if not name.endswith(_META):
                continue
            dist = name.rpartition(".")[0].partition("-")[0]
            key = _normal(dist)
            if key in seen:
                continue
            seen.add(key)
            try:
                with open(os.path.join(folder, name, "entry_points.txt"), encoding="utf-8") as fh:
                    text = fh.read()
            except (OSError, UnicodeDecodeError):
                continue
            if f"[{group}]" in text:
                name = _name(os.path.join(folder, name)) or dist
                out.extend((n, v, name) for n, v in _section(text, group))
    return out


def _name(meta: str) -> str | None:
    """The distribution's own name (``Name:`` of its METADATA or PKG-INFO), as its author spells it."""
    for file in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(meta, file), encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith("Name:"):
                        return line[5:].strip() or None
                    if not line.strip():  # the headers end at the first blank line
                        break
        except (OSError, UnicodeDecodeError):
            continue
    return None


def installed() -> tuple[Plugin, ...]:
    """Every plug-in game of the distributions on ``sys.path`` (none with ``KBG_NO_PLUGINS=1``);
    :class:`~kbgrules.errors.KbgError` ``plugin-missing`` for one whose package or ``rules_data``
    folder cannot be found, ``plugin-clash`` for two that give the same game id."""
    if disabled():
        return ()
    return _installed(tuple(sys.path))


@lru_cache(maxsize=4)
def _installed(path: tuple[str, ...]) -> tuple[Plugin, ...]:
    from kbgrules.errors import KbgError

    found: dict[str, Plugin] = {}
    for game, value, dist in declared(path):
        package = value.partition(":")[0].strip()
        where = f"the plug-in {dist} (entry point {game} = {value!r} in group {GROUP})"
        if game in found:
            raise KbgError(f"{where} gives the game {game!r}, which the plug-in {found[game].distribution} gives "
                           "too: uninstall one of them", code="plugin-clash")
        found[game] = Plugin(game, package, dist, _data_folder(package, where))
    return tuple(found[g] for g in sorted(found))


def _data_folder(package: str, where: str) -> str:
    """The ``rules_data`` folder of ``package``, found without running its code."""
    import importlib.util

    from kbgrules.errors import KbgError

    try:
        spec = importlib.util.find_spec(package) if package else None  # a dotted name imports its parents
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise KbgError(f"{where}: no package {package!r} is installed to hold its rules_data/",
                       code="plugin-missing")
    for folder in spec.submodule_search_locations:
        data = os.path.join(folder, "rules_data")
        if os.path.isfile(os.path.join(data, "game.yaml")):
            return data
    raise KbgError(f"{where}: the package {package!r} has no rules_data/game.yaml", code="plugin-missing")
