"""The base class of the King of Tokyo game state: the attributes its parts share, and the methods they
(and the card hooks) call on one another.

``KingOfTokyoState`` (kbgrules.king_of_tokyo.state) joins the parts, one module each: card effects,
dice, Tokyo, the market and the editions' additions. Each part derives from ``StateBase``; the
methods below that raise NotImplementedError are defined in another part (they come before
``StateBase`` in the order of ``KingOfTokyoState``'s bases). They are real methods, not declarations
under ``if TYPE_CHECKING``, so that mypyc can compile the parts (see the mypyc hook in pyproject.toml).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kbgrules.errors import IllegalMoveError
from kbgrules.king_of_tokyo.model import Card, KingOfTokyoRuleset
from kbgrules.king_of_tokyo.monster import Monster, Outcome
from kbgrules.king_of_tokyo.moves import Action, Buy, Decide, Sweep, violation

# a monster at the end of a turn: life, VP, energy, place, eliminated, wickedness, cards held
TurnRow = tuple[int, int, int, str, bool, int, tuple[str, ...]]


def turn_rows(monsters: Iterable[Monster]) -> list[TurnRow]:
    """Each monster at the end of a turn (``TurnRow``)."""
    return [(m.hp, m.vp, m.energy, m.location, m.eliminated, m.wickedness, tuple(m.cards)) for m in monsters]


class StateBase:
    """The attributes of a game in progress (set by ``KingOfTokyoState.__init__``) and small helpers."""

    rs: KingOfTokyoRuleset
    players: tuple[str, ...]
    monsters: list[Monster]
    cards: dict[str, Card]  # cards, tiles ("tile:ID") and evolutions ("evolution:ID") by key
    has_events: bool
    tile_sides: str
    tile_supply: list[str]
    tile_faces: dict[str, str]  # mixed sides: physical tile (red id) -> the side that is up
    bought: bool  # a card was bought this turn (Godzilla: otherwise 1 energy)
    token_dice: int  # dice tokens spent this turn
    deck: Counter[str]
    discards: Counter[str]
    market: list[str]
    active: int
    phase: str  # roll, decide, enter, buy
    dice: list[str]
    rolls: int
    smash_damage: dict[int, int]
    smashes: int
    dealt_damage: bool
    extra_turn: bool
    frenzy_now: bool
    bonus_rolls: int
    fewer_dice: int
    fewer_dice_next: int
    freeze_chain: int  # Freeze Time turns in a row: the next one rolls this many dice fewer
    freeze_rays: dict[int, tuple[int, str]]  # Freeze Ray lent: owner -> (holder, face with no effect; "" unnamed)
    ice_die: tuple[int, str] | None  # Encased in Ice: (owner, face of the die frozen until the owner's next turn)
    used_this_turn: set[str]
    cures: dict[str, int]
    final_dice: list[str]
    just_revealed: set[str]
    heal_rays: list[tuple[int, int]]  # Healing Ray: (monster, hearts)
    camouflage: dict[int, list[tuple[str, ...]]]  # known Camouflage dice, by monster
    deck_order: list[str]  # the known top of the deck, when a position states it
    pending: list[int]  # monsters that may still yield
    turn_number: int
    over: Outcome | None
    history: list[Action]
    turn_ends: list[tuple[int, list[TurnRow]]]  # for `kbg show` and the HTML report
    log: list[str]  # what the checker computed, for people
    starting: bool  # before the first turn: starting evolutions are drawn
    smashing: int | None  # the monster the active monster's smashes are hurting right now
    turn_losses: list[tuple[int, int | None, int, bool]]  # this turn: (monster, source, lost, smash)
    turn_began: list[str] | None  # where each monster stood as this turn began, when a position states it
    # the state just before the last Enter Tokyo step: (turn, actions applied, snapshot) (Monkey Rush)
    enter_snapshot: tuple[int, int, dict[str, Any]] | None
    # what each set of in-play keys does (effects.Holdings), by in_play keys (or by a monster's cards, tiles
    # and evolutions, each a tuple, when it copies nothing): from the card data only, so shared by the games
    # of a ruleset (and by snapshots)
    _holdings: dict[tuple[Any, ...], Any]
    # effects.acting_keys: who may act at each hook point, and for each ``when`` of the data effects
    _acting: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]]
    _acting_when: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]]
    _rushers: frozenset[str]  # evolutions that can take an Enter Tokyo step back
    _bay_open: dict[int, bool]  # whether Tokyo Bay is in play, by the number of monsters alive

    def illegal(self, code: str, **params: Any) -> IllegalMoveError:
        """The violation ``code`` (its rule and message from the rule data, ``params`` filled in), for the
        engine or a card hook to raise: ``raise st.illegal("kot-card-use", card=..., why=...)``."""
        return violation(self.rs, code, **params)

    @property
    def me(self) -> Monster:
        return self.monsters[self.active]

    def seat(self, m: Monster) -> int:
        """The index of ``m`` among the monsters, found by identity (``list.index`` would compare every
        field of each monster before it)."""
        for i, o in enumerate(self.monsters):
            if o is m:
                return i
        raise ValueError(f"{m.name} is not a monster of this game")

    def alive(self) -> list[int]:
        return [i for i, m in enumerate(self.monsters) if not m.eliminated]

    # card effects (kbgrules.king_of_tokyo.effects)
    def began_at(self, i: int) -> str:
        """Where monster ``i`` stood when this turn began (outside, city or bay)."""
        if self.turn_began is not None:
            return self.turn_began[i]
        return self.turn_ends[-1][1][i][3] if self.turn_ends else "outside"

    def in_play(self, m: Monster) -> list[str]:
        raise NotImplementedError
    def effects(self, m: Monster, when: str) -> Sequence[Mapping[str, Any]]:
        raise NotImplementedError
    def static(self, m: Monster, key: str) -> int:
        raise NotImplementedError
    def holds(self, m: Monster, key: str) -> bool:
        raise NotImplementedError
    def condition(self, m: Monster, cond: Mapping[str, Any] | None) -> bool:
        raise NotImplementedError
    def apply_gains(self, m: Monster, e: Mapping[str, Any]) -> None:
        raise NotImplementedError
    def trigger(self, m: Monster, when: str) -> None:
        raise NotImplementedError
    def entered(self, m: Monster) -> None:
        raise NotImplementedError
    def card_effect(self, m: Monster, e: Mapping[str, Any]) -> None:
        raise NotImplementedError
    # (key, Hook): the hooks module imports this one, so it is not named here
    def hooks_of(self, m: Monster) -> Sequence[tuple[str, Any]]:
        raise NotImplementedError
    def hooks_at(self, m: Monster, point: str) -> tuple[Any, ...]:
        raise NotImplementedError
    def holdings(self, m: Monster) -> Any:
        raise NotImplementedError
    def discard_card(self, m: Monster, card: str) -> None:
        raise NotImplementedError
    def max_hp(self, m: Monster) -> int:
        raise NotImplementedError
    def gain(self, m: Monster, resource: str, amount: int) -> None:
        raise NotImplementedError
    def gain_energy(self, m: Monster, amount: int) -> None:
        raise NotImplementedError
    def heal(self, m: Monster, amount: int) -> None:
        raise NotImplementedError

    # dice (kbgrules.king_of_tokyo.dice)
    def dice_count(self) -> int:
        raise NotImplementedError
    def max_rolls(self) -> int:
        raise NotImplementedError
    def _camouflage_held(self) -> bool:
        raise NotImplementedError
    def _resolve(self) -> None:
        raise NotImplementedError

    # Tokyo (kbgrules.king_of_tokyo.tokyo)
    def bay_open(self) -> bool:
        raise NotImplementedError
    def occupant(self, space: str) -> int | None:
        raise NotImplementedError
    def occupants(self) -> tuple[int | None, int | None]:
        raise NotImplementedError
    def neighbours(self, i: int) -> list[int]:
        raise NotImplementedError
    def damage(self, i: int, amount: int, source: int | None = None) -> int:
        raise NotImplementedError
    def _decide(self, action: Decide) -> None:
        raise NotImplementedError
    def finish_decisions(self) -> None:
        raise NotImplementedError
    def _enter(self) -> None:
        raise NotImplementedError

    # the market (kbgrules.king_of_tokyo.market)
    def reveal(self, cards: Iterable[str], effects: bool = True) -> None:
        raise NotImplementedError
    def card_id(self, text: str) -> str | None:
        raise NotImplementedError
    def cost(self, card: str, buyer: Monster | None = None) -> int:
        raise NotImplementedError
    def buy_allowed(self, m: Monster, card: str) -> bool:
        raise NotImplementedError
    def _market_action(self, action: Buy | Sweep) -> None:
        raise NotImplementedError

    # the editions' additions (kbgrules.king_of_tokyo.editions)
    def add_wickedness(self, m: Monster, amount: int) -> None:
        raise NotImplementedError
    def tiles_left(self, level: int) -> list[str]:
        raise NotImplementedError
    def evolutions_left(self, m: Monster) -> int:
        raise NotImplementedError

    # the state proper (kbgrules.king_of_tokyo.state)
    def start_turn(self, effects: bool = True) -> None:
        raise NotImplementedError
    def expected(self) -> str:
        raise NotImplementedError
    def _snapshot(self) -> dict[str, Any]:
        raise NotImplementedError
    def _restore(self, snapshot: dict[str, Any]) -> None:
        raise NotImplementedError
    def _apply(self, action: Action) -> None:
        raise NotImplementedError
    def _check_end(self) -> None:
        raise NotImplementedError
    def _next_turn(self) -> None:
        raise NotImplementedError
