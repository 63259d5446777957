"""Setup sheets: what to take out of the box, what stays in it, what each player gets, how play starts.

Every number comes from the ruleset; each game's package arranges them (``setup_sheet`` of its
engine, reached through :func:`kbgrules.setup_sheet`), this module holds the sheet's shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kbgrules.core.model import Ruleset
from kbgrules.core.value import FrozenValue
from kbgrules.core.words import plural as plural  # games and plug-ins import it from here


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class SheetItem(FrozenValue):
    """One line of a setup sheet: a count (or None) and what it counts."""

    text: str
    count: int | None = None

    def __str__(self) -> str:
        return f"{self.count} {self.text}" if self.count is not None else self.text


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class SheetSection(FrozenValue):
    id: str
    title: str
    items: tuple[SheetItem, ...]


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class SetupSheet(FrozenValue):
    game: str
    game_name: str
    edition: str
    edition_title: str
    variants: tuple[str, ...]
    players: int
    summary: str
    facts: dict[str, Any]
    sections: tuple[SheetSection, ...]
    rules: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "kbg_json": 1,
            "game": self.game,
            "edition": self.edition,
            "variants": list(self.variants),
            "players": self.players,
            "summary": self.summary,
            "facts": self.facts,
            "sections": [
                {"id": s.id, "title": s.title,
                 "items": [{"count": i.count, "text": i.text} for i in s.items]}
                for s in self.sections
            ],
            "rules": list(self.rules),
        }


def component_count(rs: Ruleset, cid: str) -> int:
    for c in rs.components:
        if c.id == cid and c.count is not None:
            return c.count
    return 0


def make_sheet(rs: Ruleset, summary: str, facts: dict[str, Any], sections: list[SheetSection],
           rules: list[str]) -> SetupSheet:
    assert rs.players is not None
    sections.append(SheetSection("variants", "Variants in play", tuple(
        SheetItem(f"{v.title}: {v.summary}") for v in rs.variants) or (SheetItem("none"),)))
    return SetupSheet(
        game=rs.game.id, game_name=rs.game.name, edition=rs.edition.id, edition_title=rs.edition.title,
        variants=tuple(v.id for v in rs.variants), players=rs.players, summary=summary, facts=facts,
        sections=tuple(sections),
        rules=tuple(r for r in rules if r in rs.rules),
    )
