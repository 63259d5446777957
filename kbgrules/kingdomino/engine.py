"""How the core plays Kingdomino: the game's ``ENGINE`` (see :mod:`kbgrules.core.registry`).

Each method imports what it needs when called, so that loading the rules does not load the
replay engine.
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
    from kbgrules.core.reference import Page, PositionFormat, Scored, Topic
    from kbgrules.core.report import GameReport
    from kbgrules.core.setup import SetupSheet
    from kbgrules.kingdomino.game import KingdominoGame
    from kbgrules.kingdomino.model import KingdominoRuleset
    from kbgrules.kingdomino.state import KingdominoState


class KingdominoEngine:
    game_id = "kingdomino"

    def build(self, res: Resolved) -> KingdominoRuleset:
        from kbgrules.kingdomino.model import build

        return build(res)

    def check(self, file: str, game: GameText, rs: Ruleset, report: GameReport) -> KingdominoState:
        from kbgrules.kingdomino.log import check_kingdomino
        from kbgrules.kingdomino.model import KingdominoRuleset

        assert isinstance(rs, KingdominoRuleset)
        return check_kingdomino(file, game, rs, report)

    def replayed(self, rs: Ruleset, game: GameText, report: GameReport, state: Any) -> KingdominoGame:
        from kbgrules.kingdomino.game import KingdominoGame
        from kbgrules.kingdomino.model import KingdominoRuleset
        from kbgrules.kingdomino.state import KingdominoState

        assert isinstance(rs, KingdominoRuleset) and isinstance(state, KingdominoState)
        # the state's ruleset: LoggedGame.ruleset() keeps only the last of several @variant tags
        start = game.tag("start")
        return KingdominoGame(state.rs, report.players, state=state, moves=state.history,
                              from_position=start is not None and start.values[0].text == "position")

    def new_game(self, rs: Ruleset, players: Sequence[str]) -> KingdominoGame:
        from kbgrules.kingdomino.game import KingdominoGame
        from kbgrules.kingdomino.model import KingdominoRuleset

        assert isinstance(rs, KingdominoRuleset)
        return KingdominoGame(rs, players)

    def setup_sheet(self, rs: Ruleset) -> SetupSheet:
        from kbgrules.kingdomino.model import KingdominoRuleset
        from kbgrules.kingdomino.setup import setup_sheet

        assert isinstance(rs, KingdominoRuleset)
        return setup_sheet(rs)

    def simulate(self, players: int, seed: int, edition: str | None, variants: Sequence[str],
                 names: Sequence[str] | None, rules_dirs: Sequence[str]) -> str:
        from kbgrules.kingdomino.simulate import simulate_kingdomino

        return simulate_kingdomino(players, seed, edition, variants, names, rules_dirs)

    def reference_entries(self, prefix: str, editions: Sequence[tuple[OverlayInfo, Ruleset]],
                          variants: Sequence[tuple[OverlayInfo, Ruleset]]) -> list[Entry]:
        """The entries of the game's own tables (beyond its rules, FAQ and components), given its
        rulesets per edition (the default first) and per variant."""
        from kbgrules.kingdomino.entries import reference_entries

        return reference_entries(prefix, editions, variants)

    @property
    def reference_pages(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        """The site's pages for those tables: (page name, title, entry kinds)."""
        from kbgrules.kingdomino.entries import PAGES

        return PAGES


    @property
    def reference_kinds(self) -> dict[str, str]:
        """The role of each kind of those entries (:mod:`kbgrules.core.kinds`)."""
        from kbgrules.kingdomino.entries import KINDS

        return KINDS

    @property
    def number_words(self) -> tuple[str, ...]:
        """Words before the number of an entry found by its number (``domino 37``)."""
        from kbgrules.kingdomino.entries import NUMBER_WORDS

        return NUMBER_WORDS


    def reference_pictures(self, rs: Ruleset) -> dict[str, Picture]:
        """The entries the site draws, by id."""
        from kbgrules.kingdomino.entries import reference_pictures

        return reference_pictures(rs)

    # `kbg rules GAME TOPIC`: the game's own tables and `kbg score`

    @property
    def reference_topics(self) -> tuple[Topic, ...]:
        """The topics of ``kbg rules`` beyond those of every game."""
        from kbgrules.kingdomino.tables import TOPICS

        return TOPICS

    def reference_table(self, rs: Ruleset, topic: str) -> Page:
        """The page of one of :attr:`reference_topics` (by name) or of ``setup``."""
        from kbgrules.kingdomino.model import KingdominoRuleset
        from kbgrules.kingdomino.tables import page

        assert isinstance(rs, KingdominoRuleset)
        return page(rs, topic)

    def reference_item(self, rs: Ruleset, key: str) -> Page | None:
        """The page of the piece ``key`` names (normalized), or None."""
        from kbgrules.kingdomino.model import KingdominoRuleset
        from kbgrules.kingdomino.tables import item

        assert isinstance(rs, KingdominoRuleset)
        return item(rs, key)

    @property
    def position_format(self) -> PositionFormat:
        """How ``kbg score`` reads a position: a kingdom as a grid."""
        from kbgrules.kingdomino.tables import GRID

        return GRID

    def score_position(self, name: str, text: str, rs: Ruleset) -> Scored:
        """A kingdom written as a grid (file ``name``), scored."""
        from kbgrules.kingdomino.model import KingdominoRuleset
        from kbgrules.kingdomino.tables import score_grid

        assert isinstance(rs, KingdominoRuleset)
        return score_grid(name, text, rs)


ENGINE = KingdominoEngine()
