"""Power Up! evolutions of Meka Dragon (see kbgrules.king_of_tokyo.cards.evolutions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kbgrules.king_of_tokyo.cards.evolutions.common import (
    ThisTurnOnly,
    _after_in_play,
    _before_roll,
    _key,
    _linger,
    _monster,
    _own_roll,
    _read_faces,
    _refuse,
)
from kbgrules.king_of_tokyo.hooks import Hook
from kbgrules.king_of_tokyo.statebase import turn_rows

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.statebase import StateBase


class MechaBlast(ThisTurnOnly):
    card = _key("mecha-blast")
    lasting = "mecha-blast"

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _own_roll(st, i, "mecha-blast")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _linger(st, st.monsters[i], "mecha-blast")

    def deal_damage(self, st: StateBase, owner: int, victim: int, amount: int) -> int:
        return amount + 2 if st.smashing == victim and owner == st.active else amount


class DestructiveAnalysis(Hook):
    card = _key("destructive-analysis")

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _own_roll(st, i, "destructive-analysis")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        st.gain_energy(st.monsters[i], st.dice.count("smash"))


class TuneUp(Hook):
    """``play tune-up`` before the first roll, outside Tokyo: heal 4, gain 2 energy; the turn is over at
    once (no roll, no buy, no end-of-turn effects; the log goes on with the next monster's turn)."""

    card = _key("tune-up")

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        _before_roll(st, i, "tune-up")
        if st.monsters[i].in_tokyo:
            raise _refuse(st, "tune-up", "its owner must be outside Tokyo")

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        st.heal(m, 4)
        st.gain_energy(m, 2)
        st.log.append(f"{m.name}'s turn ends (Tune-Up)")
        st.turn_ends.append((st.active, turn_rows(st.monsters)))
        st._check_end()
        if st.over is None:
            st._next_turn()


class BreathOfDoom(Hook):
    card = _key("breath-of-doom")

    def dealt_damage(self, st: StateBase, owner: int, victim: int, lost: int) -> None:
        key = f"breath-of-doom:{owner}"
        if not st.monsters[victim].in_tokyo or key in st.used_this_turn:
            return
        st.used_this_turn.add(key)
        for j in st.alive():
            if j not in (owner, victim) and not st.monsters[j].in_tokyo:
                st.damage(j, 1, owner)


class LightningArmor(Hook):
    """``use lightning-armor FACE ...`` after the owner lost life to another monster this turn: the dice
    rolled, one per life lost then; each Smash makes that monster lose 1 life. Each loss is answered once."""

    card = _key("lightning-armor")

    def after_damage(self, st: StateBase, i: int, lost: int, source: int | None) -> None:
        if source is None or source == i:
            return
        m = st.monsters[i]
        key = f"lightning-armor@{st.turn_number}#{len(st.history)}>{source}"  # one per action and dealer
        m.stored[key] = m.stored.get(key, 0) + lost

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        now = f"lightning-armor@{st.turn_number}#"
        for key in [k for k in m.stored if k.startswith("lightning-armor@") and not k.startswith(now)]:
            del m.stored[key]  # a loss of an earlier turn
        waiting = [k for k in m.stored if k.startswith("lightning-armor@")]
        if not waiting:
            raise _refuse(st, "lightning-armor", f"no other monster has made {m.name} lose life this turn "
                                                 "(or its dice were rolled already)")
        match = [k for k in waiting if m.stored[k] == len(args)]
        if not match:
            lost = " or ".join(str(m.stored[k]) for k in waiting)
            raise _refuse(st, "lightning-armor", f"roll one die per life lost: {lost}, not {len(args)}")
        key = match[0]
        faces = _read_faces(st, args)
        del m.stored[key]
        dealer = int(key.rsplit(">", 1)[1])
        st.log.append(f"{m.name} rolls {' '.join(faces)} for Lightning Armor")
        st.damage(dealer, faces.count("smash"), i)


class ClawsOfSteel(Hook):
    card = _key("claws-of-steel")

    def deal_damage(self, st: StateBase, owner: int, victim: int, amount: int) -> int:
        if owner != st.active:
            return amount
        before = sum(lost for v, s, lost, _ in st.turn_losses if v == victim and s == owner)
        later = 0  # what the owner's evolutions whose hooks run after this one will add
        if _after_in_play(st, owner, "claws-of-steel", "mecha-blast") and st.smashing == victim:
            later += 2
        if _after_in_play(st, owner, "claws-of-steel", "target-acquired") and \
                st.monsters[owner].stored.get("target-acquired") == victim:
            later += 1
        return amount + 1 if before + amount + later >= 3 else amount


class TargetAcquired(Hook):
    """``use target-acquired MONSTER``: a monster whose smashes hurt the owner this turn gets the Target
    token; the owner then makes it lose 1 more life each time."""

    card = _key("target-acquired")

    def check(self, st: StateBase, i: int, args: Sequence[str]) -> int:
        if len(args) != 1:
            raise _refuse(st, "target-acquired", "write: NAME use target-acquired MONSTER")
        t = _monster(st, "target-acquired", args[0])
        if not any(v == i and s == t and smash for v, s, _, smash in st.turn_losses):
            raise _refuse(st, "target-acquired", f"{args[0]}'s smashes have not hurt its owner this turn")
        return t

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        if args:
            self.check(st, i, args)

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        st.monsters[i].stored["target-acquired"] = self.check(st, i, args)

    def deal_damage(self, st: StateBase, owner: int, victim: int, amount: int) -> int:
        return amount + 1 if st.monsters[owner].stored.get("target-acquired") == victim else amount


HOOKS: dict[str, Hook] = {
    "mecha_blast": MechaBlast(),
    "destructive_analysis": DestructiveAnalysis(),
    "tune_up": TuneUp(),
    "breath_of_doom": BreathOfDoom(),
    "claws_of_steel": ClawsOfSteel(),
    "lightning_armor": LightningArmor(),
    "target_acquired": TargetAcquired(),
}
