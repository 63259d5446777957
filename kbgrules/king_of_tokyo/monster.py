"""King of Tokyo monsters: what a player has in front of it (``Monster``), the copies a state snapshot
takes of it, and the outcome of a game."""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

from kbgrules.core.outcome import Outcome as Outcome  # re-exported: its home before the core had one

TOKYO: Final = ("city", "bay")  # the places of a monster in Tokyo


@dataclass(slots=True, init=False)
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

    # written out: in the compiled build (docs/scale.md) dataclasses' own would be interpreted
    def __init__(self, name: str, hp: int, vp: int, energy: int, location: str = "outside", eliminated: bool = False,
                 cards: list[str] | None = None, tokens: dict[str, int] | None = None,
                 stored: dict[str, int] | None = None, mimic: str | None = None, shielded_turn: int = 0,
                 wickedness: int = 0, tiles: list[str] | None = None, levels: list[int] | None = None,
                 owed: list[int] | None = None, monster: str = "", evo_deck: Counter[str] | None = None,
                 evo_bottom: list[str] | None = None, evo_discard: Counter[str] | None = None,
                 hand: list[str] | None = None, evolutions: list[str] | None = None, evo_owed: int = 0,
                 secret: int = 0, dice_tokens: int = 0, icy: str | None = None, ufo: list[str] | None = None) -> None:
        self.name = name
        self.hp = hp
        self.vp = vp
        self.energy = energy
        self.location = location
        self.eliminated = eliminated
        self.cards = [] if cards is None else cards
        self.tokens = {"poison": 0, "shrink": 0, "smoke": 0, "mimic": 0} if tokens is None else tokens
        self.stored = {} if stored is None else stored
        self.mimic = mimic
        self.shielded_turn = shielded_turn
        self.wickedness = wickedness
        self.tiles = [] if tiles is None else tiles
        self.levels = [] if levels is None else levels
        self.owed = [] if owed is None else owed
        self.monster = monster
        self.evo_deck = _counter() if evo_deck is None else evo_deck
        self.evo_bottom = [] if evo_bottom is None else evo_bottom
        self.evo_discard = _counter() if evo_discard is None else evo_discard
        self.hand = [] if hand is None else hand
        self.evolutions = [] if evolutions is None else evolutions
        self.evo_owed = evo_owed
        self.secret = secret
        self.dice_tokens = dice_tokens
        self.icy = icy
        self.ufo = [] if ufo is None else ufo

    @property
    def in_tokyo(self) -> bool:
        return self.location in TOKYO


def _counter() -> Counter[str]:
    """``Counter()`` without its Python-level ``__init__``."""
    out: Counter[str] = Counter.__new__(Counter)
    return out


def copy_counter(c: Counter[str]) -> Counter[str]:
    """``Counter(c)`` without its Python-level ``update`` (the counts are already counts)."""
    out: Counter[str] = Counter.__new__(Counter)
    dict.update(out, c)
    return out


def copy_monster(m: Monster) -> Monster:
    """A copy whose lists, dicts and counters are copies too."""
    return restore_monster(record_monster(m))


def record_monster(m: Monster) -> tuple[Any, ...]:
    """What ``restore_monster`` makes ``m`` again from: its fields in order, each container copied (an empty
    one, common in the base game, as None). Snapshots take one of each monster, often: this is their cost."""
    return (
        m.name, m.hp, m.vp, m.energy, m.location, m.eliminated, m.cards.copy(), m.tokens.copy(),
        m.stored.copy() if m.stored else None, m.mimic, m.shielded_turn, m.wickedness,
        m.tiles.copy() if m.tiles else None, m.levels.copy() if m.levels else None,
        m.owed.copy() if m.owed else None, m.monster, copy_counter(m.evo_deck) if m.evo_deck else None,
        m.evo_bottom.copy() if m.evo_bottom else None, copy_counter(m.evo_discard) if m.evo_discard else None,
        m.hand.copy() if m.hand else None, m.evolutions.copy() if m.evolutions else None, m.evo_owed, m.secret,
        m.dice_tokens, m.icy, m.ufo.copy() if m.ufo else None)


def restore_monster(r: tuple[Any, ...]) -> Monster:
    """A new monster from ``record_monster``'s record, its containers copies of the record's (a record may
    be restored again)."""
    return Monster(
        r[0], r[1], r[2], r[3], r[4], r[5], r[6].copy(), r[7].copy(), None if r[8] is None else r[8].copy(),
        r[9], r[10], r[11], None if r[12] is None else r[12].copy(), None if r[13] is None else r[13].copy(),
        None if r[14] is None else r[14].copy(), r[15], None if r[16] is None else copy_counter(r[16]),
        None if r[17] is None else r[17].copy(), None if r[18] is None else copy_counter(r[18]),
        None if r[19] is None else r[19].copy(), None if r[20] is None else r[20].copy(), r[21], r[22], r[23],
        r[24], None if r[25] is None else r[25].copy())


# record_monster and restore_monster pass the fields in this order: a new field must be added there too
assert [f.name for f in dataclasses.fields(Monster)] == [
    "name", "hp", "vp", "energy", "location", "eliminated", "cards", "tokens", "stored", "mimic", "shielded_turn",
    "wickedness", "tiles", "levels", "owed", "monster", "evo_deck", "evo_bottom", "evo_discard", "hand",
    "evolutions", "evo_owed", "secret", "dice_tokens", "icy", "ufo"]
