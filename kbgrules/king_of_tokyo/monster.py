"""King of Tokyo monsters: what a player has in front of it (``Monster``), the copies a state snapshot
takes of it, and the outcome of a game."""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field


@dataclass(slots=True)
class Monster:
    """A player's monster: life, VP, energy, place, cards and tokens, and what the editions add."""

    name: str
    hp: int
    vp: int
    energy: int
    location: str = "outside"  # outside, city, bay
    eliminated: bool = False
    cards: list[str] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=lambda: {"poison": 0, "shrink": 0, "smoke": 0, "mimic": 0})
    stored: dict[str, int] = field(default_factory=dict)  # energy kept on a card (Battery Monster)
    mimic: str | None = None  # the keep card this monster's Mimic token copies
    shielded_turn: int = 0  # Wings: no damage during this turn number
    wickedness: int = 0  # Dark Edition gauge
    tiles: list[str] = field(default_factory=list)  # wickedness tiles in front of the monster (ids)
    levels: list[int] = field(default_factory=list)  # thresholds already passed (a tile each)
    owed: list[int] = field(default_factory=list)  # thresholds passed whose tile is not taken yet
    monster: str = ""  # the monster (slug) whose evolution deck this player uses
    evo_deck: Counter[str] = field(default_factory=Counter)  # evolutions left in the deck
    evo_bottom: list[str] = field(default_factory=list)  # known cards put under the deck, top first
    evo_discard: Counter[str] = field(default_factory=Counter)
    hand: list[str] = field(default_factory=list)  # evolutions in hand; "?" for a secret one
    evolutions: list[str] = field(default_factory=list)  # permanent evolutions in play
    evo_owed: int = 0  # evolution draws owed (hearts this turn, or the start of the game)
    secret: int = 0  # cards out of the evolution deck whose names are not known (drawn as "?")
    dice_tokens: int = 0  # Godzilla edition
    icy: str | None = None  # Icy Reflection: the permanent evolution it copies (id)
    ufo: list[str] = field(default_factory=list)  # Superior Alien Technology: keep cards with a UFO token

    @property
    def in_tokyo(self) -> bool:
        return self.location in ("city", "bay")


def copy_counter(c: Counter[str]) -> Counter[str]:
    """``Counter(c)`` without its Python-level ``update`` (the counts are already counts)."""
    out: Counter[str] = Counter.__new__(Counter)
    dict.update(out, c)
    return out


def copy_monster(m: Monster) -> Monster:
    """A copy whose lists, dicts and counters are copies too."""
    return Monster(
        m.name, m.hp, m.vp, m.energy, m.location, m.eliminated, m.cards.copy(), m.tokens.copy(), m.stored.copy(),
        m.mimic, m.shielded_turn, m.wickedness, m.tiles.copy(), m.levels.copy(), m.owed.copy(), m.monster,
        copy_counter(m.evo_deck), m.evo_bottom.copy(), copy_counter(m.evo_discard), m.hand.copy(),
        m.evolutions.copy(), m.evo_owed, m.secret, m.dice_tokens, m.icy, m.ufo.copy())


# copy_monster passes the fields in this order: a new field must be added there too
assert [f.name for f in dataclasses.fields(Monster)] == [
    "name", "hp", "vp", "energy", "location", "eliminated", "cards", "tokens", "stored", "mimic", "shielded_turn",
    "wickedness", "tiles", "levels", "owed", "monster", "evo_deck", "evo_bottom", "evo_discard", "hand",
    "evolutions", "evo_owed", "secret", "dice_tokens", "icy", "ufo"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """Whether the game is over, its winners, and why it ended."""

    over: bool
    winners: tuple[str, ...]
    reason: str | None
