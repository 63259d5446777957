"""What a game shows of its own: the topics of ``kbg rules GAME TOPIC`` beyond the rules every game
has (its pieces, its setup table), and the score of a position it reads (``kbg score``).

A game's engine gives these as pages of plain view blocks (:mod:`kbgrules.core.views`) with their
JSON, so the CLI shows them without knowing the game. See the ``reference_*`` and ``score_*`` methods
of :class:`kbgrules.core.registry.Engine` and
:class:`kbgrules.core.registry.Scorer`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kbgrules.core.model import Ruleset, Source
from kbgrules.core.value import FrozenValue
from kbgrules.core.views import Block
from kbgrules.errors import Diagnostic


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Topic(FrozenValue):
    """A table of the game's own that ``kbg rules GAME NAME`` shows (``cards``); ``aliases`` are other
    names for it (``power-cards`` for ``cards``, say), written as :func:`kbgrules.core.datafiles.normalize`
    writes them."""

    name: str
    aliases: tuple[str, ...] = ()

    def named(self, key: str) -> bool:
        """Whether ``key`` (normalized) names this topic."""
        return key == self.name or key in self.aliases


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Page(FrozenValue):
    """One page of ``kbg rules`` or ``kbg score``: a heading, the blocks under it, a caution after them
    (``note``: a card's clarification), the sources it cites, and its JSON (the keys after the
    game, edition and variants every page starts with)."""

    title: str
    blocks: tuple[Block, ...]
    json: dict[str, Any] = field(repr=False)
    note: str | None = None
    sources: tuple[Source, ...] = ()


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class PositionFormat(FrozenValue):
    """How a game writes a position that ``kbg score`` reads: ``noun`` names one in messages
    (``grid``), ``help`` says how it is written."""

    noun: str
    help: str


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Scored(FrozenValue):
    """A position scored: its page, or None where the text cannot be read (``diagnostics`` then hold
    errors); warnings about a position that no real game reaches are diagnostics too."""

    page: Page | None
    diagnostics: tuple[Diagnostic, ...] = ()


def ruleset_title(rs: Ruleset) -> str:
    """``Game - Edition title + Variant title``: what a page of ``rs`` is about."""
    extra = "".join(f" + {v.title}" for v in rs.variants)
    return f"{rs.game.name} - {rs.edition.title}{extra}"


def sources_json(sources: Sequence[Source]) -> list[dict[str, Any]]:
    return [{"doc": s.doc, "section": s.section, "edition": s.edition, "note": s.note} for s in sources]
