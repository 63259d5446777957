"""The King of Tokyo ruleset: dice, Tokyo, the market, the power cards, wickedness tiles and
evolutions, and the numbers the rules use, built from the effective data tree."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from kbgrules.core import args
from kbgrules.core.build import common_fields, freeze, sources, strs
from kbgrules.core.effective import Resolved
from kbgrules.core.model import Ruleset, Source
from kbgrules.core.value import FrozenValue
from kbgrules.errors import KbgError


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class DieFace(FrozenValue):
    """A face of the dice: its id, its name and the words a log may write for it."""

    id: str
    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Reward(FrozenValue):
    """What a monster gains: an amount of a resource."""

    resource: str  # "vp" or "energy"
    amount: int


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Card(FrozenValue):
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


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Wickedness(FrozenValue):
    """The Dark Edition's wickedness gauge: gains per three-of-a-kind, thresholds that give a tile."""

    gains: Mapping[str, int]
    max: int
    thresholds: tuple[int, ...]
    supply: Mapping[int, int]
    sides: tuple[str, ...]
    default_side: str


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class EvolutionRules(FrozenValue):
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


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class KingOfTokyoSetup(FrozenValue):
    """The Tokyo spaces in play for a player count."""

    players: int
    tokyo_spaces: tuple[str, ...]
    optional_tokyo_spaces: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True, repr=False, eq=False)
class KingOfTokyoRuleset(Ruleset):
    """King of Tokyo's rules in force: the ruleset's common fields and the game's own."""

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
    # tables the engine derives from this ruleset's data on first use (never part of the rules themselves)
    derived: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def setup(self) -> KingOfTokyoSetup:
        """The setup row for ``players`` (raises PlayerCountError without a player count)."""
        return self.setup_table[self._need_players()]

    @property
    def deck_size(self) -> int:
        return sum(c.copies for c in self.cards)

    def card(self, key: str) -> Card:
        """A card by id or by name (case-insensitive)."""
        args.text(key, "key")
        k = key.casefold()
        for c in self.cards:
            if k in (c.id, c.name.casefold()):
                return c
        raise KbgError(f"no card {key!r} in this edition", code="unknown-card")


def _reward(r: Mapping[str, Any]) -> Reward:
    return Reward(str(r["resource"]), int(r["amount"]))


def build(res: Resolved) -> KingOfTokyoRuleset:
    """The King of Tokyo ruleset of an effective data tree."""
    t = res.tree
    cards = tuple(
        Card(id=cid, name=str(c["name"]), cost=int(c["cost"]), type=str(c["type"]),
             effect=str(c["effect"]).strip(), sources=sources(c.get("sources")), copies=int(c.get("copies", 1)),
             clarification=None if c.get("clarification") is None else str(c["clarification"]).strip(),
             effects=tuple(freeze(e) for e in c.get("effects") or ()), hook=c.get("hook"))
        for cid, c in (t.get("cards") or {}).items()
    )
    tiles = tuple(
        Card(id=tid, name=str(c["name"]), cost=0, type=str(c["type"]), effect=str(c["effect"]).strip(),
             sources=sources(c.get("sources")), kind="tile", level=int(c["level"]), side=str(c["side"]),
             back=str(c.get("back") or ""), hook=c.get("hook"),
             clarification=None if c.get("clarification") is None else str(c["clarification"]).strip(),
             effects=tuple(freeze(e) for e in c.get("effects") or ()))
        for tid, c in (t.get("tiles") or {}).items()
    ) if t.get("wickedness") else ()
    evolutions = tuple(
        Card(id=eid, name=str(c["name"]), cost=0, type=str(c["type"]), effect=str(c["effect"]).strip(),
             sources=sources(c.get("sources")), kind="evolution", monster=str(c["monster"]), hook=c.get("hook"),
             copies=int(c.get("copies", 1)),
             clarification=None if c.get("clarification") is None else str(c["clarification"]).strip(),
             effects=tuple(freeze(e) for e in c.get("effects") or ()))
        for eid, c in (t.get("evolutions") or {}).items()
    ) if (t.get("evolution") or {}).get("enabled") else ()
    w = t.get("wickedness")
    wickedness = None if not w else Wickedness(
        gains=MappingProxyType({str(k): int(v) for k, v in w["gains"].items()}), max=int(w["max"]),
        thresholds=tuple(int(x) for x in w["thresholds"]),
        supply=MappingProxyType({int(k): int(v) for k, v in (w.get("supply") or {}).items()}),
        sides=strs(w["sides"]), default_side=str(w["default_side"]))
    ev: Mapping[str, Any] = t.get("evolution") or {}
    start_ev = ev.get("start") or {}
    evolution = None if not ev.get("enabled") else EvolutionRules(
        hearts=int(ev["hearts"]), draw=int(ev["draw"]), keep=int(ev["keep"]), others=str(ev["others"]),
        reshuffle=bool(ev["reshuffle"]), start_draw=int(start_ev.get("draw", 0)),
        start_keep=int(start_ev.get("keep", 0)), start_others=str(start_ev.get("others", "none")),
        draft=bool(ev.get("draft", False)))
    setup = {int(k): KingOfTokyoSetup(int(k), strs(r["tokyo_spaces"]), strs(r.get("optional_tokyo_spaces")))
             for k, r in t["setup"].items()}
    dice, tokyo, start = t["dice"], t["tokyo"], t["monster_start"]
    return KingOfTokyoRuleset(
        **common_fields(res),
        monsters=strs(t.get("monsters")),
        dice_faces=tuple(DieFace(str(f["id"]), str(f["name"]), strs(f.get("aliases"))) for f in dice["faces"]),
        standard_dice=int(dice["standard"]), extra_dice=int(dice["extra"]), max_dice=int(dice["max"]),
        start_life=int(start["life"]), start_vp=int(start["vp"]), start_energy=int(start["energy"]),
        max_life=int(t["life"]["max"]), life_hard_cap=int(t["life"]["hard_cap"]),
        vp_goal=int(t["victory"]["vp_goal"]), victory_check=str(t["victory"]["check"]),
        rolls=int(t["roll"]["rolls"]), set_size=int(t["roll"]["set_size"]),
        tokyo_spaces=strs(tokyo["spaces"]), enter_mandatory=bool(tokyo["enter_mandatory"]),
        enter_requires_smash=bool(tokyo["enter_requires_smash"]), bay_min_monsters=int(tokyo["bay_min_monsters"]),
        heal_in_tokyo=bool(tokyo["heal_in_tokyo"]), enter_reward=_reward(tokyo["rewards"]["enter"]),
        start_turn_reward=_reward(tokyo["rewards"]["start_turn"]),
        market_size=int(t["market"]["size"]), sweep_cost=int(t["market"]["sweep_cost"]),
        deck_exhausted=str(t["market"].get("deck_exhausted", "reshuffle-discards")),
        phases=strs(t["turn"]["phases"]), cards=cards, setup_table=MappingProxyType(dict(sorted(setup.items()))),
        first_player_text=str(t["first_player"]["text"]).strip(),
        tiles=tiles, evolutions=evolutions, wickedness=wickedness, evolution=evolution,
        dice_tokens_per_turn=int((t.get("dice_tokens") or {}).get("per_turn", 0)),
        buy_fallback_energy=int((t["market"].get("buy_fallback") or {}).get("energy", 0)),
        sweep_keeps_events=bool(t["market"].get("sweep_keeps_events", False)),
    )
