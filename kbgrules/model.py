"""Typed, immutable views of an effective ruleset (base data + edition + variants)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kbgrules.errors import KbgError, PlayerCountError


@dataclass(frozen=True, slots=True)
class Source:
    """Where a fact is written: a document key (see ``Ruleset.documents``), a section, an edition."""

    doc: str
    section: str
    edition: str | None = None
    note: str | None = None

    def __str__(self) -> str:
        ed = f", {self.edition} edition" if self.edition else ""
        return f"{self.doc}{ed}, {self.section}"


@dataclass(frozen=True, slots=True)
class Document:
    key: str
    title: str
    kind: str
    authority: str
    edition: str | None = None


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One rule statement with a stable id such as ``kd.place.connect``."""

    id: str
    title: str
    text: str
    sources: tuple[Source, ...]
    related: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    conflict: str | None = None
    translations: Mapping[str, str] = field(default_factory=dict)  # ko, fr, vi: the text in that language


@dataclass(frozen=True, slots=True)
class Component:
    id: str
    name: str
    count: int | None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class OverlayInfo:
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


@dataclass(frozen=True, slots=True)
class GameInfo:
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

    @property
    def default_edition(self) -> OverlayInfo:
        return next(e for e in self.editions if e.default)


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """The rules in force for one game, edition, set of variants and (optionally) player count."""

    game: GameInfo
    edition: OverlayInfo
    variants: tuple[OverlayInfo, ...]
    players: int | None
    documents: Mapping[str, Document]
    components: tuple[Component, ...]
    rules: Mapping[str, RuleEntry]
    data: Mapping[str, Any] = field(repr=False)

    def rule(self, rule_id: str) -> RuleEntry:
        """The rule statement ``rule_id``; raises KbgError (code ``unknown-rule``) if absent."""
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


# --------------------------------------------------------------------------- Kingdomino


@dataclass(frozen=True, slots=True)
class Terrain:
    id: str
    letter: str
    name: str
    aliases: tuple[str, ...] = ()
    colour: str | None = None


@dataclass(frozen=True, slots=True)
class Half:
    """One square of a domino: a terrain id and a number of crowns."""

    terrain: str
    crowns: int


@dataclass(frozen=True, slots=True)
class Domino:
    number: int
    first: Half
    second: Half

    @property
    def halves(self) -> tuple[Half, Half]:
        return (self.first, self.second)

    @property
    def crowns(self) -> int:
        return self.first.crowns + self.second.crowns


@dataclass(frozen=True, slots=True)
class KingdominoSetup:
    """One row of the setup table. ``rounds`` is the number of lines drawn."""

    players: int
    kings_per_player: int
    dominoes_used: int
    dominoes_removed: int
    line_size: int
    rounds: int
    leftover_per_line: int
    sources: tuple[Source, ...]

    @property
    def kings_in_play(self) -> int:
        return self.players * self.kings_per_player

    @property
    def dominoes_per_player(self) -> int:
        return self.rounds * self.kings_per_player


@dataclass(frozen=True, slots=True)
class Bonus:
    id: str
    points: int
    active: bool
    reading: str


@dataclass(frozen=True, slots=True, kw_only=True)
class KingdominoRuleset(Ruleset):
    colours: tuple[str, ...]
    terrains: tuple[Terrain, ...]
    max_crowns_per_square: int
    dominoes: tuple[Domino, ...]
    setup_table: Mapping[int, KingdominoSetup]
    kingdom_size: int
    castle_wild: bool
    min_matching_edges: int
    diagonal_connects: bool
    discard: str
    bonuses: Mapping[str, Bonus]
    tiebreak: tuple[str, ...]
    games_per_match: int
    first_player_text: str
    first_player_method: str
    lines_text: str

    @property
    def setup(self) -> KingdominoSetup:
        """The setup row for ``players`` (raises PlayerCountError without a player count)."""
        return self.setup_table[self._need_players()]

    def domino(self, number: int) -> Domino:
        for d in self.dominoes:
            if d.number == number:
                return d
        raise KbgError(f"no domino numbered {number}", code="unknown-domino")

    def terrain(self, key: str) -> Terrain:
        """A terrain by id, letter or alias."""
        k = key.casefold()
        for t in self.terrains:
            if k in (t.id, t.letter.casefold(), t.name.casefold(), *(a.casefold() for a in t.aliases)):
                return t
        raise KbgError(f"unknown terrain {key!r}", code="unknown-terrain")


# --------------------------------------------------------------------------- King of Tokyo


@dataclass(frozen=True, slots=True)
class DieFace:
    id: str
    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Reward:
    resource: str  # "vp" or "energy"
    amount: int


@dataclass(frozen=True, slots=True)
class Card:
    """A power card. ``id`` is stable across editions; ``name`` is the edition's printed name."""

    id: str
    name: str
    cost: int
    type: str  # "keep" or "discard"
    effect: str
    sources: tuple[Source, ...]
    copies: int = 1
    clarification: str | None = None
    effects: tuple[Mapping[str, Any], ...] = ()
    hook: str | None = None
    kind: str = "card"  # card, tile (Dark Edition wickedness tile side) or evolution
    level: int = 0  # tile: the wickedness level it is taken at
    side: str = ""  # tile: red or green
    back: str = ""  # tile: the id of its other side
    monster: str = ""  # evolution: the monster whose deck it belongs to (slug)

    @property
    def key(self) -> str:
        """The engine's key: the id, prefixed for tiles and evolutions (their ids may repeat a card's)."""
        return self.id if self.kind == "card" else f"{self.kind}:{self.id}"


@dataclass(frozen=True, slots=True)
class Wickedness:
    """The Dark Edition's wickedness gauge: gains per three-of-a-kind, thresholds that give a tile."""

    gains: Mapping[str, int]
    max: int
    thresholds: tuple[int, ...]
    supply: Mapping[int, int]
    sides: tuple[str, ...]
    default_side: str


@dataclass(frozen=True, slots=True)
class EvolutionRules:
    """When and how evolutions are drawn (Power Up! and its options, the Godzilla edition)."""

    hearts: int
    draw: int
    keep: int
    others: str  # none, under-deck, discard
    reshuffle: bool
    start_draw: int = 0
    start_keep: int = 0
    start_others: str = "none"
    draft: bool = False


@dataclass(frozen=True, slots=True)
class KingOfTokyoSetup:
    players: int
    tokyo_spaces: tuple[str, ...]
    optional_tokyo_spaces: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class KingOfTokyoRuleset(Ruleset):
    monsters: tuple[str, ...]
    dice_faces: tuple[DieFace, ...]
    standard_dice: int
    extra_dice: int
    max_dice: int
    start_life: int
    start_vp: int
    start_energy: int
    max_life: int
    life_hard_cap: int
    vp_goal: int
    victory_check: str
    rolls: int
    set_size: int
    tokyo_spaces: tuple[str, ...]
    enter_mandatory: bool
    enter_requires_smash: bool
    bay_min_monsters: int
    heal_in_tokyo: bool
    enter_reward: Reward
    start_turn_reward: Reward
    market_size: int
    sweep_cost: int
    deck_exhausted: str
    phases: tuple[str, ...]
    cards: tuple[Card, ...]
    setup_table: Mapping[int, KingOfTokyoSetup]
    first_player_text: str
    tiles: tuple[Card, ...] = ()
    evolutions: tuple[Card, ...] = ()
    wickedness: Wickedness | None = None
    evolution: EvolutionRules | None = None
    dice_tokens_per_turn: int = 0
    buy_fallback_energy: int = 0
    sweep_keeps_events: bool = False

    @property
    def setup(self) -> KingOfTokyoSetup:
        """The setup row for ``players`` (raises PlayerCountError without a player count)."""
        return self.setup_table[self._need_players()]

    @property
    def deck_size(self) -> int:
        return sum(c.copies for c in self.cards)

    def card(self, key: str) -> Card:
        """A card by id or by name (case-insensitive)."""
        k = key.casefold()
        for c in self.cards:
            if k in (c.id, c.name.casefold()):
                return c
        raise KbgError(f"no card {key!r} in this edition", code="unknown-card")
