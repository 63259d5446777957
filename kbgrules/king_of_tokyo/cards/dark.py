"""Python hooks for King of Tokyo Dark Edition cards and wickedness tiles (see kbgrules.king_of_tokyo.hooks).

Readings (Board Game Arena, thoun/kingoftokyo, where the card texts leave a gap):

* Final Roar, Zombify and It Has a Child! are asked in that order when a monster drops to 0.
  Final Roar keeps its holder in the game at 0 life until the turn ends; the game then ends with
  it as the winner (before any 20 VP win), as a 20 VP win waits for the end of the turn.
* A Zombify or It Has a Child! rebirth clears the wickedness gauge and the thresholds passed, so
  the tiles can be earned again; tokens are cleared as the base It Has a Child! hook does.
* Super Jump is written ``NAME use super-jump``: right after a loss of life it gives 1 life back;
  before the loss (after the roll whose smashes will hurt, or before the action that will hurt)
  it cancels 1 life of the next loss this turn, which is how a lethal loss is survived.
* Unstable DNA is written ``NAME use unstable-dna CARD`` right after ``NAME yield``.
* Fluxling is written ``NAME use fluxling CARD``: any time while it copies nothing, otherwise at
  the start of the owner's turn, before rolling (free).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from kbgrules.king_of_tokyo.cards.base import TokenGiver, copy_card
from kbgrules.king_of_tokyo.hooks import Hook, register
from kbgrules.king_of_tokyo.moves import Decide, Use

if TYPE_CHECKING:
    from kbgrules.errors import IllegalMoveError
    from kbgrules.king_of_tokyo.monster import Monster
    from kbgrules.king_of_tokyo.statebase import StateBase


def _fail(st: StateBase, card: str, why: str) -> IllegalMoveError:
    return st.illegal("kot-card-use", card=st.cards[card].name, why=why)


def _pay(st: StateBase, m: Monster, card: str, energy: int) -> None:
    if m.energy < energy:
        raise st.illegal("kot-no-energy", monster=m.name, need=energy, have=m.energy, what=st.cards[card].name)
    m.energy -= energy


def _once_per_turn(st: StateBase, m: Monster, card: str) -> bool:
    """True the first time in this turn (several copies of a card share one effect)."""
    key = f"{card}:turn"
    if m.stored.get(key) == st.turn_number:
        return False
    m.stored[key] = st.turn_number
    return True


def _reborn(st: StateBase, m: Monster, hp: int, keep: Sequence[str] = ()) -> None:
    """Zombify and the Dark It Has a Child!: cards (but ``keep``) and tiles go, the gauge restarts at 0."""
    for c in list(m.cards):
        if c not in keep:
            st.discard_card(m, c)
    m.tiles = []  # discarded, as on elimination (not back to the supply)
    m.mimic = None
    m.wickedness = 0
    m.levels = []  # BGA clears the thresholds passed: 3, 6 and 10 give tiles again
    m.owed = []
    m.vp = 0
    m.hp = hp
    m.location = "outside"
    for k in m.tokens:
        m.tokens[k] = 0


# ------------------------------------------------------------------ wickedness tiles


class FinalRoar(Hook):
    card = "tile:final-roar"
    zero_life_order = -2  # before Zombify and It Has a Child!

    def on_zero_life(self, st: StateBase, i: int) -> bool:
        m = st.monsters[i]
        if m.stored.get("wins"):
            return True
        if m.vp < 16:
            return False
        m.stored["wins"] = 1  # the game ends with the turn, this monster the winner (KingOfTokyoState._check_end)
        st.log.append(f"{m.name} is knocked out with {m.vp} VP and wins the game at the end of the turn (Final Roar)")
        return True

    def before_damage(self, st: StateBase, i: int, amount: int, source: int | None) -> int:
        return 0 if st.monsters[i].stored.get("wins") else amount  # down at 0 until the turn ends


class Underdog(Hook):
    card = "tile:underdog"

    def on_resolve(self, st: StateBase, m: Monster, smashes: int) -> int:
        m.stored["underdog:vp"] = m.vp  # compared as the smashes land (BGA: the smasher's VP at the roll)
        m.stored["underdog:turn"] = st.turn_number
        return smashes

    def on_smash_damage(self, st: StateBase, victim: int) -> None:
        me, o = st.me, st.monsters[victim]
        if me.stored.get("underdog:vp", me.vp) < o.vp:
            o.vp -= 1
            me.vp += 1


class Fluxling(Hook):
    """``use fluxling CARD``: copy a keep card any monster holds, as if just bought."""

    card = "tile:fluxling"

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        target = st.card_id(args[0]) if len(args) == 1 else None
        if target is None:
            raise _fail(st, self.card, "write: use fluxling CARD (a Keep card a monster holds)")
        if not any(target in o.cards for o in st.monsters if not o.eliminated):
            raise _fail(st, self.card, f"no monster holds {args[0]}")
        if m.mimic is not None and (i != st.active or st.phase != "roll" or st.rolls):
            raise _fail(st, self.card, "it moves to another card at the start of its owner's turn, before rolling")
        copy_card(st, m, target)


class HaveItAll(Hook):
    card = "tile:have-it-all"

    def on_buy(self, st: StateBase, m: Monster) -> None:
        m.vp += len(m.cards)  # own Keep cards; later buys score through the tile's buy_other effect


# ------------------------------------------------------------------ Dark Edition power cards


class ItHasAChildDark(Hook):
    card = "it-has-a-child"

    def on_zero_life(self, st: StateBase, i: int) -> bool:
        m = st.monsters[i]
        _reborn(st, m, st.rs.max_life, keep=("zombify",) if m.stored.get("zombified") else ())
        st.log.append(f"{m.name} is reborn with wickedness 0 (It Has a Child!)")
        return True


_ZOMBIE: Final = {"zombified": 1, "max_hp": 12, "no_dice_heal": 1}  # Zombify's mark, for the rest of the game


class Zombify(Hook):
    card = "zombify"
    zero_life_order = -1  # before It Has a Child!
    mark = "zombified"

    def is_marked(self, m: Monster) -> bool:
        return all(m.stored.get(k) == v for k, v in _ZOMBIE.items())

    def put_mark(self, m: Monster) -> None:
        m.stored.update(_ZOMBIE)

    def on_zero_life(self, st: StateBase, i: int) -> bool:
        m = st.monsters[i]
        if m.stored.get("zombified"):
            return False
        self.put_mark(m)
        _reborn(st, m, 12, keep=(self.card,))
        st.log.append(f"{m.name} comes back as a zombie with 12 life (Zombify)")
        return True


class Hibernation(Hook):
    card = "hibernation"

    def may_be_bought(self, st: StateBase, m: Monster) -> None:
        if m.in_tokyo:
            raise _fail(st, self.card, "it is bought only outside Tokyo")

    def may_buy(self, st: StateBase, m: Monster, card: str) -> None:
        raise _fail(st, self.card, f"{m.name} hibernates and buys no Power cards (it may discard Hibernation first)")

    def may_enter(self, st: StateBase, m: Monster) -> bool:
        return False

    def before_damage(self, st: StateBase, i: int, amount: int, source: int | None) -> int:
        return 0

    def resolve_dice(self, st: StateBase, m: Monster, dice: list[str]) -> list[str]:
        return [d for d in dice if d in ("energy", "heart")]  # numbers and smashes do nothing

    def on_resolve(self, st: StateBase, m: Monster, smashes: int) -> int:
        return 0  # smashes added by cards hurt nobody either

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        if self.card in m.cards:
            st.discard_card(m, self.card)
        else:
            m.mimic = None  # the Fluxling copy stops
        st.log.append(f"{m.name} wakes up (Hibernation discarded)")


class Nanobots(Hook):
    card = "nanobots"

    def before_turn_start(self, st: StateBase, m: Monster) -> None:
        if m.hp < 3 and _once_per_turn(st, m, self.card):  # before Eternal, as in BGA
            st.heal(m, 2 * st.in_play(m).count(self.card))


class NaturalSelection(Hook):
    card = "natural-selection"

    def on_turn_end(self, st: StateBase, active: int) -> None:
        m = st.me
        if active != st.active or self.card not in st.in_play(m) or m.eliminated:
            return
        if "3" in st.final_dice and m.hp > 0 and _once_per_turn(st, m, self.card):
            st.log.append(f"{m.name} ends its turn with a 3 and loses all its life (Natural Selection)")
            st.damage(st.active, m.hp, st.active)


class ReflectiveHide(Hook):
    card = "reflective-hide"

    def __init__(self) -> None:
        self.reflecting = False

    def after_damage(self, st: StateBase, i: int, lost: int, source: int | None) -> None:
        if source is None or source == i or self.reflecting or st.monsters[i].hp <= 0:
            return  # poison has no monster behind it; a knocked-out holder has lost its cards
        self.reflecting = True  # the point sent back is not reflected again
        try:
            st.damage(source, 1, i)
        finally:
            self.reflecting = False


class SuperJump(Hook):
    """``use super-jump``: pay 1 energy to cancel the loss of 1 life; once per copy in each turn."""

    card = "super-jump"
    KEYS = ("lost", "back", "uses", "shield", "act", "at")

    def _turn(self, st: StateBase, m: Monster) -> None:
        if m.stored.get("super-jump:turn") != st.turn_number:
            for k in self.KEYS:
                m.stored.pop(f"super-jump:{k}", None)
            m.stored["super-jump:turn"] = st.turn_number

    def before_damage(self, st: StateBase, i: int, amount: int, source: int | None) -> int:
        m = st.monsters[i]
        self._turn(st, m)
        cancel = min(amount, m.stored.get("super-jump:shield", 0))
        if cancel:
            m.stored["super-jump:shield"] -= cancel
            st.log.append(f"{m.name} cancels the loss of {cancel} life (Super Jump)")
        return amount - cancel

    def after_damage(self, st: StateBase, i: int, lost: int, source: int | None) -> None:
        m = st.monsters[i]
        self._turn(st, m)
        event = (len(st.history), m.hp)
        if (m.stored.get("super-jump:act"), m.stored.get("super-jump:at")) == event:
            return  # a second copy hears of the same loss
        m.stored["super-jump:act"], m.stored["super-jump:at"] = event
        m.stored["super-jump:lost"] = m.stored.get("super-jump:lost", 0) + lost

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        self._turn(st, m)
        uses = m.stored.get("super-jump:uses", 0)
        if uses >= st.in_play(m).count(self.card):
            raise _fail(st, self.card, "it works once in each monster's turn")
        pending = m.stored.get("super-jump:lost", 0) - m.stored.get("super-jump:back", 0)
        if pending > 0:  # right after a loss: 1 life comes back
            _pay(st, m, self.card, 1)
            m.stored["super-jump:uses"] = uses + 1
            m.stored["super-jump:back"] = m.stored.get("super-jump:back", 0) + 1
            m.hp = min(st.max_hp(m), m.hp + 1)
            st.log.append(f"{m.name} cancels the loss of 1 life (Super Jump)")
            return
        unresolved = st.phase == "roll" and st.rolls > 0
        snapshot = st._snapshot() if unresolved else None
        _pay(st, m, self.card, 1)
        m.stored["super-jump:uses"] = uses + 1
        shield = m.stored.get("super-jump:shield", 0)
        m.stored["super-jump:shield"] = shield + 1  # cancels 1 life of the next loss this turn
        if snapshot is not None:  # the rolling ends here and its smashes land on the shield
            st._resolve()
            if st.monsters[i].stored.get("super-jump:shield", 0) > shield:
                st._restore(snapshot)
                raise _fail(st, self.card, f"{m.name} loses no life when these dice resolve")


class UnstableDNA(Hook):
    """``use unstable-dna CARD`` right after yielding: swap it for a card of the monster whose smashes hit."""

    card = "unstable-dna"

    def on_yield(self, st: StateBase, i: int) -> None:
        m = st.monsters[i]
        m.stored["unstable-dna:turn"] = st.turn_number
        m.stored["unstable-dna:at"] = len(st.history)  # the yield's place in the history

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m, attacker = st.monsters[i], st.me
        at = m.stored.get("unstable-dna:at", -1)
        just_yielded = (m.stored.get("unstable-dna:turn") == st.turn_number and at >= 0
                        and all(isinstance(a, Decide | Use) for a in st.history[at:]))
        if not just_yielded or i == st.active:
            raise _fail(st, self.card, f"{m.name} trades it right after yielding Tokyo")
        if self.card not in m.cards:
            raise _fail(st, self.card, "a copy (Fluxling) cannot be traded")
        target = st.card_id(args[0]) if len(args) == 1 else None
        if target is None or target not in attacker.cards:
            raise _fail(st, self.card, f"write: use unstable-dna CARD (one of {attacker.name}'s cards)")
        m.cards.remove(self.card)
        attacker.cards.remove(target)
        m.cards.append(target)
        attacker.cards.append(self.card)
        if target == "smoke-cloud":  # the charges travel with the card
            m.tokens["smoke"], attacker.tokens["smoke"] = attacker.tokens["smoke"], 0
        for o in (m, attacker):
            o.hp = min(o.hp, st.max_hp(o))
        m.stored.pop("unstable-dna:at", None)
        st.log.append(f"{m.name} trades Unstable DNA for {attacker.name}'s {st.cards[target].name}")


HOOKS: dict[str, Hook] = {
    "final_roar": FinalRoar(),
    "poison_spit_tile": TokenGiver("tile:poison-spit", "poison"),
    "underdog": Underdog(),
    "fluxling": Fluxling(),
    "have_it_all": HaveItAll(),
    "it_has_a_child_dark": ItHasAChildDark(),
    "hibernation": Hibernation(),
    "nanobots": Nanobots(),
    "natural_selection": NaturalSelection(),
    "reflective_hide": ReflectiveHide(),
    "super_jump": SuperJump(),
    "unstable_dna": UnstableDNA(),
    "zombify": Zombify(),
}

register(__name__, HOOKS)
