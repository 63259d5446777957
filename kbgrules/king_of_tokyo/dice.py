"""King of Tokyo dice: how many a monster rolls and how often, the rolls and re-rolls of a turn, the
resolution of the dice kept (numbers, energy, hearts, smashes), and Camouflage's dice.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Final

from kbgrules.core.compiled import trait
from kbgrules.core.words import counted
from kbgrules.errors import IllegalMoveError
from kbgrules.king_of_tokyo.monster import TOKYO, Monster
from kbgrules.king_of_tokyo.moves import FACES, SHORT, Keep, Reroll, Roll, face_counts
from kbgrules.king_of_tokyo.statebase import StateBase

_FACE_SET: Final = frozenset(FACES)


@trait
class DiceRules(StateBase):
    """The dice of the active monster, from its first roll to their resolution."""

    def dice_count(self) -> int:
        m = self.monsters[self.active]
        extra = self.static(m, "extra_dice") if m.cards or m.tiles or m.evolutions or self.has_events else 0
        n = self.rs.standard_dice + extra - m.tokens["shrink"] - self.fewer_dice + self.token_dice
        return max(0, min(self.rs.max_dice, n))

    def max_rolls(self) -> int:
        m = self.monsters[self.active]
        n = self.rs.rolls + self.bonus_rolls
        if m.cards or m.tiles or m.evolutions or self.has_events:  # else static() is 0
            n += self.static(m, "extra_rolls")
        for k, o in enumerate(self.monsters) if "others_max_rolls" in self._acting else ():
            if k != self.active and not o.eliminated and (o.cards or o.tiles or o.evolutions):
                for hook in self.hooks_at(o, "others_max_rolls"):  # another monster's card may cap them (Blizzard)
                    cap = hook.others_max_rolls(self, k)
                    n = n if cap is None else min(n, cap)
        return n

    def open_rerolls(self) -> list[Reroll]:
        """The re-rolls open now: each set of the dice showing that may be picked up."""
        spare = self.rolls < self.max_rolls()
        picks = _picks(tuple(sorted(self.dice, key=FACES.index)))
        frozen = bool(self.freeze_rays) or self.ice_die is not None
        if spare and not frozen:
            return list(picks)
        out: list[Reroll] = []
        for pick in picks:
            dice = pick.dice
            if spare or any(h.free_reroll(self, self.me, dice) for h in self.hooks_at(self.me, "free_reroll")):
                try:
                    if frozen:
                        self._frozen_reroll(dice)
                except IllegalMoveError:
                    continue
                out.append(pick)
        return out

    def _check_faces(self, faces: Sequence[str]) -> None:
        if _FACE_SET.issuperset(faces):
            return
        for f in faces:
            if f not in FACES:
                raise self.illegal("kot-bad-face", face=f)

    def _roll(self, action: Roll) -> None:
        if self.phase != "roll" or self.rolls:
            raise self.illegal("kot-unexpected", expected=self.expected(), got="a first roll")
        self._check_faces(action.faces)
        m = self.monsters[self.active]
        for hook in self.hooks_at(m, "before_roll"):  # start-of-turn duties first (Superior Alien Technology)
            hook.before_roll(self, self.me)
        n = self.dice_count()
        if len(action.faces) != n:
            raise self.illegal("kot-dice-count", monster=self.me.name, expected=n, got=len(action.faces))
        if self.freeze_rays or self.ice_die is not None:
            self._frozen_roll(action.faces)
        self.dice = list(action.faces)
        self.rolls = 1

    def _reroll(self, action: Reroll) -> None:
        if self.phase != "roll" or not self.rolls:
            raise self.illegal("kot-unexpected", expected=self.expected(), got="a re-roll")
        limit = self.max_rolls()  # the dice change it not (only cards in play do)
        free = False  # a re-roll past the limit that a card allows (it does not count)
        if self.rolls >= limit:
            free = any(h.free_reroll(self, self.me, action.dice)
                       for h in self.hooks_at(self.monsters[self.active], "free_reroll"))
            if not free:
                raise self.illegal("kot-too-many-rolls", monster=self.me.name, rolls=limit)
        if not _FACE_SET.issuperset(action.dice) or not _FACE_SET.issuperset(action.faces):
            self._check_faces(action.dice)  # the error, for the first face that is no face
            self._check_faces(action.faces)
        if self.freeze_rays or self.ice_die is not None:
            self._frozen_reroll(action.dice)
        if not action.dice or len(action.dice) != len(action.faces):
            raise self.illegal("kot-reroll-count", chosen=len(action.dice), got=len(action.faces))
        kept = self.dice.copy()
        try:
            for f in action.dice:
                kept.remove(f)
        except ValueError:  # a face re-rolled more often than the dice show it: the first such face
            have = Counter(self.dice)
            for f, n in Counter(action.dice).items():
                if have[f] < n:
                    raise self.illegal("kot-reroll-missing", face=f, count=n, have=have[f],
                                     dice=" ".join(SHORT[x] for x in self.dice)) from None
        self.dice[:] = kept
        self.dice.extend(action.faces)
        if not (free and self.rolls >= limit):
            self.rolls += 1

    def _keep(self, action: Keep) -> None:
        if self.phase != "roll" or not self.rolls:
            raise self.illegal("kot-unexpected", expected=self.expected(), got="keep")
        self._resolve()

    def _resolve(self) -> None:
        rs = self.rs
        m = self.me
        if self.freeze_rays:
            face = self.frozen_face()
            if face:  # Freeze Ray: dice showing that face have no effect this turn
                self.dice = [f for f in self.dice if f != face]
        self.final_dice = list(self.dice)
        if m.cards or m.tiles or m.evolutions:  # else no card of its own acts: its lookups are skipped
            for hook in self.hooks_at(m, "resolve_dice"):
                self.dice = hook.resolve_dice(self, m, self.dice)
        counts = face_counts(self.dice)
        set_size = rs.set_size
        if counts["1"] >= set_size or counts["2"] >= set_size or counts["3"] >= set_size:
            self._score_numbers(m, counts)
        self.gain_energy(m, counts["energy"])
        hearts = counts["heart"]
        if self.cures or self.heal_rays:
            hearts = self._spend_hearts(m, hearts)
        if hearts and (not m.in_tokyo or rs.heal_in_tokyo) and not m.stored.get("no_dice_heal"):
            self.heal(m, hearts)
        smashes = counts["smash"]
        extra_hits: list[tuple[list[int], int]] = []
        extra_damage = 0
        held = bool(m.cards or m.tiles or m.evolutions)
        for e in list(self.effects(m, "resolve")) if held else ():
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
        for hook in self.hooks_at(m, "on_resolve") if held else ():
            smashes = hook.on_resolve(self, m, smashes)
        for e in self.effects(m, "always") if held or self.has_events else ():
            smashes *= int(e.get("multiply_smash", 1))
        self.smashes = smashes
        if rs.evolution is not None and counts["heart"] >= rs.evolution.hearts and self.evolutions_left(m):
            m.evo_owed += 1
        active = self.active
        if (held or self.has_events) and self.holds(m, "smash_everyone"):
            targets = [i for i, o in enumerate(self.monsters) if not o.eliminated and i != active]
        elif m.in_tokyo:
            targets = [i for i, o in enumerate(self.monsters)
                       if not o.eliminated and i != active and o.location not in TOKYO]
        else:
            targets = [i for i, o in enumerate(self.monsters) if not o.eliminated and o.location in TOKYO]
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
                    for hook in self.hooks_at(m, "on_smash_damage") if held else ():
                        hook.on_smash_damage(self, i)
        for victims, amount in extra_hits:
            for i in victims:
                self.damage(i, amount, self.active)
        self.pending = [i for i in self.occupants() if i is not None and i in self.smash_damage and i != active] \
            if self.smash_damage else []
        self.phase = "decide" if self.pending else "enter"
        if self.phase == "enter":
            self._enter()

    def _score_numbers(self, m: Monster, counts: Mapping[str, int]) -> None:
        """VP for the sets of numbers (and, in the Dark Edition, wickedness)."""
        rs = self.rs
        set_size = rs.set_size
        wicked = 0
        for number in ("1", "2", "3"):
            c = counts[number]
            if c >= set_size:
                m.vp += int(number) + c - set_size
                if rs.wickedness is not None:
                    wicked += rs.wickedness.gains.get(number, 0) * (c // set_size)
        if wicked:
            self.add_wickedness(m, wicked)

    def _spend_hearts(self, m: Monster, hearts: int) -> int:
        """Hearts spent on curing tokens and on Healing Ray before healing: the hearts left."""
        cured = sum(self.cures.values()) if self.cures else 0
        if cured:
            if m.in_tokyo or cured > hearts or m.stored.get("no_dice_heal"):
                why = ("only outside Tokyo" if m.in_tokyo
                       else f"curing {counted(cured, 'token')} takes {counted(cured, 'heart')}, not {hearts}")
                if m.stored.get("no_dice_heal"):
                    why = "a zombified monster cannot use its Heal results"
                raise self.illegal("kot-cure", monster=m.name, why=why)
            for token, n in self.cures.items():
                m.tokens[token] -= n
            hearts -= cured
        rays = sum(n for _, n in self.heal_rays) if self.heal_rays else 0
        if rays > hearts:
            raise self.illegal("kot-card-use", card="Healing Ray",
                               why=f"{counted(rays, 'heart')} given but only {hearts} left")
        for target, n in self.heal_rays:
            o = self.monsters[target]
            before = o.hp
            self.heal(o, n)
            pay = min(o.energy, 2 * (o.hp - before))
            o.energy -= pay
            m.energy += pay
        return hearts - rays

    # ---------------------------------------------------------------- Freeze Ray, Encased in Ice

    def frozen_face(self) -> str:
        """The face a Freeze Ray lent to the active monster takes the effect from ("" if none)."""
        for holder, face in self.freeze_rays.values():
            if holder == self.active and face:
                return face
        return ""

    def _frozen_roll(self, faces: Sequence[str]) -> None:
        for owner, (holder, face) in self.freeze_rays.items():
            if holder == self.active and not face and not self.monsters[owner].eliminated:
                raise self.illegal("kot-unexpected", got=f"{self.me.name}'s roll",
                                 expected=f"{self.monsters[owner].name} naming the face its Freeze Ray takes the "
                                          f"effect from ({self.monsters[owner].name} use freeze-ray FACE)")
        ice = self.ice_die
        if ice is not None and ice[0] != self.active and ice[1] not in faces:
            raise self.illegal("evo-frozen-die", card="Encased in Ice",
                             why=f"the frozen die shows {SHORT[ice[1]]} and is part of every roll until "
                                 f"{self.monsters[ice[0]].name}'s next turn: the roll must show it")

    def _frozen_reroll(self, dice: Sequence[str]) -> None:
        face = self.frozen_face()
        if face and face in dice:
            raise self.illegal("evo-frozen-die", card="Freeze Ray",
                               why=f"dice showing {SHORT[face]} cannot be re-rolled in {self.me.name}'s turn")
        ice = self.ice_die
        if ice is not None and ice[0] != self.active and self.dice.count(ice[1]) - list(dice).count(ice[1]) < 1:
            raise self.illegal("evo-frozen-die", card="Encased in Ice",
                             why=f"the frozen die showing {SHORT[ice[1]]} cannot be re-rolled")

    # ---------------------------------------------------------------- Camouflage

    def _camouflage_held(self) -> bool:
        """Does a monster hold Camouflage (or copy it with Mimic)? Then an action may need its dice."""
        for m in self.monsters:  # noqa: SIM110 (a loop, not any(): this runs before most actions)
            if "camouflage" in m.cards or (m.mimic is not None and m.mimic == "camouflage"):
                return True
        return False

    def camouflage_roll(self, monster: int, faces: Sequence[str]) -> None:
        """The dice a Camouflage holder rolls for its next loss of life (one die per life point)."""
        self.camouflage.setdefault(monster, []).append(tuple(faces))


@lru_cache(maxsize=4096)  # every hand of up to 8 dice (3,003 of them)
def _picks(dice: tuple[str, ...]) -> tuple[Reroll, ...]:
    """A re-roll of every non-empty set of ``dice`` (in face order) that may be picked up (moves are
    immutable: the same objects serve every position with these dice)."""
    faces = tuple(dict.fromkeys(dice))
    return tuple(Reroll(picked, ()) for counts in itertools.product(*(range(dice.count(f) + 1) for f in faces))
                 if (picked := tuple(f for f, c in zip(faces, counts, strict=True) for _ in range(c))))
