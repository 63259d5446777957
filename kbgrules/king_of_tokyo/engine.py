"""How the core plays King of Tokyo: the game's ``ENGINE`` (see :mod:`kbgrules.core.registry`).

Each method imports what it needs when called, so that loading the rules does not load the
replay engine and its card hooks.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from kbgrules.core.effective import Resolved
    from kbgrules.core.entries import Entry, Picture
    from kbgrules.core.logfile import GameText
    from kbgrules.core.model import OverlayInfo, Ruleset
    from kbgrules.core.reference import Page, Topic
    from kbgrules.core.report import GameReport
    from kbgrules.core.setup import SetupSheet
    from kbgrules.king_of_tokyo.game import KingOfTokyoGame
    from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
    from kbgrules.king_of_tokyo.state import KingOfTokyoState


class KingOfTokyoEngine:
    game_id = "king-of-tokyo"

    def build(self, res: Resolved) -> KingOfTokyoRuleset:
        from kbgrules.king_of_tokyo.model import build

        return build(res)

    def check(self, file: str, game: GameText, rs: Ruleset, report: GameReport) -> KingOfTokyoState | None:
        from kbgrules.king_of_tokyo.log import check_king_of_tokyo
        from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset

        assert isinstance(rs, KingOfTokyoRuleset)
        return check_king_of_tokyo(file, game, rs, report)

    def replayed(self, rs: Ruleset, game: GameText, report: GameReport, state: Any) -> KingOfTokyoGame:
        from kbgrules.king_of_tokyo.game import KingOfTokyoGame
        from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset

        assert isinstance(rs, KingOfTokyoRuleset)
        monsters = game.tag("monsters")
        tiles = game.tag("tiles")
        return KingOfTokyoGame.replayed(rs, report.players, [t.text for t in monsters.values] if monsters else (),
                                        tiles.values[0].text if tiles else None,
                                        [" ".join(ev.words) for ev in game.events], state)

    def new_game(self, rs: Ruleset, players: Sequence[str]) -> KingOfTokyoGame:
        """A game at its set-up. With Power Up! evolutions each player plays a monster: the first monsters
        of the evolution data by id, in seat order (``KingOfTokyoGame(rs, players, monsters=...)`` picks
        others)."""
        from kbgrules.errors import KbgError
        from kbgrules.king_of_tokyo.game import KingOfTokyoGame
        from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset

        assert isinstance(rs, KingOfTokyoRuleset)
        if not rs.cards:
            raise KbgError(f"the {rs.edition.title} ships no card list: give the cards with --rules DIR",
                           code="no-cards")
        monsters: list[str] = []
        ev = rs.evolution
        if ev is not None and not ev.draft:  # evolutions belong to monsters: the first ones by id, in seat order
            monsters = sorted({c.monster for c in rs.evolutions})[:len(players)]
            if len(monsters) < len(players):
                raise KbgError(f"evolutions for {len(monsters)} monsters are loaded, not enough for "
                               f"{len(players)} players", code="player-count")
        return KingOfTokyoGame(rs, players, monsters=monsters)

    def setup_sheet(self, rs: Ruleset) -> SetupSheet:
        from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
        from kbgrules.king_of_tokyo.setup import setup_sheet

        assert isinstance(rs, KingOfTokyoRuleset)
        return setup_sheet(rs)

    def simulate(self, players: int, seed: int, edition: str | None, variants: Sequence[str],
                 names: Sequence[str] | None, rules_dirs: Sequence[str]) -> str:
        from kbgrules.king_of_tokyo.simulate import simulate_king_of_tokyo

        return simulate_king_of_tokyo(players, seed, edition, variants, names, rules_dirs)

    def reference_entries(self, prefix: str, editions: Sequence[tuple[OverlayInfo, Ruleset]],
                          variants: Sequence[tuple[OverlayInfo, Ruleset]]) -> list[Entry]:
        """The entries of the game's own tables (beyond its rules, FAQ and components), given its
        rulesets per edition (the default first) and per variant."""
        from kbgrules.king_of_tokyo.entries import reference_entries

        return reference_entries(prefix, editions, variants)

    @property
    def reference_pages(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        """The site's pages for those tables: (page name, title, entry kinds)."""
        from kbgrules.king_of_tokyo.entries import PAGES

        return PAGES


    @property
    def reference_kinds(self) -> dict[str, str]:
        """The role of each kind of those entries (:mod:`kbgrules.core.kinds`)."""
        from kbgrules.king_of_tokyo.entries import KINDS

        return KINDS

    @property
    def number_words(self) -> tuple[str, ...]:
        """Words before the number of an entry found by its number (``domino 37``)."""
        from kbgrules.king_of_tokyo.entries import NUMBER_WORDS

        return NUMBER_WORDS


    def reference_pictures(self, rs: Ruleset) -> dict[str, Picture]:
        """The entries the site draws, by id."""
        from kbgrules.king_of_tokyo.entries import reference_pictures

        return reference_pictures(rs)

    # `kbg rules GAME TOPIC`: the game's own tables

    @property
    def reference_topics(self) -> tuple[Topic, ...]:
        """The topics of ``kbg rules`` beyond those of every game."""
        from kbgrules.king_of_tokyo.tables import TOPICS

        return TOPICS

    def reference_table(self, rs: Ruleset, topic: str) -> Page:
        """The page of one of :attr:`reference_topics` (by name) or of ``setup``."""
        from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
        from kbgrules.king_of_tokyo.tables import page

        assert isinstance(rs, KingOfTokyoRuleset)
        return page(rs, topic)

    def reference_item(self, rs: Ruleset, key: str) -> Page | None:
        """The page of the piece ``key`` names (normalized), or None."""
        from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
        from kbgrules.king_of_tokyo.tables import item

        assert isinstance(rs, KingOfTokyoRuleset)
        return item(rs, key)


ENGINE = KingOfTokyoEngine()
