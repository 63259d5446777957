"""How the core plays Kingdomino: the game's ``ENGINE`` (see :mod:`kbgrules.core.registry`).

Each method imports what it needs when called, so that loading the rules does not load the
replay engine.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from kbgrules.core.data import Resolved
    from kbgrules.core.logfile import GameText
    from kbgrules.core.model import Ruleset
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
        return KingdominoGame(state.rs, report.players, state=state, moves=state.history)

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


ENGINE = KingdominoEngine()
