"""The King of Tokyo game state used by the rule checker: ``KingOfTokyoState``, its parts joined.

The state follows the turn phases of the rules: start, roll, resolve (computed when the rolling
ends), Tokyo decisions (yield or stay), enter Tokyo, buy, end. Chance outcomes (dice faces,
revealed cards) arrive as actions, so a replay never rolls or shuffles.

This module holds the state proper (set-up, ``apply``, snapshots, the turn's start and end, the
outcome, ``legal_actions``); the other rules are its parts, one module each: card effects (effects),
dice, Tokyo, the market and the editions' additions (editions). The moves and the monsters, defined in
kbgrules.king_of_tokyo.moves and kbgrules.king_of_tokyo.monster, are importable from here too.

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

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from kbgrules.errors import IllegalMoveError, KbgError
from kbgrules.king_of_tokyo.dice import DiceRules
from kbgrules.king_of_tokyo.editions import EditionRules
from kbgrules.king_of_tokyo.effects import CardEffects, acting_keys
from kbgrules.king_of_tokyo.hooks import HOOKS
from kbgrules.king_of_tokyo.market import MarketRules
from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
from kbgrules.king_of_tokyo.monster import Monster as Monster
from kbgrules.king_of_tokyo.monster import Outcome, copy_counter, record_monster, restore_monster
from kbgrules.king_of_tokyo.moves import FACE_ALIASES as FACE_ALIASES
from kbgrules.king_of_tokyo.moves import FACES as FACES
from kbgrules.king_of_tokyo.moves import SHORT as SHORT
from kbgrules.king_of_tokyo.moves import Action as Action
from kbgrules.king_of_tokyo.moves import Buy as Buy
from kbgrules.king_of_tokyo.moves import ChanceNeeded as ChanceNeeded
from kbgrules.king_of_tokyo.moves import Cure as Cure
from kbgrules.king_of_tokyo.moves import Decide as Decide
from kbgrules.king_of_tokyo.moves import EndTurn as EndTurn
from kbgrules.king_of_tokyo.moves import Evolve as Evolve
from kbgrules.king_of_tokyo.moves import Keep as Keep
from kbgrules.king_of_tokyo.moves import Play as Play
from kbgrules.king_of_tokyo.moves import Reroll as Reroll
from kbgrules.king_of_tokyo.moves import Roll as Roll
from kbgrules.king_of_tokyo.moves import Sweep as Sweep
from kbgrules.king_of_tokyo.moves import Take as Take
from kbgrules.king_of_tokyo.moves import Tokens as Tokens
from kbgrules.king_of_tokyo.moves import UnsupportedCardError as UnsupportedCardError
from kbgrules.king_of_tokyo.moves import Use as Use
from kbgrules.king_of_tokyo.moves import face as face
from kbgrules.king_of_tokyo.moves import violation as violation
from kbgrules.king_of_tokyo.statebase import StateBase, turn_rows
from kbgrules.king_of_tokyo.tokyo import TokyoRules


class KingOfTokyoState(CardEffects, DiceRules, TokyoRules, MarketRules, EditionRules):
    """A game in progress: ``legal_actions()`` for player decisions, ``apply()`` checked by default."""

    def __init__(self, rs: KingOfTokyoRuleset, players: Sequence[str], market: Sequence[str] = (),
                 first: int = 0, begin: bool = True, monsters: Sequence[str] = ()) -> None:
        if rs.players != len(players):
            raise KbgError(f"the ruleset was loaded for {rs.players} players, not {len(players)}",
                           code="player-count")
        self.rs = rs
        self.players = tuple(players)
        self.monsters = [Monster(p, rs.start_life, rs.start_vp, rs.start_energy) for p in players]
        cards = rs.derived.get("cards")  # cards, tiles and evolutions by key: the same for every game
        if cards is None:
            cards = rs.derived["cards"] = {c.key: c for c in (*rs.cards, *rs.tiles, *rs.evolutions)}
        self.cards = cards
        has_events = rs.derived.get("has-events")
        if has_events is None:
            has_events = rs.derived["has-events"] = any(c.type == "event" for c in rs.cards)
        self.has_events = has_events
        self.tile_sides = rs.wickedness.default_side if rs.wickedness else ""
        self.tile_supply = [t.id for t in rs.tiles if t.side == "red" or not t.back]
        self.tile_faces = {}
        self.bought = False
        self.token_dice = 0
        deck = rs.derived.get("deck")
        if deck is None:
            deck = rs.derived["deck"] = Counter({c.id: c.copies for c in rs.cards})
        self.deck = copy_counter(deck)
        self.discards = Counter()
        self.market = []
        self.active = first
        self.phase = "roll"
        self.dice = []
        self.rolls = 0
        self.smash_damage = {}
        self.smashes = 0
        self.dealt_damage = False
        self.extra_turn = False
        self.frenzy_now = False
        self.bonus_rolls = 0
        self.fewer_dice = 0
        self.fewer_dice_next = 0
        self.freeze_chain = 0
        self.freeze_rays = {}
        self.ice_die = None
        self.used_this_turn = set()
        self.cures = {}
        self.final_dice = []
        self.just_revealed = set()
        self.heal_rays = []
        self.camouflage = {}
        self.deck_order = []
        self.pending = []
        self.turn_number = 1
        self.over = None
        self.history = []
        self.turn_ends = []
        self.log = []
        self.starting = False
        self.smashing = None
        self.turn_losses = []
        self.turn_began = None
        self.enter_snapshot = None
        self._holdings = rs.derived.setdefault(("holdings", HOOKS.version), {})
        self._bay_open = rs.derived.setdefault("bay-open", {})
        acting = rs.derived.get(("acting", HOOKS.version))
        if acting is None:
            acting = rs.derived[("acting", HOOKS.version)] = acting_keys(cards)
        self._acting, self._acting_when = acting
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

    # ---------------------------------------------------------------- turn structure

    def start_turn(self, effects: bool = True) -> None:
        """A new turn of the active monster; without ``effects``, a position stated after its start-of-turn
        effects (their gains already in the position)."""
        m = self.me
        self.phase = "roll"
        self.dice = []
        self.rolls = 0
        self.smash_damage = {}
        self.smashes = 0
        self.dealt_damage = False
        self.bonus_rolls = 0
        self.final_dice = []
        self.fewer_dice, self.fewer_dice_next = self.fewer_dice_next, 0
        self.bought = False
        self.token_dice = 0
        self.turn_losses = []
        self.turn_began = None
        if self.pending:  # new empty ones only where something was left (the old ones are nobody's)
            self.pending = []
        if self.used_this_turn:
            self.used_this_turn = set()
        if self.cures:
            self.cures = {}
        if self.heal_rays:
            self.heal_rays = []
        if self.just_revealed:
            self.just_revealed = set()
        if self.ice_die is not None and (self.ice_die[0] == self.active or self.monsters[self.ice_die[0]].eliminated):
            self.ice_die = None  # Encased in Ice lasts until its owner's next turn starts
        if self.freeze_rays:
            self.freeze_rays = {o: h for o, h in self.freeze_rays.items() if not self.monsters[h[0]].eliminated}
        if not effects:
            return
        if m.in_tokyo:
            r = self.rs.start_turn_reward
            self.gain(m, r.resource, r.amount)
        if not m.cards and not m.tiles and not m.evolutions:
            return  # no card of its own acts at the start of its turn
        for hook in self.hooks_at(m, "before_turn_start"):
            hook.before_turn_start(self, m)
        self.trigger(m, "turn_start")
        for hook in self.hooks_at(m, "on_turn_start"):
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

    def apply(self, action: Action, check: bool = True, chance_undo: bool = True) -> None:
        """Play ``action``; an illegal one raises IllegalMoveError.

        If a Camouflage holder would take damage whose dice are not known, raises ChanceNeeded
        and leaves the state unchanged. ``chance_undo=False`` keeps no copy of the state for that
        (but for a buy or sweep, whose failures are undone too): ChanceNeeded then leaves the state
        half-changed, to be thrown away, for a caller that gives the dice first (``camouflage_roll``;
        the log replay).
        """
        if self.over is not None:
            raise self.illegal("kot-after-end")
        if self.starting and not isinstance(action, Evolve):
            missing = [m.name for m in self.monsters if m.evo_owed]
            if missing:
                raise self.illegal("evo-not-owed", monster=missing[0],
                                 why="every monster draws its starting evolution before the first turn")
            self.starting = False
        kind = type(action)
        if kind not in _NO_DAMAGE and (chance_undo or kind is Buy or kind is Sweep) and self._camouflage_held():
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
            _DISPATCH[kind](self, action)  # _apply, inlined: this runs for every event
        self.history.append(action)

    def _apply(self, action: Action) -> None:
        _DISPATCH[type(action)](self, action)

    def _snapshot(self) -> dict[str, Any]:
        """A copy of everything an action can change (``_COPIED``; the rules, the history and the caches
        stay shared), written out attribute by attribute: snapshots are frequent while Camouflage is held."""
        return {
            "monsters": [record_monster(m) for m in self.monsters], "has_events": self.has_events,
            "tile_sides": self.tile_sides, "tile_supply": self.tile_supply.copy(),
            "tile_faces": self.tile_faces.copy(), "bought": self.bought, "token_dice": self.token_dice,
            "deck": copy_counter(self.deck), "discards": copy_counter(self.discards), "market": self.market.copy(),
            "active": self.active, "phase": self.phase, "dice": self.dice.copy(), "rolls": self.rolls,
            "smash_damage": self.smash_damage.copy(), "smashes": self.smashes, "dealt_damage": self.dealt_damage,
            "extra_turn": self.extra_turn, "frenzy_now": self.frenzy_now, "bonus_rolls": self.bonus_rolls,
            "fewer_dice": self.fewer_dice, "fewer_dice_next": self.fewer_dice_next, "freeze_chain": self.freeze_chain,
            "freeze_rays": self.freeze_rays.copy(), "ice_die": self.ice_die,
            "used_this_turn": self.used_this_turn.copy(), "cures": self.cures.copy(),
            "final_dice": self.final_dice.copy(), "just_revealed": self.just_revealed.copy(),
            "heal_rays": self.heal_rays.copy(), "camouflage": {k: v.copy() for k, v in self.camouflage.items()},
            "deck_order": self.deck_order.copy(), "pending": self.pending.copy(), "turn_number": self.turn_number,
            "over": self.over, "turn_ends": len(self.turn_ends), "log": len(self.log), "starting": self.starting,
            "smashing": self.smashing, "turn_losses": self.turn_losses.copy(),
            "turn_began": None if self.turn_began is None else self.turn_began.copy(),
        }

    def _snapshot_before(self, action: Action) -> dict[str, Any]:
        """What applying ``action`` may change, to restore it after: the whole snapshot, or for a roll or
        a re-roll that no card acts on, the dice alone (rolls and re-rolls are about half of the moves)."""
        kind = type(action)
        if (kind is Roll or kind is Reroll) and not self.freeze_rays and self.ice_die is None \
                and not self.hooks_at(self.me, "before_roll"):
            return {"active": self.active, "dice": self.dice.copy(), "rolls": self.rolls, "starting": self.starting}
        return self._snapshot()

    def _restore(self, snapshot: dict[str, Any]) -> None:
        for k, v in snapshot.items():
            if k == "monsters":
                self.monsters = [restore_monster(r) for r in v]
            elif k in _APPENDED:
                del getattr(self, k)[v:]
            else:
                setattr(self, k, v)

    def _end_turn(self, action: EndTurn) -> None:
        if self.phase == "roll" and self.rolls:
            self._resolve()
        if self.phase == "decide":
            self.finish_decisions()
        if self.phase != "buy":
            raise self.illegal("kot-unexpected", expected=self.expected(), got="the end of the turn")
        if action.monster != self.active:
            raise self.illegal("kot-wrong-monster", expected=self.me.name, actor=self.monsters[action.monster].name)
        m = self.monsters[self.active]
        if m.owed:
            owed = [lv for lv in m.owed if self.tiles_left(lv)]
            if owed and not m.eliminated:
                raise self.illegal("dark-tile-not-taken", monster=m.name, level=owed[0])
            m.owed = []
        if m.evo_owed:
            if not m.eliminated and self.evolutions_left(m):
                raise self.illegal("evo-not-drawn", monster=m.name, hearts=Counter(self.final_dice)["heart"])
            m.evo_owed = 0
        if self.freeze_chain and "freeze-time" not in self.used_this_turn:
            self.freeze_chain = 0
        if self.freeze_rays:  # a Freeze Ray goes back to its owner at the end of the holder's turn
            self.freeze_rays = {o: h for o, h in self.freeze_rays.items() if h[0] != self.active}
        if self.rs.buy_fallback_energy and not self.bought and not m.eliminated:
            self.gain_energy(m, self.rs.buy_fallback_energy)
        if not m.eliminated and (m.cards or m.tiles or m.evolutions):  # nothing in play: no turn-end effect
            self.trigger(m, "turn_end")
        for k, o in enumerate(self.monsters) if "on_turn_end" in self._acting else ():
            if not o.eliminated and (o.cards or o.tiles or o.evolutions):
                for hook in self.hooks_at(o, "on_turn_end"):
                    hook.on_turn_end(self, k)
        m = self.monsters[self.active]
        if not m.eliminated and m.tokens["poison"]:
            self.damage(self.active, m.tokens["poison"])
        self.turn_ends.append((self.active, turn_rows(self.monsters)))
        self._check_end()
        if self.over is None:
            self._next_turn()

    def _check_end(self) -> None:
        ms = self.monsters
        vp_goal = self.rs.vp_goal
        alive = 0
        ended = False  # a monster may have won, by VP or by a card: the lists below say
        for m in ms:
            if not m.eliminated:
                alive += 1
                if m.vp >= vp_goal or m.stored:
                    ended = True
        if alive > 1 and not ended:
            return
        if not alive:
            self.over = Outcome(True, (), "all monsters were eliminated")
            return
        won = [i for i, m in enumerate(ms) if not m.eliminated and m.stored and m.stored.get("wins")]
        if won:  # a card's win (Final Roar) first
            self.over = Outcome(True, tuple(ms[i].name for i in won), "Final Roar")
            return
        goal = [i for i, m in enumerate(ms) if not m.eliminated and m.vp >= vp_goal]
        if goal:
            self.over = Outcome(True, tuple(self.monsters[i].name for i in goal), f"{self.rs.vp_goal} VP")
        elif alive == 1:
            self.over = Outcome(True, tuple(m.name for m in ms if not m.eliminated), "last monster standing")

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

    # ---------------------------------------------------------------- the outcome and the choices

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
        for c in dict.fromkeys(self.market):
            hook = self.cards[c].hook
            if self.cost(c) <= self.me.energy and (hook is None or hook in HOOKS) and self.buy_allowed(self.me, c):
                out.append(Buy(self.active, c, None))
        if self.me.energy >= self.rs.sweep_cost:
            out.append(Sweep(self.active, ()))
        return out


# actions that never make a monster lose life, so never need Camouflage dice (ChanceNeeded comes only from
# damage(); the hooks they call, before_roll, free_reroll and others_max_rolls, change nothing)
_NO_DAMAGE: Final = frozenset((Roll, Reroll, Cure, Tokens))
_SHARED: Final = frozenset(("rs", "cards", "players", "history", "enter_snapshot", "_holdings", "_acting",
                            "_acting_when", "_rushers", "_bay_open"))  # not in a snapshot
# what a snapshot copies (in _snapshot): every attribute StateBase declares but the shared ones, named here
# because a state compiled by mypyc (docs/scale.md) has no __dict__; a new attribute must be added here
# and to _snapshot, or to _SHARED
_COPIED: Final = ("monsters", "has_events", "tile_sides", "tile_supply", "tile_faces", "bought", "token_dice", "deck",
           "discards", "market", "active", "phase", "dice", "rolls", "smash_damage", "smashes", "dealt_damage",
           "extra_turn", "frenzy_now", "bonus_rolls", "fewer_dice", "fewer_dice_next", "freeze_chain",
           "freeze_rays", "ice_die", "used_this_turn", "cures",
           "final_dice", "just_revealed", "heal_rays", "camouflage", "deck_order", "pending", "turn_number", "over",
           "turn_ends", "log", "starting", "smashing", "turn_losses", "turn_began")
# only ever appended to, and long by the end of a game: a snapshot keeps their lengths, not copies
_APPENDED: Final = frozenset(("turn_ends", "log"))
_declared = vars(StateBase).get("__annotations__") or None  # none once compiled
assert _declared is None or [k for k in _declared if k not in _SHARED] == list(_COPIED), "update _COPIED"

_DISPATCH: Final[dict[type, Any]] = {
    Roll: KingOfTokyoState._roll, Reroll: KingOfTokyoState._reroll, Keep: KingOfTokyoState._keep,
    Decide: KingOfTokyoState._decide, Buy: KingOfTokyoState._buy_or_sweep, Sweep: KingOfTokyoState._buy_or_sweep,
    EndTurn: KingOfTokyoState._end_turn, Use: KingOfTokyoState._use, Cure: KingOfTokyoState._cure,
    Take: KingOfTokyoState._take, Evolve: KingOfTokyoState._evolve, Play: KingOfTokyoState._play,
    Tokens: KingOfTokyoState._tokens,
}
