"""King of Tokyo's Tokyo: its spaces (City, and Bay with enough monsters), the loss of life that can
knock a monster out, the yield decisions after smashes, and the Enter Tokyo step.
"""

from __future__ import annotations

from kbgrules.core.compiled import trait
from kbgrules.king_of_tokyo.moves import ChanceNeeded, Decide
from kbgrules.king_of_tokyo.statebase import StateBase


@trait
class TokyoRules(StateBase):
    """Tokyo and the monsters' life: who is where, damage and elimination, yielding and entering."""

    def bay_open(self) -> bool:
        alive = len(self.alive())
        found = self._bay_open.get(alive)
        if found is None:
            row = self.rs.setup_table.get(alive)
            spaces = row.tokyo_spaces if row else ("city",)
            found = self._bay_open[alive] = ("bay" in self.rs.tokyo_spaces and "bay" in spaces
                                             and alive >= self.rs.bay_min_monsters)
        return found

    def occupant(self, space: str) -> int | None:
        for i, m in enumerate(self.monsters):
            if m.location == space and not m.eliminated:
                return i
        return None

    def occupants(self) -> tuple[int | None, int | None]:
        """``(occupant("city"), occupant("bay"))`` in one pass."""
        city = bay = None
        for i, m in enumerate(self.monsters):
            if m.location != "outside" and not m.eliminated:
                if m.location == "city":
                    if city is None:
                        city = i
                elif m.location == "bay" and bay is None:
                    bay = i
        return city, bay

    def neighbours(self, i: int) -> list[int]:
        """The surviving monsters to the left and right of ``i`` (one if only two survive)."""
        alive = self.alive()
        if len(alive) < 2:
            return []
        k = alive.index(i)
        return list(dict.fromkeys([alive[(k - 1) % len(alive)], alive[(k + 1) % len(alive)]]))

    # ---------------------------------------------------------------- life

    def damage(self, i: int, amount: int, source: int | None = None) -> int:
        """Take ``amount`` life from monster ``i``; returns the life actually lost."""
        m = self.monsters[i]
        if m.eliminated or amount <= 0:
            return 0
        if source is not None and source != i:  # the dealer's cards first (Mecha Blast, Target Acquired)
            src = self.monsters[source]
            if src.cards or src.tiles or src.evolutions:
                for hook in self.hooks_at(src, "deal_damage"):
                    amount = hook.deal_damage(self, source, i, amount)
        held = bool(m.cards or m.tiles or m.evolutions)  # without, no card of its own acts (most monsters)
        if held or self.has_events:
            ignore = [int(e["ignore_loss_of"]) for e in self.effects(m, "always") if "ignore_loss_of" in e]
            if amount in ignore:
                return 0
        if m.shielded_turn == self.turn_number:
            return 0
        if held:
            for hook in self.hooks_at(m, "before_damage"):
                amount = hook.before_damage(self, i, amount, source)
        if amount <= 0:
            return 0
        if held and "camouflage" in self.in_play(m):
            rolls = self.camouflage.get(i)
            if not rolls:
                raise ChanceNeeded(i, amount)
            faces = rolls.pop(0)
            if len(faces) != amount:
                raise self.illegal("kot-camouflage", problem=f"{m.name} loses {amount} life here: its "
                                   f"Camouflage roll needs {amount} {'die' if amount == 1 else 'dice'}, "
                                   f"not {len(faces)}")
            amount -= sum(1 for f in faces if f == "heart")
            if amount <= 0:
                return 0
        before = m.hp
        m.hp = max(0, m.hp - amount)
        lost = before - m.hp
        if source == self.active and source != i:
            self.dealt_damage = True
        if held:
            for e in list(self.effects(m, "damaged")):
                if lost >= int((e.get("if") or {}).get("lost_at_least", 1)):
                    self.apply_gains(m, e)
        if lost:
            self.turn_losses.append((i, source, lost, self.smashing == i))
            if held:
                for hook in self.hooks_at(m, "after_damage"):
                    hook.after_damage(self, i, lost, source)
            if source is not None and source != i:
                src = self.monsters[source]
                if src.cards or src.tiles or src.evolutions:
                    for hook in self.hooks_at(src, "dealt_damage"):
                        hook.dealt_damage(self, source, i, lost)
        if m.hp == 0:
            if held and any(hook.on_zero_life(self, i) for _, hook in
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

    # ---------------------------------------------------------------- yield and enter

    def _decide(self, action: Decide) -> None:
        if self.phase == "roll" and self.rolls:
            self._resolve()
        if self.phase != "decide":
            if action.yields:
                who = self.monsters[action.monster].name
                raise self.illegal("kot-yield-not-allowed", monster=who,
                                 why="no smash of another monster has just hurt it" if self.monsters[
                                     action.monster].in_tokyo else "it is not in Tokyo")
            raise self.illegal("kot-unexpected", expected=self.expected(), got="a decision to stay")
        if action.monster not in self.pending:
            who = self.monsters[action.monster].name
            if not self.monsters[action.monster].in_tokyo:
                raise self.illegal("kot-yield-not-allowed", monster=who, why="it is not in Tokyo")
            raise self.illegal("kot-yield-not-allowed", monster=who, why="no smash of another monster has just hurt it"
                             if action.monster not in self.smash_damage else "it has already decided")
        if action.yields and "may_yield" in self._acting:  # another monster's card may forbid it (Blizzard)
            for k in self.alive():
                if k != action.monster:
                    for hook in self.hooks_at(self.monsters[k], "may_yield"):
                        hook.may_yield(self, k, action.monster)
        self.pending.remove(action.monster)
        if not action.yields:
            for hook in self.hooks_at(self.monsters[action.monster], "on_stay"):
                hook.on_stay(self, action.monster)
        if action.yields:
            for hook in self.hooks_at(self.monsters[action.monster], "on_yield"):
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
        active = self.monsters[self.active]
        for o in self.monsters:
            if o is active or o.eliminated:
                continue
            hand = o.hand
            if not rushers.isdisjoint(hand) or not rushers.isdisjoint(o.evolutions):
                return True
            if "?" in hand and not rushers.isdisjoint(o.evo_deck):
                return True
            if o.icy is not None and "icy-reflection" in o.evolutions:
                if o.icy in rushers:  # Icy Reflection copying Feline Motor
                    return True
            elif ("icy-reflection" in hand or ("?" in hand and o.evo_deck.get("icy-reflection", 0) > 0)) and any(
                    not rushers.isdisjoint(x.evolutions) for x in self.monsters if not x.eliminated):
                return True  # Icy Reflection in hand, which could copy one
        return False

    def _enter(self) -> None:
        m = self.me
        if self.rs.evolution is not None and self._may_take_entry_back():
            self.enter_snapshot = (self.turn_number, len(self.history), self._snapshot())
        if not m.eliminated and not m.in_tokyo:
            needs_smash = self.rs.enter_requires_smash and not self.smashes
            city, bay = self.occupants()
            space = None
            if city is None:
                space = "city"
            elif bay is None and self.bay_open():
                space = "bay"
            if space is not None and not needs_smash and \
                    all(h.may_enter(self, m) for h in self.hooks_at(m, "may_enter")):
                m.location = space
                r = self.rs.enter_reward
                self.gain(m, r.resource, r.amount)
                self.log.append(f"{m.name} enters Tokyo {'City' if space == 'city' else 'Bay'}")
                self.entered(m)
        self.phase = "buy"
