"""Python hooks for King of Tokyo cards (the base game, 2016 and 2011) whose effects the data vocabulary
cannot express.

A card in ``cards.yaml`` names its hook (``hook: energy_drink``); the engine calls the hook's
methods at fixed points (:class:`kbgrules.king_of_tokyo.hooks.Hook`). A hook not in :data:`HOOKS`
makes the checker stop with ``kot-unsupported-card`` when the card is bought. ``HOOKS`` here is the
whole registry (this module's hooks, the Dark Edition's and the evolutions').
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kbgrules.errors import IllegalMoveError
from kbgrules.king_of_tokyo.hooks import HOOKS, Hook, register
from kbgrules.king_of_tokyo.moves import face

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.monster import Monster
    from kbgrules.king_of_tokyo.statebase import StateBase


def _need(st: StateBase, i: int, card: str, energy: int) -> None:
    m = st.monsters[i]
    if m.energy < energy:
        raise st.illegal("kot-no-energy", monster=m.name, need=energy, have=m.energy, what=st.cards[card].name)
    m.energy -= energy


def _in_roll(st: StateBase, i: int, card: str) -> None:
    if i != st.active or st.phase != "roll" or not st.rolls:
        raise st.illegal("kot-card-use", card=st.cards[card].name, why="it is used while its owner is rolling")


def _change_die(st: StateBase, card: str, args: Sequence[str], to_one: bool = False) -> None:
    want = 1 if to_one else 2
    if len(args) != want:
        form = "FACE" if to_one else "FACE NEW-FACE"
        raise st.illegal("kot-card-use", card=st.cards[card].name, why=f"say which die changes: use {card} {form}")
    old = face(args[0])
    new = "1" if to_one else face(args[1])
    if old is None or new is None:
        raise st.illegal("kot-bad-face", face=args[0] if old is None else args[1])
    if old not in st.dice:
        raise st.illegal("kot-card-use", card=st.cards[card].name, why=f"no die shows {old}")
    st.dice[st.dice.index(old)] = new


class EnergyDrink(Hook):
    card = "energy-drink"

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _in_roll(st, i, self.card)
        _need(st, i, self.card, 1)
        st.bonus_rolls += 1


class SmokeCloud(Hook):
    card = "smoke-cloud"

    def on_buy(self, st: StateBase, m: Monster) -> None:
        m.tokens["smoke"] = 3

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _in_roll(st, i, self.card)
        m = st.monsters[i]
        m.tokens["smoke"] -= 1
        st.bonus_rolls += 1
        if m.tokens["smoke"] <= 0:
            m.tokens["smoke"] = 0
            st.discard_card(m, self.card)


class HerdCuller(Hook):
    card = "herd-culler"

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _in_roll(st, i, self.card)
        if self.card in st.used_this_turn:
            raise st.illegal("kot-card-use", card="Herd Culler", why="it works once per turn")
        _change_die(st, self.card, args, to_one=True)
        st.used_this_turn.add(self.card)


class Stretchy(Hook):
    card = "stretchy"

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _in_roll(st, i, self.card)
        _need(st, i, self.card, 2)
        _change_die(st, self.card, args)


class PlotTwist(Hook):
    card = "plot-twist"

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _in_roll(st, i, self.card)
        _change_die(st, self.card, args)
        st.discard_card(st.monsters[i], self.card)


class BackgroundDweller(Hook):
    card = "background-dweller"

    def free_reroll(self, st: StateBase, m: Monster, dice: Sequence[str]) -> bool:
        return all(d == "3" for d in dice)


class RapidHealing(Hook):
    card = "rapid-healing"

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        _need(st, i, self.card, 2)
        m.hp = min(st.max_hp(m), m.hp + 1)


class Wings(Hook):
    card = "wings"

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _need(st, i, self.card, 2)
        st.monsters[i].shielded_turn = st.turn_number


class FreezeTime(Hook):
    card = "freeze-time"
    after_roll = True

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if i != st.active or st.phase != "buy" or st.final_dice.count("1") < 3:
            raise st.illegal("kot-card-use", card="Freeze Time", why="its owner must have ended the roll with 1-1-1")
        if self.card in st.used_this_turn:
            raise st.illegal("kot-card-use", card="Freeze Time", why="it gives one extra turn per turn")
        st.used_this_turn.add(self.card)
        st.extra_turn = True
        st.freeze_chain += 1  # chained: each extra turn rolls one die fewer than the turn that earned it
        st.fewer_dice_next += st.freeze_chain


class Metamorph(Hook):
    card = "metamorph"
    after_roll = True

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        if i != st.active or st.phase != "buy":
            raise st.illegal("kot-card-use", card="Metamorph", why="cards are sold at the end of the owner's turn")
        cid = st.card_id(args[0]) if len(args) == 1 else None
        if cid is None or cid not in m.cards:
            raise st.illegal("kot-card-use", card="Metamorph", why="name one keep card of yours to discard")
        card = st.cards[cid]
        st.discard_card(m, card.id)
        m.energy += card.cost


class BatteryMonster(Hook):
    card = "battery-monster"
    holds = True

    def on_buy(self, st: StateBase, m: Monster) -> None:
        m.stored[self.card] = 6

    def on_turn_start(self, st: StateBase, m: Monster) -> None:
        take = min(2, m.stored.get(self.card, 0))
        m.energy += take
        m.stored[self.card] = m.stored.get(self.card, 0) - take
        if m.stored[self.card] <= 0:
            m.stored.pop(self.card, None)
            st.discard_card(m, self.card)


class MonsterBatteries(BatteryMonster):
    """2011: ``use battery-monster N`` puts N of the owner's energy on the card and the bank adds N."""

    def on_buy(self, st: StateBase, m: Monster) -> None:
        m.stored[self.card] = 0
        m.stored["battery-monster:charge"] = st.turn_number  # may be charged during this turn only

    def on_turn_start(self, st: StateBase, m: Monster) -> None:
        m.stored.pop("battery-monster:charge", None)
        super().on_turn_start(st, m)

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        if len(args) != 1 or not (args[0].isascii() and args[0].isdigit()):
            raise st.illegal("kot-card-use", card="Monster Batteries", why="write: use battery-monster N (energy)")
        if m.stored.get("battery-monster:charge") != st.turn_number:
            raise st.illegal("kot-card-use", card="Monster Batteries", why="energy goes on it once, when it is bought")
        n = int(args[0])
        if m.energy < n:
            raise st.illegal("kot-card-use", card="Monster Batteries", why=f"{m.name} has only {m.energy} energy")
        m.energy -= n
        m.stored.pop("battery-monster:charge")
        m.stored[self.card] = 2 * n


class ItHasAChild(Hook):
    card = "it-has-a-child"

    def on_zero_life(self, st: StateBase, i: int) -> bool:
        m = st.monsters[i]
        for c in list(m.cards):
            st.discard_card(m, c)
        m.vp = 0
        m.hp = st.rs.max_life
        m.location = "outside"
        for k in m.tokens:
            m.tokens[k] = 0
        st.log.append(f"{m.name} is reborn (It Has a Child!)")
        return True


class Jets(Hook):
    card = "jets"

    def on_yield(self, st: StateBase, i: int) -> None:
        st.monsters[i].hp += st.smash_damage.get(i, 0)


class TokenGiver(Hook):
    """Poison Spit and Shrink Ray: each monster the owner's smashes hurt gets a token."""

    def __init__(self, card: str, token: str) -> None:
        self.card = card
        self.token = token

    def on_smash_damage(self, st: StateBase, victim: int) -> None:
        st.monsters[victim].tokens[self.token] += 1


class Passive(Hook):
    """A card the engine reads where it matters (Opportunist, Made in a Lab, Parasitic Tentacles)."""

    def __init__(self, card: str) -> None:
        self.card = card


class PsychicProbe(Hook):
    card = "psychic-probe"

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if i == st.active or st.phase != "roll" or not st.rolls:
            raise st.illegal("kot-card-use", card="Psychic Probe", why="it re-rolls a die of the monster rolling now")
        key = f"psychic-probe:{i}"
        if key in st.used_this_turn:
            raise st.illegal("kot-card-use", card="Psychic Probe", why="once per turn of each other monster")
        if len(args) != 3 or args[1] != ":":
            raise st.illegal("kot-card-use", card="Psychic Probe", why="write: use psychic-probe FACE : NEW-FACE")
        old, new = face(args[0]), face(args[2])
        if old is None or new is None:
            raise st.illegal("kot-bad-face", face=args[0] if old is None else args[2])
        if old not in st.dice:
            raise st.illegal("kot-card-use", card="Psychic Probe", why=f"no die shows {old}")
        st.dice[st.dice.index(old)] = new
        st.used_this_turn.add(key)
        if new == "heart":
            st.discard_card(st.monsters[i], self.card)


class HealingRay(Hook):
    card = "healing-ray"

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _in_roll(st, i, self.card)
        names = {m.name: k for k, m in enumerate(st.monsters)}
        if len(args) not in (1, 2) or args[0] not in names or (len(args) == 2 and not (
                args[1].isascii() and args[1].isdigit() and int(args[1]) > 0)):
            raise st.illegal("kot-card-use", card="Healing Ray", why="write: use healing-ray MONSTER [HEARTS]")
        target = names[args[0]]
        if target == i or st.monsters[target].eliminated:
            raise st.illegal("kot-card-use", card="Healing Ray", why="it heals another monster still in the game")
        st.heal_rays.append((target, int(args[1]) if len(args) == 2 else 1))


class Mimic(Hook):
    """``use mimic CARD``: copy a keep card in play, as if just bought; moving it later costs 1 energy."""

    card = "mimic"

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        target = st.card_id(args[0]) if len(args) == 1 else None
        if target is None:
            raise st.illegal("kot-card-use", card="Mimic", why="write: use mimic CARD (a keep card in play)")
        if target not in st.cards:  # an evolution's name: Power Up! says Mimic never copies one
            evolution = st.cards.get(f"evolution:{target}")
            if evolution is not None:
                raise st.illegal("evo-not-a-card", card="Mimic", target=evolution.name)
            raise st.illegal("kot-card-use", card="Mimic", why=f"{args[0]} is not a Power card")
        held = any(target in o.cards for o in st.monsters if not o.eliminated)
        if target == "mimic" or not held or st.cards[target].type != "keep":
            raise st.illegal("kot-card-use", card="Mimic", why=f"no monster has {st.cards[target].name} in play")
        first = m.mimic is None or m.mimic not in st.in_play(m)
        if not first:
            if i != st.active or st.phase != "roll" or st.rolls:
                raise st.illegal("kot-card-use", card="Mimic", why="the token moves at the start of its owner's turn")
            _need(st, i, self.card, 1)
        m.tokens["mimic"] = 1
        copy_card(st, m, target)


def copy_card(st: StateBase, m: Monster, target: str) -> None:
    """Mimic and Fluxling: ``m`` now copies ``target``, as if it had just bought it."""
    m.mimic = target
    for e in st.cards[target].effects:
        if e["when"] == "buy":
            st.card_effect(m, e)
    hook = st.cards[target].hook
    if hook is not None and hook in HOOKS:
        HOOKS[hook].on_buy(st, m)


BASE_HOOKS: dict[str, Hook] = {
    "camouflage": Passive("camouflage"),
    "mimic": Mimic(),
    "opportunist": Passive("opportunist"),
    "made_in_a_lab": Passive("made-in-a-lab"),
    "parasitic_tentacles": Passive("parasitic-tentacles"),
    "psychic_probe": PsychicProbe(),
    "healing_ray": HealingRay(),
    "poison_spit": TokenGiver("poison-spit", "poison"),
    "shrink_ray": TokenGiver("shrink-ray", "shrink"),
    "energy_drink": EnergyDrink(),
    "smoke_cloud": SmokeCloud(),
    "herd_culler": HerdCuller(),
    "stretchy": Stretchy(),
    "plot_twist": PlotTwist(),
    "background_dweller": BackgroundDweller(),
    "rapid_healing": RapidHealing(),
    "wings": Wings(),
    "freeze_time": FreezeTime(),
    "metamorph": Metamorph(),
    "battery_monster": BatteryMonster(),
    "monster_batteries": MonsterBatteries(),
    "it_has_a_child": ItHasAChild(),
    "jets": Jets(),
}

register(__name__, BASE_HOOKS)

__all__ = ["HOOKS", "Hook", "IllegalMoveError"]
