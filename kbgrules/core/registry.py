"""The game registry: how the core reaches a game's package without knowing any game.

Each game's rule data names the package that plays it (``engine:`` in its ``game.yaml``, for
example ``kbgrules.GAME``). The first time the core needs the game it imports that package
and takes its ``ENGINE``, an object with the methods of :class:`Engine`. A third game is a new
package with an ``ENGINE`` and a ``rules_data`` folder whose ``game.yaml`` names it: nothing in the
core changes.
"""

from __future__ import annotations

from functools import cache

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; this module is on every command's path
    from collections.abc import Mapping, Sequence
    from typing import Any, Protocol

    from kbgrules.core.effective import Resolved
    from kbgrules.core.entries import Entry, Picture
    from kbgrules.core.logfile import GameText
    from kbgrules.core.model import OverlayInfo, Ruleset
    from kbgrules.core.reference import Page, PositionFormat, Scored, Topic
    from kbgrules.core.report import GameReport
    from kbgrules.core.setup import SetupSheet

    class Engine(Protocol):
        """What a game's package gives the core."""

        game_id: str

        def build(self, res: Resolved) -> Ruleset:
            """The typed ruleset of an effective data tree."""

        def check(self, file: str, game: GameText, rs: Ruleset, report: GameReport) -> Any:
            """Replay one game of a log, recording its verdict in ``report``; the engine's state
            where the replay stopped."""

        def replayed(self, rs: Ruleset, game: GameText, report: GameReport, state: Any) -> Any:
            """The game object (as :meth:`new_game` makes) of a log replayed without problems to
            ``state``."""

        def new_game(self, rs: Ruleset, players: Sequence[str]) -> Any:
            """A game at its set-up: an object with ``players``, ``turn``, ``moves``,
            ``legal_moves()``, ``is_legal(move)``, ``push(move)``, ``parse_move(text)``,
            ``push_text(text)``, ``move_text(move)``, ``pop()``, ``copy()``, ``outcome()``,
            ``position_text()``."""

        def setup_sheet(self, rs: Ruleset) -> SetupSheet:
            """The setup sheet of a ruleset loaded with a player count."""

        def simulate(self, players: int, seed: int, edition: str | None, variants: Sequence[str],
                     names: Sequence[str] | None, rules_dirs: Sequence[str]) -> str:
            """A random legal game as log text."""

        def reference_entries(self, prefix: str, editions: Sequence[tuple[OverlayInfo, Ruleset]],
                              variants: Sequence[tuple[OverlayInfo, Ruleset]]) -> list[Entry]:
            """The entries of the game's own tables for explain and the site (its cards, its
            pieces...), given its rulesets per edition (the default first) and per variant."""

        @property
        def reference_pages(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
            """The site's pages for those tables: (page name, title, entry kinds)."""

        @property
        def reference_kinds(self) -> Mapping[str, str]:
            """The role of each kind of those entries: ``named-piece`` (found by its name) or ``piece``
            (:mod:`kbgrules.core.kinds`); explain ranks and words answers by role, not by kind."""

        def reference_pictures(self, rs: Ruleset) -> dict[str, Picture]:
            """The entries the site draws (a piece's squares), by entry id."""

        @property
        def number_words(self) -> tuple[str, ...]:
            """Words that may come before the number of an entry found by its number."""

        @property
        def reference_topics(self) -> tuple[Topic, ...]:
            """The topics of ``kbg rules GAME TOPIC`` beyond those of every game (its pieces' tables)."""

        def reference_table(self, rs: Ruleset, topic: str) -> Page:
            """The page of one of :attr:`reference_topics` (by name), or of ``setup``: the setup table
            per player count. KbgError (code ``unknown-topic``) where ``rs`` has no such table."""

        def reference_item(self, rs: Ruleset, key: str) -> Page | None:
            """The page of the one piece ``key`` names (a card by id or name, a piece by its number; written
            as :func:`kbgrules.core.datafiles.normalize` writes it), None if it names none."""

    class Scorer(Engine, Protocol):
        """An engine that also scores a position written as text (``kbg score``): a capability an engine
        may offer, found by its ``score_position`` method."""

        @property
        def position_format(self) -> PositionFormat:
            """How the position is written, for messages and help."""

        def score_position(self, name: str, text: str, rs: Ruleset) -> Scored:
            """The position in ``text`` (read from file ``name``), scored under ``rs``."""


@cache
def _load_engine(module: str) -> Any:
    import importlib

    return importlib.import_module(module).ENGINE


def engine_for(game_data: Mapping[str, Any]) -> Engine:
    """The engine of a game, from its game data (the ``engine`` key of its ``game.yaml``)."""
    from kbgrules.errors import KbgError

    module = game_data.get("engine")
    try:
        engine: Engine = _load_engine(str(module))
    except (ImportError, AttributeError):
        raise KbgError(f"{game_data.get('name', game_data.get('id'))}: no engine {module!r} to play it",
                       code="unsupported-game") from None
    return engine


def engine_of(game: str, rules_dirs: Sequence[str] = ()) -> Engine:
    """The engine of ``game`` (an id or alias)."""
    from kbgrules.core.data import catalog_for
    from kbgrules.core.effective import resolve_game

    cat = catalog_for(game, rules_dirs)
    return engine_for(cat.games[resolve_game(cat, game)].game.data)


def scorer(engine: Engine) -> Scorer | None:
    """``engine`` if it scores positions (``kbg score``: it has ``score_position``), else None."""
    return engine if callable(getattr(engine, "score_position", None)) else None  # type: ignore[return-value]
