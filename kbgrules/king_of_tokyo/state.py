"""King of Tokyo: monsters, dice, Tokyo and the market, and the game state used by the rule checker.

The state follows the turn phases of the rules: start, roll, resolve (computed when the rolling
ends), Tokyo decisions (yield or stay), enter Tokyo, buy, end. Chance outcomes (dice faces,
revealed cards) arrive as actions, so a replay never rolls or shuffles.

>>> import kbgrules
>>> from kbgrules.king_of_tokyo.state import KingOfTokyoState, Roll, EndTurn
>>> rs = kbgrules.load("king-of-tokyo", players=2)
>>> st = KingOfTokyoState(rs, ["Ann", "Bob"], market=["corner-store", "heal", "tank"])
>>> st.apply(Roll(("1", "1", "1", "smash", "energy", "heart")))
>>> st.apply(EndTurn(0))
>>> [(m.name, m.hp, m.vp, m.energy, m.location) for m in st.monsters]
[('Ann', 10, 2, 1, 'city'), ('Bob', 10, 0, 0, 'outside')]
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kbgrules.errors import IllegalMoveError, KbgError
from kbgrules.model import KingOfTokyoRuleset

FACES = ("1", "2", "3", "energy", "heart", "smash")
FACE_ALIASES = {
    "1": "1", "2": "2", "3": "3", "e": "energy", "energy": "energy", "lightning": "energy", "bolt": "energy",
    "h": "heart", "heart": "heart", "heal": "heart", "health": "heart", "s": "smash", "smash": "smash",
    "claw": "smash", "attack": "smash",
}
SHORT = {"1": "1", "2": "2", "3": "3", "energy": "e", "heart": "h", "smash": "s"}


def violation(rs: KingOfTokyoRuleset, code: str, **params: Any) -> IllegalMoveError:
    """An IllegalMoveError whose rule id and message template come from the rule data (``codes``)."""
    entry = rs.data["codes"][code]
    return IllegalMoveError(code, str(entry["rule"]), str(entry["message"]).format(**params), params)


class ChanceNeeded(Exception):
    """Camouflage: ``monster`` is about to lose ``count`` life and its dice for that are not known yet.

    The state is left as it was before the action; give the dice with
    :meth:`KingOfTokyoState.camouflage_roll` and apply the same action again.
    """

    def __init__(self, monster: int, count: int) -> None:
        super().__init__(f"monster {monster} rolls {count} dice for Camouflage")
        self.monster = monster
        self.count = count


class UnsupportedCardError(KbgError):
    """A card whose effect the checker cannot replay yet (it names a hook that is not written)."""

    code = "kot-unsupported-card"


def face(text: str) -> str | None:
    """The face id for a word or letter (``s``, ``claw``, ``3``), or None."""
    return FACE_ALIASES.get(text.lower())


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the first roll of a turn, the face of every die."""

    faces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reroll:
    """Re-roll the dice showing ``dice`` (faces, one per die) and the chance outcome ``faces``."""

    dice: tuple[str, ...]
    faces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Keep:
    """Stop rolling: the dice showing now are the results."""


@dataclass(frozen=True, slots=True)
class Decide:
    """A monster in Tokyo, damaged by smashes, yields or stays."""

    monster: int
    yields: bool


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy from the market (``reveal`` replaces it), the top of the deck (Made in a Lab: ``top``),
    or another monster (Parasitic Tentacles: ``seller``)."""

    monster: int
    card: str
    reveal: str | None  # the card revealed to replace it (None when the deck is empty)
    top: bool = False
    seller: int | None = None


@dataclass(frozen=True, slots=True)
class Sweep:
    monster: int
    reveals: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EndTurn:
    monster: int


@dataclass(frozen=True, slots=True)
class Use:
    """A card's optional action: ``NAME use CARD ARGS...`` (see kbgrules.king_of_tokyo.cards.base)."""

    monster: int
    card: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Cure:
    """Spend heart results to remove Poison or Shrink tokens instead of healing (outside Tokyo)."""

    monster: int
    token: str  # "poison" or "shrink"
    count: int = 1


@dataclass(frozen=True, slots=True)
class Take:
    """Dark Edition: take a wickedness tile (after reaching a threshold of the gauge)."""

    monster: int
    tile: str


@dataclass(frozen=True, slots=True)
class Evolve:
    """Chance and choice: draw evolutions (``drawn``; "?" for a secret card) and keep ``kept``."""

    monster: int
    drawn: tuple[str, ...]
    kept: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """Play an evolution from the hand: ``NAME play CARD ARGS...``."""

    monster: int
    card: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Tokens:
    """Godzilla edition: spend dice tokens before the first roll for that many extra dice."""

    monster: int
    count: int


Action = Roll | Reroll | Keep | Decide | Buy | Sweep | EndTurn | Use | Cure | Take | Evolve | Play | Tokens


# --------------------------------------------------------------------------- state


@dataclass(slots=True)
class Monster:
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


def _copy_counter(c: Counter[str]) -> Counter[str]:
    """``Counter(c)`` without its Python-level ``update`` (the counts are already counts)."""
    out: Counter[str] = Counter.__new__(Counter)
    dict.update(out, c)
    return out


def _copy_monster(m: Monster) -> Monster:
    """A copy whose lists, dicts and counters are copies too."""
    return Monster(
        m.name, m.hp, m.vp, m.energy, m.location, m.eliminated, m.cards.copy(), m.tokens.copy(), m.stored.copy(),
        m.mimic, m.shielded_turn, m.wickedness, m.tiles.copy(), m.levels.copy(), m.owed.copy(), m.monster,
        _copy_counter(m.evo_deck), m.evo_bottom.copy(), _copy_counter(m.evo_discard), m.hand.copy(),
        m.evolutions.copy(), m.evo_owed, m.secret, m.dice_tokens, m.icy, m.ufo.copy())


# _copy_monster passes the fields in this order: a new field must be added there too
assert [f.name for f in dataclasses.fields(Monster)] == [
    "name", "hp", "vp", "energy", "location", "eliminated", "cards", "tokens", "stored", "mimic", "shielded_turn",
    "wickedness", "tiles", "levels", "owed", "monster", "evo_deck", "evo_bottom", "evo_discard", "hand",
    "evolutions", "evo_owed", "secret", "dice_tokens", "icy", "ufo"]


_HOOKS: list[dict[str, Any]] = []  # kot_hooks.HOOKS itself, imported on first use


def _hooks() -> dict[str, Any]:
    if not _HOOKS:
        from kbgrules.king_of_tokyo.cards.base import HOOKS

        _HOOKS.append(HOOKS)
    return _HOOKS[0]


@dataclass(frozen=True, slots=True)
class Outcome:
    over: bool
    winners: tuple[str, ...]
    reason: str | None


class KingOfTokyoState:
    """A game in progress: ``legal_actions()`` for player decisions, ``apply()`` checked by default."""

    def __init__(self, rs: KingOfTokyoRuleset, players: Sequence[str], market: Sequence[str] = (),
                 first: int = 0, begin: bool = True, monsters: Sequence[str] = ()) -> None:
        if rs.players != len(players):
            raise KbgError(f"the ruleset was loaded for {rs.players} players, not {len(players)}",
                           code="player-count")
        self.rs = rs
        self.players = tuple(players)
        self.monsters = [Monster(p, rs.start_life, rs.start_vp, rs.start_energy) for p in players]
        self.cards = {c.key: c for c in (*rs.cards, *rs.tiles, *rs.evolutions)}
        self.has_events = any(c.type == "event" for c in rs.cards)
        self.tile_sides = rs.wickedness.default_side if rs.wickedness else ""
        self.tile_supply: list[str] = [t.id for t in rs.tiles if t.side == "red" or not t.back]
        self.tile_faces: dict[str, str] = {}  # mixed sides: physical tile (red id) -> the side that is up
        self.bought = False  # a card was bought this turn (Godzilla: otherwise 1 energy)
        self.token_dice = 0  # dice tokens spent this turn
        self.deck: Counter[str] = Counter({c.id: c.copies for c in rs.cards})
        self.discards: Counter[str] = Counter()
        self.market: list[str] = []
        self.active = first
        self.phase = "roll"
        self.dice: list[str] = []
        self.rolls = 0
        self.smash_damage: dict[int, int] = {}
        self.smashes = 0
        self.dealt_damage = False
        self.extra_turn = False
        self.frenzy_now = False
        self.bonus_rolls = 0
        self.fewer_dice = 0
        self.fewer_dice_next = 0
        self.used_this_turn: set[str] = set()
        self.cures: dict[str, int] = {}
        self.final_dice: list[str] = []
        self.just_revealed: set[str] = set()
        self.heal_rays: list[tuple[int, int]] = []  # Healing Ray: (monster, hearts)
        self.camouflage: dict[int, list[tuple[str, ...]]] = {}  # known Camouflage dice, by monster
        self.deck_order: list[str] = []  # the known top of the deck, when a position states it
        self.pending: list[int] = []  # monsters that may still yield
        self.turn_number = 1
        self.over: Outcome | None = None
        self.history: list[Action] = []
        self.turn_ends: list[tuple[int, list[tuple[int, int, int, str, bool, int]]]] = []  # for `kbg show`
        self.log: list[str] = []  # what the checker computed, for people
        self.starting = False  # before the first turn: starting evolutions are drawn
        self.smashing: int | None = None  # the monster the active monster's smashes are hurting right now
        self.turn_losses: list[tuple[int, int | None, int, bool]] = []  # this turn: (monster, source, lost, smash)
        # the state just before the last Enter Tokyo step: (turn, actions applied, snapshot) (Monkey Rush)
        self.enter_snapshot: tuple[int, int, dict[str, Any]] | None = None
        # derived from the card data only (never stale, shared by snapshots): by in_play keys
        self._effects_cache: dict[tuple[tuple[str, ...], str], tuple[Mapping[str, Any], ...]] = {}
        self._static_cache: dict[tuple[tuple[str, ...], str], int] = {}
        self._hooks_cache: dict[tuple[str, ...], tuple[tuple[str, Any], ...]] = {}
        self._rushers = frozenset(c.id for c in rs.evolutions if c.hook in ("monkey_rush", "feline_motor"))
        for m, monster in zip(self.monsters, monsters, strict=False):
            m.monster = monster
            m.evo_deck = Counter({c.id: c.copies for c in rs.evolutions if c.monster == monster})
        if rs.evolution is not None and rs.evolution.start_draw:
            self.starting = True
            for m in self.monsters:
                m.evo_owed = 1
        if market:
            self.reveal(list(market))
        if begin:
            self.start_turn()

    # ---------------------------------------------------------------- helpers

    def _fail(self, code: str, **params: Any) -> IllegalMoveError:
        return violation(self.rs, code, **params)

    @property
    def me(self) -> Monster:
        return self.monsters[self.active]

    def alive(self) -> list[int]:
        return [i for i, m in enumerate(self.monsters) if not m.eliminated]

    def bay_open(self) -> bool:
        row = self.rs.setup_table.get(len(self.alive()))
        spaces = row.tokyo_spaces if row else ("city",)
        return "bay" in self.rs.tokyo_spaces and "bay" in spaces and len(self.alive()) >= self.rs.bay_min_monsters

    def occupant(self, space: str) -> int | None:
        for i, m in enumerate(self.monsters):
            if m.location == space and not m.eliminated:
                return i
        return None

    # ---------------------------------------------------------------- card effects (data in cards.yaml)

    def in_play(self, m: Monster) -> list[str]:
        """The keys of what works for the monster: keep cards, the card its Mimic (or Fluxling) copies
        while someone holds it, wickedness tiles and permanent evolutions."""
        tiles, evolutions, mimic = m.tiles, m.evolutions, m.mimic
        if mimic is None and not tiles and not evolutions:
            return m.cards
        cards = list(m.cards)
        if tiles:
            cards += ["tile:" + t for t in tiles]
        if evolutions:
            cards += ["evolution:" + e for e in evolutions]
        if mimic is not None and ("mimic" in cards or "tile:fluxling" in cards) and any(
                mimic in o.cards for o in self.monsters if not o.eliminated):
            cards.append(mimic)
        if m.icy is not None and "evolution:icy-reflection" in cards and any(
                m.icy in o.evolutions for o in self.monsters if not o.eliminated):
            cards.append(f"evolution:{m.icy}")  # Icy Reflection's copy, while someone has the card in play
        return cards

    def _card_effects(self, keys: tuple[str, ...], when: str) -> tuple[Mapping[str, Any], ...]:
        """The effects of the cards ``keys`` (as ``in_play`` gives them) that act ``when``; cached, as cards
        do not change."""
        found = self._effects_cache.get((keys, when))
        if found is None:
            cards = self.cards
            found = tuple(e for cid in keys for e in cards[cid].effects if e["when"] == when)
            self._effects_cache[(keys, when)] = found
        return found

    def _market_effects(self) -> list[Mapping[str, Any]]:
        """The effects of the events in the market, which act on every monster."""
        return [e for cid in self.market for e in self.cards[cid].effects if e["when"] == "market"]

    def effects(self, m: Monster, when: str) -> Sequence[Mapping[str, Any]]:
        found = self._card_effects(tuple(self.in_play(m)), when)
        if when == "always" and self.has_events:
            return [*found, *self._market_effects()]
        return found

    def static(self, m: Monster, key: str) -> int:
        keys = tuple(self.in_play(m))
        total = self._static_cache.get((keys, key))
        if total is None:
            total = sum(int(e.get(key, 0)) for e in self._card_effects(keys, "always"))
            self._static_cache[(keys, key)] = total
        if self.has_events:
            total += sum(int(e.get(key, 0)) for e in self._market_effects())
        return total

    def holds(self, m: Monster, key: str) -> bool:
        return any(key in e for e in self.effects(m, "always"))

    def condition(self, m: Monster, cond: Mapping[str, Any] | None) -> bool:
        if not cond:
            return True
        counts = Counter(self.dice)
        for key, want in cond.items():
            if key == "faces" and any(counts[f] < n for f, n in want.items()):
                return False
            if key == "each_face" and any(counts[f] == 0 for f in FACES):
                return False
            if key == "in_tokyo" and m.in_tokyo != want:
                return False
            if key == "energy" and m.energy != want:
                return False
            if key == "dealt_no_damage" and self.dealt_damage:
                return False
            if key == "fewest_vp" and any(o.vp <= m.vp for o in self.monsters if o is not m and not o.eliminated):
                return False
        return True

    def apply_gains(self, m: Monster, e: Mapping[str, Any]) -> None:
        gain = e.get("gain") or {}
        if gain.get("vp"):
            m.vp += int(gain["vp"])
        if gain.get("energy"):
            self.gain_energy(m, int(gain["energy"]))
        if gain.get("hp"):
            self.heal(m, int(gain["hp"]))
        if gain.get("wickedness"):
            self.add_wickedness(m, int(gain["wickedness"]))
        if gain.get("dice_tokens"):
            m.dice_tokens += int(gain["dice_tokens"])
        per = e.get("gain_per_energy")
        if per:
            m.vp += int(per["vp"]) * (m.energy // int(per["per"]))

    def trigger(self, m: Monster, when: str) -> None:
        for e in list(self.effects(m, when)):
            if self.condition(m, e.get("if")):
                self.card_effect(m, e)

    def entered(self, m: Monster) -> None:
        """The monster has just moved into Tokyo (from outside)."""
        self.trigger(m, "enter")
        for _, hook in self.hooks_of(m):
            hook.on_enter(self, m)

    # ---------------------------------------------------------------- Dark Edition: wickedness

    def add_wickedness(self, m: Monster, amount: int) -> None:
        w = self.rs.wickedness
        if w is None or amount <= 0:
            return
        before = m.wickedness
        m.wickedness = min(w.max, before + amount)
        for level in w.thresholds:
            if before < level <= m.wickedness and level not in m.levels:
                m.levels.append(level)
                if self.tiles_left(level):
                    m.owed.append(level)

    def tiles_left(self, level: int) -> list[str]:
        """The tile sides that can still be taken at ``level`` (given the sides in play)."""
        out = []
        for red in self.tile_supply:
            t = self.cards[f"tile:{red}"]
            if t.level != level:
                continue
            up = self.tile_faces.get(red)
            if up is not None:
                out.append(up)
            elif self.tile_sides == "mixed":
                out += [red, t.back] if t.back else [red]
            else:
                out.append(red if self.tile_sides == "red" or not t.back else t.back)
        return out

    def _take(self, action: Take) -> None:
        m = self.monsters[action.monster]
        if action.monster == self.active and self.phase == "roll" and self.rolls:
            self._resolve()
        key = f"tile:{action.tile}"
        tile = self.cards.get(key)
        if tile is None:
            raise self._fail("dark-tile-unknown", tile=action.tile, why="see kbg rules kot --edition dark")
        if tile.level not in m.owed:
            why = (f"its wickedness ({m.wickedness}) has not just reached {tile.level}" if tile.level not in m.levels
                   else f"it has already taken its level-{tile.level} tile")
            raise self._fail("dark-tile-level", monster=m.name, tile=tile.name, why=why)
        if action.tile not in self.tiles_left(tile.level):
            sides = "the red sides" if self.tile_sides == "red" else "the green sides" if \
                self.tile_sides == "green" else "the sides that are up"
            left = ", ".join(self.cards[f"tile:{t}"].name for t in self.tiles_left(tile.level)) or "none"
            raise self._fail("dark-tile-level", monster=m.name, tile=tile.name,
                             why=f"it is not available (this game plays {sides}; left at level {tile.level}: {left})")
        m.owed.remove(tile.level)
        red = action.tile if tile.side == "red" or not tile.back else tile.back
        self.tile_supply.remove(red)
        if tile.type == "keep":
            m.tiles.append(action.tile)
        self.log.append(f"{m.name} takes the wickedness tile {tile.name}")
        for e in tile.effects:
            if e["when"] == "buy":
                self.card_effect(m, e)
        if tile.hook is not None:
            from kbgrules.king_of_tokyo.cards.base import HOOKS

            if tile.hook not in HOOKS:
                raise UnsupportedCardError(f"kbg check cannot replay the tile {tile.name} yet (its effect needs "
                                           f"the {tile.hook!r} hook, not written yet)")
            HOOKS[tile.hook].on_buy(self, m)

    # ---------------------------------------------------------------- evolutions (Power Up!, Godzilla)

    def evolutions_left(self, m: Monster) -> int:
        ev = self.rs.evolution
        left = sum(m.evo_deck.values()) - m.secret
        if ev is not None and ev.reshuffle:
            left += sum(m.evo_discard.values())
        return left

    def _draw_evolution(self, m: Monster, card: str) -> None:
        """Take ``card`` (or "?", a secret one) off the top of the monster's deck."""
        ev = self.rs.evolution
        if sum(m.evo_deck.values()) - m.secret <= 0 and ev is not None and ev.reshuffle and m.evo_discard:
            m.evo_deck, m.evo_discard = m.evo_deck + m.evo_discard, Counter()
            m.evo_bottom = []
            m.secret = m.hand.count("?")
            self.log.append(f"{m.name} shuffles its evolution discard pile into a new deck")
        if card == "?":
            if sum(m.evo_deck.values()) - m.secret <= 0:
                raise self._fail("evo-not-in-deck", card="a card", monster=m.name, why="the deck is empty")
            m.secret += 1
            m.evo_bottom = []  # the order under the deck is no longer known
            return
        key = f"evolution:{card}"
        name = self.cards[key].name if key in self.cards else card
        if m.evo_deck[card] <= 0:
            why = (f"it is not one of {m.monster or m.name}'s evolutions" if card not in self.deck_of(m)
                   else "it was drawn already")
            raise self._fail("evo-not-in-deck", card=name, monster=m.name, why=why)
        top = m.evo_deck - Counter(m.evo_bottom)
        if sum(top.values()) - m.secret <= 0 and m.evo_bottom:
            if m.evo_bottom[0] != card:
                first = self.cards["evolution:" + m.evo_bottom[0]].name
                raise self._fail("evo-not-in-deck", card=name, monster=m.name,
                                 why=f"only the cards put under the deck are left, {first} first")
            m.evo_bottom.pop(0)
        elif top[card] <= 0:
            raise self._fail("evo-not-in-deck", card=name, monster=m.name, why="it lies under the deck")
        m.evo_deck[card] -= 1

    def deck_of(self, m: Monster) -> set[str]:
        return {c.id for c in self.rs.evolutions if c.monster == m.monster}

    def _evolve(self, action: Evolve) -> None:
        ev = self.rs.evolution
        m = self.monsters[action.monster]
        if ev is None:
            raise self._fail("kot-unexpected", expected=self.expected(),
                             got="an evolution draw (no evolutions in play)")
        if action.monster == self.active and self.phase == "roll" and self.rolls and not self.starting:
            self._resolve()
        starting = self.starting
        draw, keep = (ev.start_draw, ev.start_keep) if starting else (ev.draw, ev.keep)
        if m.evo_owed <= 0:
            why = ("its rolling ended with fewer than 3 hearts" if action.monster == self.active
                   else "only the monster whose turn it is draws, after its roll")
            if starting:
                why = "it has drawn its starting evolution already" if draw else "no evolution is drawn at the start"
            raise self._fail("evo-not-owed", monster=m.name, why=why)
        left = self.evolutions_left(m)
        want = min(draw, left)
        if len(action.drawn) != want or len(action.kept) != min(keep, want) or any(
                action.drawn.count(k) < action.kept.count(k) for k in action.kept):
            raise self._fail("evo-keep", monster=m.name, keep=min(keep, want), drawn=want)
        for c in action.drawn:
            self._draw_evolution(m, c)
        rest = list(action.drawn)
        for c in action.kept:
            rest.remove(c)
            m.hand.append(c)
        others = ev.start_others if starting else ev.others
        for c in rest:
            back = others in ("under-deck", "shuffle-back")
            if c == "?":
                if back:
                    m.secret -= 1  # back in the deck, still unknown
                continue  # discarded unseen: it stays out of the deck, uncounted
            if back:
                m.evo_deck[c] += 1
                if others == "under-deck":
                    m.evo_bottom.append(c)
            else:
                m.evo_discard[c] += 1
        m.evo_owed -= 1

    def _play(self, action: Play) -> None:
        from kbgrules.king_of_tokyo.cards.base import HOOKS

        m = self.monsters[action.monster]
        key = f"evolution:{action.card}"
        card = self.cards.get(key)
        if card is None or m.eliminated:
            raise self._fail("evo-not-in-hand", monster=m.name, card=card.name if card else action.card)
        early = HOOKS.get(card.hook or "")
        if early is not None and (action.card in m.hand or ("?" in m.hand and m.evo_deck[action.card] > 0)):
            early.may_play(self, action.monster, action.args)  # refuses before the card leaves the hand
        if action.card in m.hand:
            m.hand.remove(action.card)
        elif "?" in m.hand and m.evo_deck[action.card] > 0:
            m.hand.remove("?")
            m.evo_deck[action.card] -= 1
            m.secret -= 1
        else:
            raise self._fail("evo-not-in-hand", monster=m.name, card=card.name)
        hook = HOOKS.get(card.hook or "")
        if card.hook is not None and hook is None:
            raise UnsupportedCardError(f"kbg check cannot replay the evolution {card.name} yet (its effect needs "
                                       f"the {card.hook!r} hook, not written yet)")
        if hook is not None and hook.after_roll and action.monster == self.active:
            if self.phase == "roll" and self.rolls:
                self._resolve()
            if self.phase == "decide":
                self.finish_decisions()
        if card.type == "permanent":
            m.evolutions.append(action.card)
        else:
            m.evo_discard[action.card] += 1
        self.log.append(f"{m.name} plays the evolution {card.name}")
        for e in card.effects:
            if e["when"] == "play":
                self.card_effect(m, e)
        if hook is not None:
            hook.use(self, action.monster, action.args) if card.type == "temporary" else hook.on_buy(self, m)
            if card.type == "permanent" and action.args:  # played and used at once: play gamma-breath FACE
                hook.use(self, action.monster, action.args)

    # ---------------------------------------------------------------- Godzilla edition: dice tokens

    def _tokens(self, action: Tokens) -> None:
        m = self.monsters[action.monster]
        per = self.rs.dice_tokens_per_turn
        if not per:
            raise self._fail("kot-unexpected", expected=self.expected(), got="dice tokens (none in this edition)")
        if action.monster != self.active or self.phase != "roll" or self.rolls:
            raise self._fail("gz-dice-tokens", monster=m.name, count=action.count,
                             why="tokens are spent by the monster whose turn it is, before its first roll")
        if self.token_dice + action.count > per:
            raise self._fail("gz-dice-tokens", monster=m.name, count=action.count,
                             why=f"at most {per} per turn")
        if m.dice_tokens < action.count:
            raise self._fail("gz-dice-tokens", monster=m.name, count=action.count, why=f"it has {m.dice_tokens}")
        before = self.dice_count()
        self.token_dice += action.count
        if self.dice_count() - before < action.count:
            self.token_dice -= action.count
            raise self._fail("gz-dice-tokens", monster=m.name, count=action.count,
                             why=f"it would roll more than {self.rs.max_dice} dice")
        m.dice_tokens -= action.count

    # ---------------------------------------------------------------- numbers

    def hooks_of(self, m: Monster) -> Sequence[tuple[str, Any]]:
        """(key, hook) for what works for the monster (``in_play``) and has a written hook; cached."""
        keys = tuple(self.in_play(m))
        found = self._hooks_cache.get(keys)
        if found is None:
            hooks = _hooks()
            found = tuple((c, hooks[h]) for c in keys if (h := self.cards[c].hook) is not None and h in hooks)
            self._hooks_cache[keys] = found
        return found

    def discard_card(self, m: Monster, card: str) -> None:
        if card in m.cards:
            m.cards.remove(card)
            self.discards[card] += 1

    def dice_count(self) -> int:
        m = self.me
        n = (self.rs.standard_dice + self.static(m, "extra_dice") - m.tokens["shrink"] - self.fewer_dice
             + self.token_dice)
        return max(0, min(self.rs.max_dice, n))

    def max_rolls(self) -> int:
        n = self.rs.rolls + self.static(self.me, "extra_rolls") + self.bonus_rolls
        for k in self.alive():  # another monster's card may cap them (Blizzard)
            if k != self.active:
                for _, hook in self.hooks_of(self.monsters[k]):
                    cap = hook.others_max_rolls(self, k)
                    n = n if cap is None else min(n, cap)
        return n

    def max_hp(self, m: Monster) -> int:
        raised = [int(e["max_hp"]) for e in self.effects(m, "always") if "max_hp" in e]
        if m.stored.get("max_hp"):  # a lasting raise no card in play carries (Zombify)
            raised.append(m.stored["max_hp"])
        return min(self.rs.life_hard_cap, max([self.rs.max_life, *raised]))

    def gain(self, m: Monster, resource: str, amount: int) -> None:
        if resource == "vp":
            m.vp += amount
        elif resource == "energy":
            self.gain_energy(m, amount)

    def gain_energy(self, m: Monster, amount: int) -> None:
        if amount > 0:
            m.energy += amount + self.static(m, "energy_bonus")

    def heal(self, m: Monster, amount: int) -> None:
        if amount > 0 and not m.eliminated:
            amount += self.static(m, "heal_bonus")
            m.hp = min(self.max_hp(m), max(m.hp, min(self.max_hp(m), m.hp + amount)))

    def damage(self, i: int, amount: int, source: int | None = None) -> int:
        """Take ``amount`` life from monster ``i``; returns the life actually lost."""
        m = self.monsters[i]
        if m.eliminated or amount <= 0:
            return 0
        if source is not None and source != i:  # the dealer's cards first (Mecha Blast, Target Acquired)
            for _, hook in self.hooks_of(self.monsters[source]):
                amount = hook.deal_damage(self, source, i, amount)
        ignore = [int(e["ignore_loss_of"]) for e in self.effects(m, "always") if "ignore_loss_of" in e]
        if amount in ignore or m.shielded_turn == self.turn_number:
            return 0
        for _, hook in self.hooks_of(m):
            amount = hook.before_damage(self, i, amount, source)
        if amount <= 0:
            return 0
        if "camouflage" in self.in_play(m):
            rolls = self.camouflage.get(i)
            if not rolls:
                raise ChanceNeeded(i, amount)
            faces = rolls.pop(0)
            if len(faces) != amount:
                raise self._fail("kot-camouflage", problem=f"{m.name} loses {amount} life here: its Camouflage "
                                                           f"roll needs {amount} {'die' if amount == 1 else 'dice'}, "
                                                           f"not {len(faces)}")
            amount -= sum(1 for f in faces if f == "heart")
            if amount <= 0:
                return 0
        before = m.hp
        m.hp = max(0, m.hp - amount)
        lost = before - m.hp
        if source == self.active and source != i:
            self.dealt_damage = True
        for e in list(self.effects(m, "damaged")):
            if lost >= int((e.get("if") or {}).get("lost_at_least", 1)):
                self.apply_gains(m, e)
        if lost:
            self.turn_losses.append((i, source, lost, self.smashing == i))
            for _, hook in self.hooks_of(m):
                hook.after_damage(self, i, lost, source)
            if source is not None and source != i:
                for _, hook in self.hooks_of(self.monsters[source]):
                    hook.dealt_damage(self, source, i, lost)
        if m.hp == 0:
            if any(hook.on_zero_life(self, i) for _, hook in
                   sorted(self.hooks_of(m), key=lambda ch: int(ch[1].zero_life_order))):
                for o in self.monsters:
                    if o is not m and not o.eliminated:
                        self.trigger(o, "elimination")
            else:
                self.eliminate(i)
        return lost

    def eliminate(self, i: int) -> None:
        m = self.monsters[i]
        m.eliminated = True
        m.location = "outside"
        for c in m.cards:
            self.discards[c] += 1
        m.cards = []
        m.mimic = None
        m.energy = 0
        m.tiles = []  # wickedness tiles are discarded, not returned
        m.owed = []
        m.evolutions = []
        m.hand = []
        m.evo_owed = 0
        self.log.append(f"{m.name} is eliminated")
        for o in self.monsters:
            if not o.eliminated:
                self.trigger(o, "elimination")
        self.close_bay()

    def close_bay(self) -> None:
        if self.bay_open():
            return
        b = self.occupant("bay")
        if b is None:
            return
        if self.occupant("city") is None:
            self.monsters[b].location = "city"
            self.log.append(f"Tokyo Bay closes: {self.monsters[b].name} moves to Tokyo City")
        else:
            self.monsters[b].location = "outside"
            self.log.append(f"Tokyo Bay closes: {self.monsters[b].name} leaves Tokyo")

    def reveal(self, cards: Iterable[str], effects: bool = True) -> None:
        """Turn cards face up into the market; ``effects=False`` for a stated position's market (already out)."""
        for c in cards:
            if c not in self.cards:
                raise self._fail("kot-unknown-card", card=c)
            if self.deck_order:
                top = self.deck_order.pop(0)
                if top != c:
                    raise self._fail("kot-deck-order", card=self.cards[c].name, top=self.cards[top].name)
            if self.deck[c] <= 0:
                if sum(self.deck.values()) == 0 and self.rs.deck_exhausted == "reshuffle-discards":
                    self.deck, self.discards = self.discards, Counter()
                if self.deck[c] <= 0:
                    raise self._fail("kot-card-not-in-deck", card=self.cards[c].name)
            self.deck[c] -= 1
            self.market.append(c)
            if self.cards[c].type == "event" and effects:
                for e in self.cards[c].effects:
                    if e["when"] == "reveal":
                        self.card_effect(self.me, e)

    # ---------------------------------------------------------------- turn structure

    def start_turn(self) -> None:
        m = self.me
        self.phase = "roll"
        self.dice = []
        self.rolls = 0
        self.smash_damage = {}
        self.smashes = 0
        self.pending = []
        self.dealt_damage = False
        self.bonus_rolls = 0
        self.used_this_turn = set()
        self.cures = {}
        self.heal_rays = []
        self.final_dice = []
        self.just_revealed = set()
        self.fewer_dice, self.fewer_dice_next = self.fewer_dice_next, 0
        self.bought = False
        self.token_dice = 0
        self.turn_losses = []
        if m.in_tokyo:
            r = self.rs.start_turn_reward
            self.gain(m, r.resource, r.amount)
        for _, hook in self.hooks_of(m):
            hook.before_turn_start(self, m)
        self.trigger(m, "turn_start")
        for _, hook in self.hooks_of(m):
            hook.on_turn_start(self, m)

    def expected(self) -> str:
        name = self.me.name
        if self.phase == "roll":
            return f"{name}'s roll" if not self.rolls else f"{name}'s re-roll, keep, or the next phase"
        if self.phase == "decide":
            return " or ".join(f"{self.monsters[i].name}'s decision to yield or stay" for i in self.pending)
        if self.phase == "buy":
            return f"{name} buying, sweeping or ending the turn"
        return "the end of the game"

    def is_terminal(self) -> bool:
        return self.over is not None

    def apply(self, action: Action, check: bool = True) -> None:
        """Play ``action``; an illegal one raises IllegalMoveError.

        If a Camouflage holder would take damage whose dice are not known, raises ChanceNeeded
        and leaves the state unchanged.
        """
        if self.over is not None:
            raise self._fail("kot-after-end")
        if self.starting and not isinstance(action, Evolve):
            missing = [m.name for m in self.monsters if m.evo_owed]
            if missing:
                raise self._fail("evo-not-owed", monster=missing[0],
                                 why="every monster draws its starting evolution before the first turn")
            self.starting = False
        kind = type(action)
        if kind not in _NO_DAMAGE and self._camouflage_held():
            snapshot = self._snapshot()
            try:
                if isinstance(action, (Buy, Sweep)):  # the snapshot also undoes a buy failing after paying
                    self._market_action(action)
                else:
                    self._apply(action)
            except ChanceNeeded:
                self._restore(snapshot)
                raise
            except IllegalMoveError:
                if isinstance(action, (Buy, Sweep)):
                    self._restore(snapshot)
                raise
        else:
            self._apply(action)
        self.history.append(action)

    def _camouflage_held(self) -> bool:
        """Does a monster hold Camouflage (or copy it with Mimic)? Then an action may need its dice."""
        return any(m.mimic == "camouflage" or "camouflage" in m.cards for m in self.monsters)

    def camouflage_roll(self, monster: int, faces: Sequence[str]) -> None:
        """The dice a Camouflage holder rolls for its next loss of life (one die per life point)."""
        self.camouflage.setdefault(monster, []).append(tuple(faces))

    def _snapshot(self) -> dict[str, Any]:
        """A copy of everything an action can change (the rules, the history and the caches stay shared)."""
        snap: dict[str, Any] = {}
        for k, v in self.__dict__.items():
            if k in _SHARED:
                continue
            t = type(v)
            if t in _AS_IS:
                snap[k] = v
            elif k == "monsters":
                snap[k] = [_copy_monster(m) for m in v]
            elif t is list or t is set:
                snap[k] = v.copy()
            elif t is Counter:
                snap[k] = _copy_counter(v)
            elif t is dict:
                snap[k] = {kk: list(vv) if isinstance(vv, list) else vv for kk, vv in v.items()}
            elif isinstance(v, Counter):
                snap[k] = Counter(v)
            elif isinstance(v, dict):
                snap[k] = {kk: list(vv) if isinstance(vv, list) else vv for kk, vv in v.items()}
            elif isinstance(v, list | set):
                snap[k] = type(v)(v)
            else:
                snap[k] = v
        return snap

    def _restore(self, snapshot: dict[str, Any]) -> None:
        self.__dict__.update(snapshot)

    def _apply(self, action: Action) -> None:
        _DISPATCH[type(action)](self, action)

    def _keep(self, action: Keep) -> None:
        if self.phase != "roll" or not self.rolls:
            raise self._fail("kot-unexpected", expected=self.expected(), got="keep")
        self._resolve()

    def _buy_or_sweep(self, action: Buy | Sweep) -> None:
        if self._market_action_safe(action):
            self._market_action(action)
            return
        snapshot = self._snapshot()  # a buy can fail on its reveal after paying: undo it all
        try:
            self._market_action(action)
        except IllegalMoveError:
            self._restore(snapshot)
            raise

    def _market_action_safe(self, action: Buy | Sweep) -> bool:
        """True if ``_market_action`` cannot fail once it has changed something, so it needs no undo.

        That holds in the buy phase for a sweep, and for a buy from the market of a card with no
        effect on buying, when the cards revealed are in the deck (in the known order, if any) and
        reveal no event. Anything else (a failure is found before any change) takes a snapshot.
        """
        if self.phase != "buy" or self.frenzy_now:
            return False
        if isinstance(action, Buy):
            if action.seller is not None or action.top or action.reveal is None:
                return False
            card = self.cards.get(action.card)
            if card is None or card.hook is not None or any(e["when"] == "buy" for e in card.effects):
                return False
            reveals: Sequence[str] = (action.reveal,)
        else:
            reveals = action.reveals
        need = Counter(reveals)
        for c, n in need.items():
            revealed = self.cards.get(c)
            if revealed is None or self.deck[c] < n or (
                    revealed.type == "event" and any(e["when"] == "reveal" for e in revealed.effects)):
                return False
        return not self.deck_order or tuple(self.deck_order[:len(reveals)]) == tuple(reveals)

    def _cure(self, action: Cure) -> None:
        m = self.monsters[action.monster]
        if action.monster != self.active or self.phase != "roll" or not self.rolls:
            raise self._fail("kot-cure", monster=m.name, why="hearts are spent while resolving your own dice")
        if m.tokens.get(action.token, 0) - self.cures.get(action.token, 0) < action.count:
            raise self._fail("kot-cure", monster=m.name, why=f"it has no {action.token} token left to remove")
        self.cures[action.token] = self.cures.get(action.token, 0) + action.count

    def _use(self, action: Use) -> None:
        from kbgrules.king_of_tokyo.cards.base import HOOKS

        m = self.monsters[action.monster]
        card = self.cards.get(action.card)
        if card is None or action.card not in self.in_play(m) or m.eliminated:
            name = card.name if card else action.card
            raise self._fail("kot-card-use", card=name, why=f"{m.name} does not hold it")
        hook = HOOKS.get(card.hook or "")
        if hook is None:
            raise self._fail("kot-card-use", card=card.name, why="it has nothing to use")
        if hook.after_roll and action.monster == self.active:
            if self.phase == "roll" and self.rolls:
                self._resolve()
            if self.phase == "decide":
                self.finish_decisions()
        hook.use(self, action.monster, action.args)

    def _check_faces(self, faces: Sequence[str]) -> None:
        for f in faces:
            if f not in FACES:
                raise self._fail("kot-bad-face", face=f)

    def _roll(self, action: Roll) -> None:
        if self.phase != "roll" or self.rolls:
            raise self._fail("kot-unexpected", expected=self.expected(), got="a first roll")
        self._check_faces(action.faces)
        for _, hook in self.hooks_of(self.me):  # start-of-turn duties first (Superior Alien Technology)
            hook.before_roll(self, self.me)
        n = self.dice_count()
        if len(action.faces) != n:
            raise self._fail("kot-dice-count", monster=self.me.name, expected=n, got=len(action.faces))
        self.dice = list(action.faces)
        self.rolls = 1

    def _reroll(self, action: Reroll) -> None:
        if self.phase != "roll" or not self.rolls:
            raise self._fail("kot-unexpected", expected=self.expected(), got="a re-roll")
        free = any(h.free_reroll(self, self.me, action.dice) for _, h in self.hooks_of(self.me))
        if self.rolls >= self.max_rolls() and not free:
            raise self._fail("kot-too-many-rolls", monster=self.me.name, rolls=self.max_rolls())
        self._check_faces(action.dice)
        self._check_faces(action.faces)
        if not action.dice or len(action.dice) != len(action.faces):
            raise self._fail("kot-reroll-count", chosen=len(action.dice), got=len(action.faces))
        kept = self.dice.copy()
        try:
            for f in action.dice:
                kept.remove(f)
        except ValueError:  # a face re-rolled more often than the dice show it: the first such face
            have = Counter(self.dice)
            for f, n in Counter(action.dice).items():
                if have[f] < n:
                    raise self._fail("kot-reroll-missing", face=f, count=n,
                                     dice=" ".join(SHORT[x] for x in self.dice)) from None
        self.dice[:] = kept
        self.dice.extend(action.faces)
        if not (free and self.rolls >= self.max_rolls()):
            self.rolls += 1

    def _resolve(self) -> None:
        rs = self.rs
        m = self.me
        self.final_dice = list(self.dice)
        for _, hook in self.hooks_of(m):
            self.dice = hook.resolve_dice(self, m, self.dice)
        counts = Counter(self.dice)
        for number in ("1", "2", "3"):
            c = counts[number]
            if c >= rs.set_size:
                m.vp += int(number) + c - rs.set_size
        if rs.wickedness is not None:
            self.add_wickedness(m, sum(rs.wickedness.gains.get(n, 0) * (counts[n] // rs.set_size)
                                       for n in ("1", "2", "3")))
        self.gain_energy(m, counts["energy"])
        hearts = counts["heart"]
        cured = sum(self.cures.values())
        if cured:
            if m.in_tokyo or cured > hearts or m.stored.get("no_dice_heal"):
                why = "only outside Tokyo" if m.in_tokyo else f"{cured} tokens need {cured} hearts, not {hearts}"
                if m.stored.get("no_dice_heal"):
                    why = "a zombified monster cannot use its Heal results"
                raise self._fail("kot-cure", monster=m.name, why=why)
            for token, n in self.cures.items():
                m.tokens[token] -= n
            hearts -= cured
        rays = sum(n for _, n in self.heal_rays)
        if rays > hearts:
            raise self._fail("kot-card-use", card="Healing Ray", why=f"{rays} hearts given but only {hearts} left")
        for target, n in self.heal_rays:
            o = self.monsters[target]
            before = o.hp
            self.heal(o, n)
            pay = min(o.energy, 2 * (o.hp - before))
            o.energy -= pay
            m.energy += pay
        hearts -= rays
        if hearts and (not m.in_tokyo or rs.heal_in_tokyo) and not m.stored.get("no_dice_heal"):
            self.heal(m, hearts)
        smashes = counts["smash"]
        extra_hits: list[tuple[list[int], int]] = []
        extra_damage = 0
        for e in list(self.effects(m, "resolve")):
            if self.condition(m, e.get("if")):
                smashes += int(e.get("add_smash", 0))
                extra_damage += int(e.get("extra_damage", 0))
                self.apply_gains(m, e)
                for f, per in (e.get("per_face") or {}).items():
                    if counts[f]:
                        self.apply_gains(m, {"gain": {k: int(v) * counts[f] for k, v in per.items()}})
                if e.get("neighbours_lose"):
                    hit = e["neighbours_lose"]
                    for i in self.neighbours(self.active):
                        o = self.monsters[i]
                        o.vp = max(0, o.vp - int(hit.get("vp", 0)))
                        o.energy = max(0, o.energy - int(hit.get("energy", 0)))
                    extra_hits.append((self.neighbours(self.active), int(hit.get("hp", 0))))
        for _, hook in self.hooks_of(m):
            smashes = hook.on_resolve(self, m, smashes)
        for e in self.effects(m, "always"):
            smashes *= int(e.get("multiply_smash", 1))
        self.smashes = smashes
        if rs.evolution is not None and counts["heart"] >= rs.evolution.hearts and self.evolutions_left(m):
            m.evo_owed += 1
        if self.holds(m, "smash_everyone"):
            targets = [i for i in self.alive() if i != self.active]
        elif m.in_tokyo:
            targets = [i for i in self.alive() if i != self.active and not self.monsters[i].in_tokyo]
        else:
            targets = [i for i in self.alive() if self.monsters[i].in_tokyo]
        if extra_damage:
            extra_hits.append((list(targets), extra_damage))
        if smashes:
            for i in targets:
                self.smashing = i
                try:
                    lost = self.damage(i, smashes, self.active)
                finally:
                    self.smashing = None
                if lost:
                    self.smash_damage[i] = lost
                    for _, hook in self.hooks_of(m):
                        hook.on_smash_damage(self, i)
        for victims, amount in extra_hits:
            for i in victims:
                self.damage(i, amount, self.active)
        self.pending = [i for i in (self.occupant("city"), self.occupant("bay"))
                        if i is not None and i in self.smash_damage and i != self.active]
        self.phase = "decide" if self.pending else "enter"
        if self.phase == "enter":
            self._enter()

    def neighbours(self, i: int) -> list[int]:
        """The surviving monsters to the left and right of ``i`` (one if only two survive)."""
        alive = self.alive()
        if len(alive) < 2:
            return []
        k = alive.index(i)
        return list(dict.fromkeys([alive[(k - 1) % len(alive)], alive[(k + 1) % len(alive)]]))

    def _decide(self, action: Decide) -> None:
        if self.phase == "roll" and self.rolls:
            self._resolve()
        if self.phase != "decide":
            if action.yields:
                who = self.monsters[action.monster].name
                raise self._fail("kot-yield-not-allowed", monster=who,
                                 why="no smash of another monster has just hurt it" if self.monsters[
                                     action.monster].in_tokyo else "it is not in Tokyo")
            raise self._fail("kot-unexpected", expected=self.expected(), got="a decision to stay")
        if action.monster not in self.pending:
            who = self.monsters[action.monster].name
            if not self.monsters[action.monster].in_tokyo:
                raise self._fail("kot-yield-not-allowed", monster=who, why="it is not in Tokyo")
            raise self._fail("kot-yield-not-allowed", monster=who, why="no smash of another monster has just hurt it"
                             if action.monster not in self.smash_damage else "it has already decided")
        if action.yields:  # another monster's card may forbid it (Blizzard)
            for k in self.alive():
                if k != action.monster:
                    for _, hook in self.hooks_of(self.monsters[k]):
                        hook.may_yield(self, k, action.monster)
        self.pending.remove(action.monster)
        if not action.yields:
            for _, hook in self.hooks_of(self.monsters[action.monster]):
                hook.on_stay(self, action.monster)
        if action.yields:
            for _, hook in self.hooks_of(self.monsters[action.monster]):
                hook.on_yield(self, action.monster)
            self.monsters[action.monster].location = "outside"
            self.log.append(f"{self.monsters[action.monster].name} yields Tokyo")
        if not self.pending:
            self.phase = "enter"
            self._enter()

    def finish_decisions(self) -> None:
        """Monsters that did not state a decision stay (our reading of an absent decision)."""
        if self.phase == "decide":
            self.pending = []
            self.phase = "enter"
            self._enter()

    def _may_take_entry_back(self) -> bool:
        """Could another monster's evolution take this Enter Tokyo step back (Monkey Rush, Feline Motor)?"""
        rushers = self._rushers
        for k, o in enumerate(self.monsters):
            if k == self.active or o.eliminated:
                continue
            if o.icy is not None and "icy-reflection" in o.evolutions:
                copies = {o.icy}  # Icy Reflection copying Feline Motor
            elif "icy-reflection" in o.hand or ("?" in o.hand and o.evo_deck["icy-reflection"] > 0):
                copies = {e for x in self.monsters if not x.eliminated for e in x.evolutions}
            else:
                copies = set()
            if rushers & {*o.hand, *o.evolutions, *copies} or ("?" in o.hand and rushers & set(o.evo_deck)):
                return True
        return False

    def _enter(self) -> None:
        m = self.me
        if self.rs.evolution is not None and self._may_take_entry_back():
            self.enter_snapshot = (self.turn_number, len(self.history), self._snapshot())
        if not m.eliminated and not m.in_tokyo:
            needs_smash = self.rs.enter_requires_smash and not self.smashes
            space = None
            if self.occupant("city") is None:
                space = "city"
            elif self.bay_open() and self.occupant("bay") is None:
                space = "bay"
            if space is not None and not needs_smash and all(h.may_enter(self, m) for _, h in self.hooks_of(m)):
                m.location = space
                r = self.rs.enter_reward
                self.gain(m, r.resource, r.amount)
                self.log.append(f"{m.name} enters Tokyo {'City' if space == 'city' else 'Bay'}")
                self.entered(m)
        self.phase = "buy"

    def card_id(self, text: str) -> str | None:
        """A card id from its id or name, ignoring case and punctuation."""
        import re

        key = re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")
        return key if key in self.cards else next(
            (c.id for c in self.cards.values() if re.sub(r"[^a-z0-9]+", "-", c.name.lower().replace("'", ""))
             .strip("-") == key), None)

    def cost(self, card: str, buyer: Monster | None = None) -> int:
        return max(0, self.cards[card].cost - self.static(buyer or self.me, "cost_reduction"))

    def all_cards(self, m: Monster) -> list[str]:
        return self.in_play(m)

    def _market_action(self, action: Buy | Sweep) -> None:
        from kbgrules.king_of_tokyo.cards.base import HOOKS

        buyer = self.monsters[action.monster]
        opportunist = (isinstance(action, Buy) and action.monster != self.active and action.seller is None
                       and not action.top and "opportunist" in self.all_cards(buyer)
                       and action.card in self.just_revealed and not buyer.eliminated)
        if not opportunist:
            if self.phase == "decide":
                self.finish_decisions()
            if self.phase == "roll" and self.rolls:
                self._resolve()
                if self.phase == "decide":
                    self.finish_decisions()
            if self.phase != "buy" or action.monster != self.active:
                what = "a buy" if isinstance(action, Buy) else "a sweep"
                if action.monster != self.active and self.phase == "buy":
                    raise self._fail("kot-wrong-monster", expected=self.me.name, actor=buyer.name)
                raise self._fail("kot-unexpected", expected=self.expected(), got=what)
        m = buyer
        if isinstance(action, Sweep):
            if m.energy < self.rs.sweep_cost:
                raise self._fail("kot-no-energy", monster=m.name, need=self.rs.sweep_cost, have=m.energy,
                                 what="a sweep")
            stays = [c for c in self.market if self.rs.sweep_keeps_events and self.cards[c].type == "event"]
            if len(action.reveals) != self.rs.market_size - len(stays):
                raise self._fail("kot-reveal-count", expected=self.rs.market_size - len(stays),
                                 got=len(action.reveals))
            m.energy -= self.rs.sweep_cost
            for c in self.market:
                if c not in stays:
                    self.discards[c] += 1
            self.market = stays
            self.reveal(action.reveals)
            self.just_revealed = set(action.reveals)
            return
        card = self.cards.get(action.card)
        seller = self.monsters[action.seller] if action.seller is not None else None
        if seller is not None:
            if "parasitic-tentacles" not in self.all_cards(m):
                raise self._fail("kot-card-use", card="Parasitic Tentacles", why=f"{m.name} does not hold it")
            if action.card not in seller.cards:
                raise self._fail("kot-card-use", card="Parasitic Tentacles",
                                 why=f"{seller.name} holds no {card.name if card else action.card}")
        elif action.top:
            if "made-in-a-lab" not in self.all_cards(m):
                raise self._fail("kot-card-use", card="Made in a Lab", why=f"{m.name} does not hold it")
            self.reveal([action.card])
            self.market.remove(action.card)
        elif action.card not in self.market:
            names = ", ".join(self.cards[c].name for c in self.market)
            name = card.name if card else action.card
            raise self._fail("kot-not-in-market", card=name, market=names or "nothing")
        assert card is not None
        price = self.cost(action.card, m)
        if m.energy < price:
            if action.top:  # the peeked card stays on top of the deck
                self.deck[action.card] += 1
            raise self._fail("kot-no-energy", monster=m.name, need=price, have=m.energy, what=card.name)
        for _, hook in self.hooks_of(m):
            hook.may_buy(self, m, card.id)
        if f"buy-forbidden:{action.monster}:{card.id}" in self.used_this_turn:  # Bamboozle
            raise self._fail("kot-unexpected", expected=f"{m.name} buying another card than {card.name} (Bamboozle), "
                             "sweeping or ending the turn", got=f"a buy of {card.name}")
        if card.hook is not None and card.hook not in HOOKS:
            raise UnsupportedCardError(f"kbg check cannot replay {card.name} yet (its effect needs the "
                                       f"{card.hook!r} hook, not written yet)")
        if card.hook is not None:
            HOOKS[card.hook].may_be_bought(self, m)
        m.energy -= price
        if action.monster == self.active:
            self.bought = True
        if seller is not None:
            seller.cards.remove(card.id)
            seller.energy += price
        elif not action.top:
            self.market.remove(action.card)
        owned = list(m.cards) + [f"tile:{t}" for t in m.tiles]  # tiles too (Have It All!)
        if card.type == "keep":
            m.cards.append(card.id)
        else:
            self.discards[card.id] += 1
        for e in card.effects:
            if e["when"] == "buy":
                self.card_effect(m, e)
        if card.hook is not None:
            HOOKS[card.hook].on_buy(self, m)
        for cid in owned:
            for e in self.cards[cid].effects:
                if e["when"] == "buy_other" and not m.eliminated:
                    self.apply_gains(m, e)
        if seller is None and not action.top:
            if action.reveal is not None:
                self.reveal([action.reveal])
                self.just_revealed = {action.reveal}
            elif sum(self.deck.values()) + (sum(self.discards.values())
                                            if self.rs.deck_exhausted == "reshuffle-discards" else 0):
                raise self._fail("kot-reveal-count", expected=1, got=0)
        if self.frenzy_now and not m.eliminated:
            self.frenzy_now = False  # the turn ends at once, without its end-of-turn effects
            self.turn_number += 1
            self.start_turn()

    def buy_allowed(self, m: Monster, card: str) -> bool:
        """False if a hook forbids ``m`` to buy ``card`` now (Hibernation)."""
        from kbgrules.king_of_tokyo.cards.base import HOOKS

        try:
            for _, hook in self.hooks_of(m):
                hook.may_buy(self, m, card)
            own = HOOKS.get(self.cards[card].hook or "")
            if own is not None:
                own.may_be_bought(self, m)
        except IllegalMoveError:
            return False
        return True

    def card_effect(self, m: Monster, e: Mapping[str, Any]) -> None:
        """A card's one-off effect (on buying it)."""
        me = self.monsters.index(m)
        self.apply_gains(m, e)
        lose = e.get("lose") or {}
        m.vp = max(0, m.vp - int(lose.get("vp", 0)))
        m.energy = max(0, m.energy - int(lose.get("energy", 0)))
        if lose.get("hp"):
            self.damage(me, int(lose["hp"]), me)
        for i in self.alive():
            if e.get("all_gain"):
                self.apply_gains(self.monsters[i], {"gain": e["all_gain"]})
        for key, victims in (("others_lose", [i for i in self.alive() if i != me]),
                             ("all_lose", list(self.alive()))):
            hit = e.get(key) or {}
            for i in victims:
                o = self.monsters[i]
                if hit.get("vp"):
                    o.vp = max(0, o.vp - int(hit["vp"]))
                if hit.get("energy"):
                    o.energy = max(0, o.energy - int(hit["energy"]))
                if hit.get("hp"):
                    self.damage(i, int(hit["hp"]), me)
        per = e.get("others_lose_energy_per")
        if per:
            for i in self.alive():
                if i != me:
                    self.monsters[i].energy -= self.monsters[i].energy // int(per)
        stays = e.get("take_tokyo") == "unless-in-tokyo" and m.in_tokyo
        if e.get("take_tokyo") and not m.eliminated and m.location != "city" and not stays:
            for o in self.monsters:  # every other monster in Tokyo leaves (Board Game Arena's reading)
                if o is not m and o.in_tokyo:
                    o.location = "outside"
            entering = not m.in_tokyo
            m.location = "city"
            if entering:
                r = self.rs.enter_reward
                self.gain(m, r.resource, r.amount)
                self.entered(m)
        if e.get("extra_turn") == "now":
            self.frenzy_now = True
        elif e.get("extra_turn"):
            self.extra_turn = True

    def _end_turn(self, action: EndTurn) -> None:
        if self.phase == "roll" and self.rolls:
            self._resolve()
        if self.phase == "decide":
            self.finish_decisions()
        if self.phase != "buy":
            raise self._fail("kot-unexpected", expected=self.expected(), got="the end of the turn")
        if action.monster != self.active:
            raise self._fail("kot-wrong-monster", expected=self.me.name, actor=self.monsters[action.monster].name)
        m = self.me
        owed = [lv for lv in m.owed if self.tiles_left(lv)]
        if owed and not m.eliminated:
            raise self._fail("dark-tile-not-taken", monster=m.name, level=owed[0])
        if m.evo_owed and not m.eliminated and self.evolutions_left(m):
            raise self._fail("evo-not-drawn", monster=m.name, hearts=Counter(self.final_dice)["heart"])
        m.owed, m.evo_owed = [], 0
        if self.rs.buy_fallback_energy and not self.bought and not m.eliminated:
            self.gain_energy(m, self.rs.buy_fallback_energy)
        if not self.me.eliminated:
            self.trigger(self.me, "turn_end")
        for k, o in enumerate(self.monsters):
            if not o.eliminated:
                for _, hook in self.hooks_of(o):
                    hook.on_turn_end(self, k)
        if not self.me.eliminated and self.me.tokens["poison"]:
            self.damage(self.active, self.me.tokens["poison"])
        self.turn_ends.append((self.active, [(m.hp, m.vp, m.energy, m.location, m.eliminated, m.wickedness)
                                             for m in self.monsters]))
        self._check_end()
        if self.over is None:
            self._next_turn()

    def _check_end(self) -> None:
        alive = self.alive()
        if not alive:
            self.over = Outcome(True, (), "all monsters were eliminated")
            return
        won = [i for i in alive if self.monsters[i].stored.get("wins")]  # a card's win (Final Roar) comes first
        if won:
            self.over = Outcome(True, tuple(self.monsters[i].name for i in won), "Final Roar")
            return
        goal = [i for i in alive if self.monsters[i].vp >= self.rs.vp_goal]
        if goal:
            self.over = Outcome(True, tuple(self.monsters[i].name for i in goal), f"{self.rs.vp_goal} VP")
        elif len(alive) == 1:
            self.over = Outcome(True, (self.monsters[alive[0]].name,), "last monster standing")

    def _next_turn(self) -> None:
        if self.extra_turn and not self.me.eliminated:
            self.extra_turn = False
            self.turn_number += 1
            self.start_turn()
            return
        self.extra_turn = False
        n = len(self.monsters)
        i = self.active
        for _ in range(n):
            i = (i + 1) % n
            if not self.monsters[i].eliminated:
                break
        self.active = i
        self.turn_number += 1
        self.start_turn()

    def outcome(self) -> Outcome:
        return self.over or Outcome(False, (), None)

    def legal_actions(self) -> list[Action]:
        """Player decisions available now (chance outcomes, rolls and reveals, are not listed)."""
        if self.over is not None:
            return []
        if self.phase == "roll":
            return [Keep()] if self.rolls else []
        if self.phase == "decide":
            return [Decide(i, y) for i in self.pending for y in (False, True)]
        out: list[Action] = [EndTurn(self.active)]
        if self.me.eliminated:
            return out
        from kbgrules.king_of_tokyo.cards.base import HOOKS

        for c in dict.fromkeys(self.market):
            hook = self.cards[c].hook
            if self.cost(c) <= self.me.energy and (hook is None or hook in HOOKS) and self.buy_allowed(self.me, c):
                out.append(Buy(self.active, c, None))
        if self.me.energy >= self.rs.sweep_cost:
            out.append(Sweep(self.active, ()))
        return out


# actions that never make a monster lose life, so never need Camouflage dice (ChanceNeeded comes only from
# damage(); the hooks they call, before_roll, free_reroll and others_max_rolls, change nothing)
_NO_DAMAGE = frozenset((Roll, Reroll, Cure, Tokens))
_AS_IS = frozenset((bool, int, str, type(None), Outcome))  # values a snapshot shares (immutable)
_SHARED = frozenset(("rs", "cards", "players", "history", "enter_snapshot", "_effects_cache", "_static_cache",
                     "_hooks_cache", "_rushers"))  # not in a snapshot

_DISPATCH: dict[type, Any] = {
    Roll: KingOfTokyoState._roll, Reroll: KingOfTokyoState._reroll, Keep: KingOfTokyoState._keep,
    Decide: KingOfTokyoState._decide, Buy: KingOfTokyoState._buy_or_sweep, Sweep: KingOfTokyoState._buy_or_sweep,
    EndTurn: KingOfTokyoState._end_turn, Use: KingOfTokyoState._use, Cure: KingOfTokyoState._cure,
    Take: KingOfTokyoState._take, Evolve: KingOfTokyoState._evolve, Play: KingOfTokyoState._play,
    Tokens: KingOfTokyoState._tokens,
}


def tokyo_json(st: KingOfTokyoState) -> dict[str, Any]:
    def name(i: int | None) -> str | None:
        return None if i is None else st.monsters[i].name

    return {"city": name(st.occupant("city")), "bay": name(st.occupant("bay"))}


def monster_json(st: KingOfTokyoState, m: Monster) -> dict[str, Any]:
    rs = st.rs
    out: dict[str, Any] = {
        "name": m.name, "hp": m.hp, "vp": m.vp, "energy": m.energy, "location": m.location,
        "eliminated": m.eliminated, "cards": list(m.cards), "tokens": dict(m.tokens)}
    if m.mimic and ("mimic" in m.cards or "fluxling" in m.tiles):
        out["mimic"] = m.mimic
    if rs.wickedness is not None:
        out["wickedness"] = m.wickedness
        out["tiles"] = list(m.tiles)
    if rs.evolution is not None:
        out["monster"] = m.monster or None
        out["evolutions"] = list(m.evolutions)
        out["hand"] = list(m.hand)
    if rs.dice_tokens_per_turn:
        out["dice_tokens"] = m.dice_tokens
    return out


def final_json(st: KingOfTokyoState) -> dict[str, Any]:
    out = st.outcome()
    return {
        "monsters": [monster_json(st, m) for m in st.monsters],
        "tokyo": tokyo_json(st),
        "market": list(st.market),
        "turn": st.turn_number,
        "active": st.me.name,
        "game_over": {"over": out.over, "winners": list(out.winners), "reason": out.reason},
    }


def counts_text(dice: Mapping[str, int]) -> str:
    return " ".join(f"{SHORT[f]}x{n}" for f, n in dice.items())
