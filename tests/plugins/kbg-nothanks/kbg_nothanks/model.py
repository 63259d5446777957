"""The No Thanks! ruleset: the deck, the chips per player count and the scoring, from the rule data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from kbgrules.core.build import common_fields, sources
from kbgrules.core.data import Resolved, locate
from kbgrules.core.model import Ruleset, Source
from kbgrules.errors import DataError, IllegalMoveError


@dataclass(frozen=True, slots=True)
class NoThanksSetup:
    """One row of the setup table: the chips each player starts with."""

    players: int
    chips: int
    sources: tuple[Source, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class NoThanksRuleset(Ruleset):
    lowest: int
    highest: int
    removed: int
    always_removed: tuple[int, ...]
    setup_table: Mapping[int, NoThanksSetup]
    runs_count_lowest: bool
    chip_points: int

    @property
    def setup(self) -> NoThanksSetup:
        """The setup row for ``players`` (PlayerCountError without a player count)."""
        return self.setup_table[self._need_players()]

    @property
    def card_numbers(self) -> tuple[int, ...]:
        """The number of every card in the box, lowest first."""
        return tuple(range(self.lowest, self.highest + 1))

    @property
    def deck_size(self) -> int:
        """The cards played: the box less those removed."""
        return self.highest - self.lowest + 1 - self.removed

    def violation(self, code: str, **params: Any) -> IllegalMoveError:
        """The error of a broken rule: its rule id and message template come from the rule data (``codes``)."""
        entry = self.data["codes"][code]
        return IllegalMoveError(code, str(entry["rule"]), str(entry["message"]).format(**params), params)


def build(res: Resolved) -> NoThanksRuleset:
    """The No Thanks! ruleset of an effective data tree."""
    t = res.tree
    deck, scoring = t["deck"], t["scoring"]
    lowest, highest, removed = int(deck["lowest"]), int(deck["highest"]), int(deck["removed"])
    always = [int(c) for c in deck.get("always_removed") or ()]
    problem = None
    if lowest > highest:
        problem = f"the lowest card, {lowest}, is above the highest, {highest}"
    elif removed >= highest - lowest + 1:
        problem = f"{removed} cards removed would leave none of the {highest - lowest + 1} to play"
    elif any(not lowest <= c <= highest for c in always) or len(always) > removed:
        problem = f"always_removed must be at most {removed} cards numbered {lowest} to {highest}"
    if problem is not None:  # what the schema cannot say: the deck's numbers must fit together
        doc, path = locate(res, ("deck",))
        raise DataError([doc.diag(path, "schema", problem)])
    setup = {int(k): NoThanksSetup(int(k), int(r["chips"]), sources(r.get("sources"))) for k, r in t["setup"].items()}
    return NoThanksRuleset(
        **common_fields(res),
        lowest=lowest, highest=highest, removed=removed, always_removed=tuple(sorted(always)),
        setup_table=MappingProxyType(dict(sorted(setup.items()))),
        runs_count_lowest=scoring["runs"] == "lowest-card", chip_points=int(scoring["chip_points"]),
    )
