"""King of Tokyo card effects: what works for a monster (cards, a copy, tiles, evolutions), the effects
the rule data gives them (``cards.yaml``: ``when``, ``if``, gains and losses), the hooks of those that need
code, and the gains of life and energy the effects change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from kbgrules.core.compiled import trait
from kbgrules.king_of_tokyo.hooks import HOOK_POINTS, HOOKS, Hook
from kbgrules.king_of_tokyo.monster import Monster
from kbgrules.king_of_tokyo.moves import FACES, Cure, Use, face_counts
from kbgrules.king_of_tokyo.statebase import StateBase

# the keys of tiles and evolutions by id, made once: the same string objects hash and compare fastest
_TILE_KEYS: Final[dict[str, str]] = {}
_EVOLUTION_KEYS: Final[dict[str, str]] = {}

# the ids of cards, tiles and evolutions (as a monster's three lists hold them) that act at a point
Split = tuple[frozenset[str], frozenset[str], frozenset[str]]
# what copies another card while its holder holds it (in_play): Mimic, Fluxling, Icy Reflection
_COPIERS: Final = ((0, "mimic", "mimic"), (1, "fluxling", "tile:fluxling"),
                   (2, "icy-reflection", "evolution:icy-reflection"))


def acting_keys(cards: Mapping[str, Any]) -> tuple[dict[str, Split], dict[str, Split]]:
    """For each hook point (``on_enter``), and for each ``when`` of the data effects, the cards, tiles and
    evolutions that act there: a monster holding none of them has nothing to look up."""
    points: dict[str, tuple[set[str], set[str], set[str]]] = {}
    whens: dict[str, tuple[set[str], set[str], set[str]]] = {}
    for key, card in cards.items():
        hook = HOOKS[card.hook] if card.hook is not None and card.hook in HOOKS else None
        kind, ident = ((1, key[5:]) if key.startswith("tile:") else (2, key[10:]) if key.startswith("evolution:")
                       else (0, key))
        for p in HOOK_POINTS if hook is not None else ():
            if getattr(type(hook), p) is not getattr(Hook, p):
                points.setdefault(p, (set(), set(), set()))[kind].add(ident)
        for e in card.effects:
            whens.setdefault(e["when"], (set(), set(), set()))[kind].add(ident)
    for kind, ident, key in _COPIERS:  # a copy may act wherever some card does: its holder is looked up
        if key in cards:
            for found in (*points.values(), *whens.values()):
                found[kind].add(ident)
    return ({p: (frozenset(a), frozenset(b), frozenset(c)) for p, (a, b, c) in points.items()},
            {w: (frozenset(a), frozenset(b), frozenset(c)) for w, (a, b, c) in whens.items()})


class Holdings:
    """What one set of in-play keys does: the hooks by point, and the data effects by ``when`` and the
    sums of static effects, each filled on first use."""

    __slots__ = ("by_when", "cards", "keys", "pairs", "points", "static")

    def __init__(self, keys: tuple[str, ...], cards: Mapping[str, Any]) -> None:
        self.keys = keys
        self.cards = cards
        self.pairs = tuple((c, HOOKS[h]) for c in keys if (h := cards[c].hook) is not None and h in HOOKS)
        self.points = {point: tuple(h for _, h in self.pairs if getattr(type(h), point) is not getattr(Hook, point))
                       for point in HOOK_POINTS}
        self.by_when: dict[str, tuple[Mapping[str, Any], ...]] = {}
        self.static: dict[str, int] = {}

    def effects(self, when: str) -> tuple[Mapping[str, Any], ...]:
        """The data effects of these cards that act ``when``."""
        found = self.by_when.get(when)
        if found is None:
            found = self.by_when[when] = tuple(e for cid in self.keys for e in self.cards[cid].effects
                                                if e["when"] == when)
        return found


def _holds_none(keys: Split, m: Monster) -> bool:
    """Whether the monster holds none of ``keys`` (``acting_keys``: a card that copies others among them)."""
    return keys[0].isdisjoint(m.cards) and (not m.tiles or keys[1].isdisjoint(m.tiles)) and (
        not m.evolutions or keys[2].isdisjoint(m.evolutions))


@trait
class CardEffects(StateBase):
    """Card effects: the data effects and hooks of what is in play, and the actions ``use`` and ``cure``."""

    def in_play(self, m: Monster) -> list[str]:
        """The keys of what works for the monster: keep cards, the card its Mimic (or Fluxling) copies
        while someone holds it, wickedness tiles and permanent evolutions."""
        tiles, evolutions, mimic = m.tiles, m.evolutions, m.mimic
        if mimic is None and not tiles and not evolutions:
            return m.cards
        cards = list(m.cards)
        if tiles:
            cards += [_TILE_KEYS.get(t) or _TILE_KEYS.setdefault(t, "tile:" + t) for t in tiles]
        if evolutions:
            cards += [_EVOLUTION_KEYS.get(e) or _EVOLUTION_KEYS.setdefault(e, "evolution:" + e) for e in evolutions]
        if mimic is not None and ("mimic" in cards or "tile:fluxling" in cards) and any(
                mimic in o.cards for o in self.monsters if not o.eliminated):
            cards.append(mimic)
        if m.icy is not None and "evolution:icy-reflection" in cards and any(
                m.icy in o.evolutions for o in self.monsters if not o.eliminated):
            cards.append(f"evolution:{m.icy}")  # Icy Reflection's copy, while someone has the card in play
        return cards

    def holdings(self, m: Monster) -> Holdings:
        """What the cards working for the monster (``in_play``) do, as tables shared by every game of the
        ruleset (they depend on the card data only)."""
        if m.mimic is None:
            if not m.tiles and not m.evolutions:  # in_play's common case, inlined
                keys = tuple(m.cards)
                found = self._holdings.get(keys)
                if found is None:
                    found = self._holdings[keys] = Holdings(keys, self.cards)
                return found
            if m.icy is None:  # no copy: what is in play follows from the three lists (kept by them too)
                lists = (tuple(m.cards), tuple(m.tiles), tuple(m.evolutions))
                found = self._holdings.get(lists)
                if found is None:
                    found = self._holdings[lists] = self._holdings_of(tuple(self.in_play(m)))
                return found
        return self._holdings_of(tuple(self.in_play(m)))

    def _holdings_of(self, keys: tuple[str, ...]) -> Holdings:
        found = self._holdings.get(keys)
        if found is None:
            found = self._holdings[keys] = Holdings(keys, self.cards)
        return found

    def _market_effects(self) -> list[Mapping[str, Any]]:
        """The effects of the events in the market, which act on every monster."""
        return [e for cid in self.market for e in self.cards[cid].effects if e["when"] == "market"]

    def effects(self, m: Monster, when: str) -> Sequence[Mapping[str, Any]]:
        acting = self._acting_when.get(when)
        cards, tiles, evolutions = m.cards, m.tiles, m.evolutions  # _holds_none, inlined (most calls)
        if acting is None or (acting[0].isdisjoint(cards) and (not tiles or acting[1].isdisjoint(tiles))
                              and (not evolutions or acting[2].isdisjoint(evolutions))):
            found: tuple[Mapping[str, Any], ...] = ()
        else:
            h: Holdings | None = None
            if m.mimic is None and not tiles and not evolutions:  # holdings()'s common case, inlined
                h = self._holdings.get(tuple(cards))
            if h is None:
                h = self.holdings(m)
            found = h.by_when.get(when) or h.effects(when)
        if when == "always" and self.has_events:
            return [*found, *self._market_effects()]
        return found

    def static(self, m: Monster, key: str) -> int:
        acting = self._acting_when.get("always")
        if acting is None or _holds_none(acting, m):
            total = 0
        else:
            h = self.holdings(m)
            cached = h.static.get(key)
            if cached is None:
                cached = h.static[key] = sum(int(e.get(key, 0)) for e in h.effects("always"))
            total = cached
        if self.has_events:
            total += sum(int(e.get(key, 0)) for e in self._market_effects())
        return total

    def holds(self, m: Monster, key: str) -> bool:
        return any(key in e for e in self.effects(m, "always"))

    def condition(self, m: Monster, cond: Mapping[str, Any] | None) -> bool:
        if not cond:
            return True
        counts = face_counts(self.dice)
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

    def hooks_of(self, m: Monster) -> Sequence[tuple[str, Hook]]:
        """(key, hook) for what works for the monster (``in_play``) and has a written hook."""
        return self.holdings(m).pairs

    def hooks_at(self, m: Monster, point: str) -> tuple[Hook, ...]:
        """The hooks of what works for the monster that act at ``point`` (the name of a ``Hook`` method
        their class overrides), in ``hooks_of`` order: a point no card uses costs nothing."""
        acting = self._acting.get(point)
        if acting is None:
            return ()  # most calls: no card of the game acts here, or none the monster holds (below)
        cards, tiles, evolutions = m.cards, m.tiles, m.evolutions
        if acting[0].isdisjoint(cards) and (not tiles or acting[1].isdisjoint(tiles)) and (
                not evolutions or acting[2].isdisjoint(evolutions)):
            return ()
        if m.mimic is None and not tiles and not evolutions:  # holdings()'s common case, inlined
            found: Holdings | None = self._holdings.get(tuple(m.cards))
            if found is not None:
                return found.points[point]
        return self.holdings(m).points[point]

    def trigger(self, m: Monster, when: str) -> None:
        for e in list(self.effects(m, when)):
            if self.condition(m, e.get("if")):
                self.card_effect(m, e)

    def entered(self, m: Monster) -> None:
        """The monster has just moved into Tokyo (from outside)."""
        self.trigger(m, "enter")
        for hook in self.hooks_at(m, "on_enter"):
            hook.on_enter(self, m)

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

    def card_effect(self, m: Monster, e: Mapping[str, Any]) -> None:
        """A card's one-off effect (on buying it)."""
        me = self.seat(m)
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

    # ---------------------------------------------------------------- life and energy

    def gain(self, m: Monster, resource: str, amount: int) -> None:
        if resource == "vp":
            m.vp += amount
        elif resource == "energy":
            self.gain_energy(m, amount)

    def gain_energy(self, m: Monster, amount: int) -> None:
        if amount > 0:
            m.energy += amount + (self.static(m, "energy_bonus")
                                  if m.cards or m.tiles or m.evolutions or self.has_events else 0)

    def heal(self, m: Monster, amount: int) -> None:
        if amount > 0 and not m.eliminated:
            if not m.cards and not m.tiles and not m.evolutions and not self.has_events and not m.stored:
                cap = min(self.rs.life_hard_cap, self.rs.max_life)  # max_hp without cards, inlined (most heals)
                m.hp = min(cap, max(m.hp, m.hp + amount))
                return
            amount += self.static(m, "heal_bonus")
            cap = self.max_hp(m)
            m.hp = min(cap, max(m.hp, min(cap, m.hp + amount)))

    def max_hp(self, m: Monster) -> int:
        raised = [int(e["max_hp"]) for e in self.effects(m, "always") if "max_hp" in e]
        if m.stored.get("max_hp"):  # a lasting raise no card in play carries (Zombify)
            raised.append(m.stored["max_hp"])
        return min(self.rs.life_hard_cap, max([self.rs.max_life, *raised]))

    def discard_card(self, m: Monster, card: str) -> None:
        if card in m.cards:
            m.cards.remove(card)
            self.discards[card] += 1

    # ---------------------------------------------------------------- actions

    def _use(self, action: Use) -> None:
        m = self.monsters[action.monster]
        card = self.cards.get(action.card)
        if card is None or action.card not in self.in_play(m) or m.eliminated:
            name = card.name if card else action.card
            raise self.illegal("kot-card-use", card=name, why=f"{m.name} does not hold it")
        hook = HOOKS.get(card.hook or "")
        if hook is None:
            raise self.illegal("kot-card-use", card=card.name, why="it has nothing to use")
        if hook.after_roll and action.monster == self.active:
            if self.phase == "roll" and self.rolls:
                self._resolve()
            if self.phase == "decide":
                self.finish_decisions()
        hook.use(self, action.monster, action.args)

    def _cure(self, action: Cure) -> None:
        m = self.monsters[action.monster]
        if action.monster != self.active or self.phase != "roll" or not self.rolls:
            raise self.illegal("kot-cure", monster=m.name, why="hearts are spent while resolving your own dice")
        if m.tokens.get(action.token, 0) - self.cures.get(action.token, 0) < action.count:
            raise self.illegal("kot-cure", monster=m.name, why=f"it has no {action.token} token left to remove")
        self.cures[action.token] = self.cures.get(action.token, 0) + action.count
