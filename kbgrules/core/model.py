"""Typed, immutable views of an effective ruleset (base data + edition + variants)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from kbgrules.core.value import FrozenValue
from kbgrules.core.words import fill
from kbgrules.errors import IllegalMoveError, KbgError, PlayerCountError


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Source(FrozenValue):
    """Where a fact is written: a document key (see ``Ruleset.documents``), a section, an edition."""

    doc: str
    section: str
    edition: str | None = None
    note: str | None = None

    def __str__(self) -> str:
        ed = f", {self.edition} edition" if self.edition else ""
        return f"{self.doc}{ed}, {self.section}"


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Document(FrozenValue):
    """A document the rules cite (a rulebook, an FAQ), by its key."""

    key: str
    title: str
    kind: str
    authority: str
    edition: str | None = None


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class RuleEntry(FrozenValue):
    """One rule statement with a stable id (``GAME.SECTION.NAME``, the game's short prefix first)."""

    id: str
    title: str
    text: str
    sources: tuple[Source, ...]
    related: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    conflict: str | None = None
    translations: Mapping[str, str] = field(default_factory=dict)  # ko, fr, vi, de, es: the text in that language
    title_translations: Mapping[str, str] = field(default_factory=dict)  # ko, fr, vi, de, es: the title


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Component(FrozenValue):
    """A component in the box: its id, its name and how many there are."""

    id: str
    name: str
    count: int | None
    note: str | None = None


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class OverlayInfo(FrozenValue):
    """An edition or a variant as listed by :func:`kbgrules.games`."""

    id: str
    kind: str  # "edition" or "variant"
    title: str
    summary: str
    aliases: tuple[str, ...] = ()
    default: bool = False
    option: bool = False
    players: tuple[int, ...] | None = None
    editions: tuple[str, ...] | None = None
    conflicts: tuple[str, ...] = ()
    sources: tuple[Source, ...] = ()
    file: str | None = None


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class GameInfo(FrozenValue):
    """A game as listed by :func:`kbgrules.games`: its names, player counts, editions and variants."""

    id: str
    name: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    summary: str
    editions: tuple[OverlayInfo, ...]
    variants: tuple[OverlayInfo, ...]
    year: int | None = None
    designers: tuple[str, ...] = ()
    publisher: str | None = None
    short: str = ""  # the prefix of its entry ids (the game's id when its data gives none)
    name_translations: tuple[tuple[str, str], ...] = ()  # (language, name) where it is written otherwise

    @property
    def default_edition(self) -> OverlayInfo:
        return next(e for e in self.editions if e.default)


@dataclass(frozen=True, slots=True, kw_only=True, repr=False, eq=False)
class Ruleset(FrozenValue):
    """The rules in force for one game, edition, set of variants and (optionally) player count."""

    game: GameInfo
    edition: OverlayInfo
    variants: tuple[OverlayInfo, ...]
    players: int | None
    documents: Mapping[str, Document]
    components: tuple[Component, ...]
    rules: Mapping[str, RuleEntry]
    data: Mapping[str, Any] = field(repr=False)
    rules_dirs: tuple[str, ...] = ()  # the folders of user rule files it was loaded with (load's rules_dirs)

    # kbgrules.core.load, which makes every ruleset, sets it as it builds one (no arrow from here to it)
    loader: ClassVar[Callable[..., Ruleset] | None] = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the load that made it: unpickling loads it again (the same object, in a process
        that has it already; the rule files as they are then, in another)."""
        if Ruleset.loader is None:
            raise TypeError("a ruleset pickles as its load: import kbgrules.core.load first")
        edition = None if self.edition.default else self.edition.id
        key = (self.game.id, edition, tuple(v.id for v in self.variants), self.players, self.rules_dirs)
        return Ruleset.loader, key

    def rule(self, rule_id: str) -> RuleEntry:
        """The rule statement ``rule_id``; raises KbgError (code ``unknown-rule``) if absent."""
        from kbgrules.core import args

        args.text(rule_id, "rule_id")
        try:
            return self.rules[rule_id]
        except KeyError:
            raise KbgError(f"no rule {rule_id!r} in {self.game.name}", code="unknown-rule") from None

    def has_variant(self, variant_id: str) -> bool:
        return any(v.id == variant_id for v in self.variants)

    def _need_players(self) -> int:
        if self.players is None:
            raise PlayerCountError(f"{self.game.name}: this needs a player count (players=...)")
        return self.players


def violation(rs: Ruleset, code: str, **params: Any) -> IllegalMoveError:
    """An IllegalMoveError whose rule id and message template come from the game's rule data
    (``codes`` in its game.yaml: the one place a violation's wording lives); a count is written
    ``{name:one|many}`` there (:func:`kbgrules.core.words.fill`)."""
    entry = rs.data["codes"][code]
    return IllegalMoveError(code, str(entry["rule"]), fill(str(entry["message"]), params), params)

