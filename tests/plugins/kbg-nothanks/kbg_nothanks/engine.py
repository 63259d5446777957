"""How kbg plays No Thanks!: the game's ``ENGINE`` (the Engine protocol of kbgrules.core.registry).

Each method imports what it needs when called: loading the rules does not load the replay.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from kbg_nothanks.game import NoThanksGame
    from kbg_nothanks.model import NoThanksRuleset
    from kbg_nothanks.state import NoThanksState
    from kbgrules.core.data import Resolved
    from kbgrules.core.entries import Entry, Picture
    from kbgrules.core.logfile import GameText
    from kbgrules.core.model import OverlayInfo, Ruleset
    from kbgrules.core.reference import Page, Topic
    from kbgrules.core.report import GameReport
    from kbgrules.core.setup import SetupSheet


def _rules(rs: Ruleset) -> NoThanksRuleset:
    from kbg_nothanks.model import NoThanksRuleset

    if not isinstance(rs, NoThanksRuleset):
        raise TypeError(f"not a No Thanks! ruleset: {type(rs).__name__}")
    return rs


class NoThanksEngine:
    game_id = "nothanks"

    def build(self, res: Resolved) -> NoThanksRuleset:
        from kbg_nothanks.model import build

        return build(res)

    def check(self, file: str, game: GameText, rs: Ruleset, report: GameReport) -> NoThanksState:
        from kbg_nothanks.log import check_nothanks

        return check_nothanks(file, game, _rules(rs), report)

    def replayed(self, rs: Ruleset, game: GameText, report: GameReport, state: Any) -> NoThanksGame:
        from kbg_nothanks.game import NoThanksGame
        from kbg_nothanks.state import NoThanksState

        assert isinstance(state, NoThanksState)
        return NoThanksGame(state.rs, report.players, state=state)

    def new_game(self, rs: Ruleset, players: Sequence[str]) -> NoThanksGame:
        from kbg_nothanks.game import NoThanksGame

        return NoThanksGame(_rules(rs), players)

    def setup_sheet(self, rs: Ruleset) -> SetupSheet:
        from kbg_nothanks.setup import setup_sheet

        return setup_sheet(_rules(rs))

    def simulate(self, players: int, seed: int, edition: str | None, variants: Sequence[str],
                 names: Sequence[str] | None, rules_dirs: Sequence[str]) -> str:
        from kbg_nothanks.simulate import simulate_nothanks

        return simulate_nothanks(players, seed, edition, variants, names, rules_dirs)

    def reference_entries(self, prefix: str, editions: Sequence[tuple[OverlayInfo, Ruleset]],
                          variants: Sequence[tuple[OverlayInfo, Ruleset]]) -> list[Entry]:
        """No table of its own: the rules, FAQ, components and variants are the core's entries."""
        return []

    @property
    def reference_pages(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        return ()

    @property
    def reference_kinds(self) -> dict[str, str]:
        return {}

    def reference_pictures(self, rs: Ruleset) -> dict[str, Picture]:
        return {}

    @property
    def number_words(self) -> tuple[str, ...]:
        return ()

    # `kbg rules GAME TOPIC`: no table of its own but the setup per player count

    @property
    def reference_topics(self) -> tuple[Topic, ...]:
        return ()

    def reference_table(self, rs: Ruleset, topic: str) -> Page:
        """The setup table per player count (``kbg rules nothanks setup``)."""
        from kbg_nothanks.setup import setup_table
        from kbgrules.errors import KbgError

        if topic != "setup":
            raise KbgError(f"{rs.game.name} has no table {topic!r}", code="unknown-topic")
        return setup_table(_rules(rs))

    def reference_item(self, rs: Ruleset, key: str) -> Page | None:
        """No piece of its own to show: its cards are numbers."""
        return None


ENGINE = NoThanksEngine()
