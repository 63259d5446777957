"""King of Tokyo's additions from other editions and variants: the Dark Edition's wickedness gauge and
tiles, Power Up! evolutions (drawn, kept and played) and the Godzilla edition's dice tokens.
"""

from __future__ import annotations

from collections import Counter

from kbgrules.core.compiled import trait
from kbgrules.king_of_tokyo.hooks import HOOKS
from kbgrules.king_of_tokyo.monster import Monster
from kbgrules.king_of_tokyo.moves import Evolve, Play, Take, Tokens, UnsupportedCardError
from kbgrules.king_of_tokyo.statebase import StateBase


@trait
class EditionRules(StateBase):
    """Wickedness tiles, evolutions and dice tokens, where the edition or a variant has them."""

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
            raise self.illegal("dark-tile-unknown", tile=action.tile, why="see kbg rules kot --edition dark")
        if tile.level not in m.owed:
            why = (f"its wickedness ({m.wickedness}) has not just reached {tile.level}" if tile.level not in m.levels
                   else f"it has already taken its level-{tile.level} tile")
            raise self.illegal("dark-tile-level", monster=m.name, tile=tile.name, why=why)
        if action.tile not in self.tiles_left(tile.level):
            sides = "the red sides" if self.tile_sides == "red" else "the green sides" if \
                self.tile_sides == "green" else "the sides that are up"
            left = ", ".join(self.cards[f"tile:{t}"].name for t in self.tiles_left(tile.level)) or "none"
            raise self.illegal("dark-tile-level", monster=m.name, tile=tile.name,
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
                raise self.illegal("evo-not-in-deck", card="a card", monster=m.name, why="the deck is empty")
            m.secret += 1
            m.evo_bottom = []  # the order under the deck is no longer known
            return
        key = f"evolution:{card}"
        name = self.cards[key].name if key in self.cards else card
        if m.evo_deck[card] <= 0:
            why = (f"it is not one of {m.monster or m.name}'s evolutions" if card not in self.deck_of(m)
                   else "it was drawn already")
            raise self.illegal("evo-not-in-deck", card=name, monster=m.name, why=why)
        if m.evo_bottom:  # cards put under the deck, in a known order
            top = m.evo_deck - Counter(m.evo_bottom)
            if sum(top.values()) - m.secret <= 0:
                if m.evo_bottom[0] != card:
                    first = self.cards["evolution:" + m.evo_bottom[0]].name
                    raise self.illegal("evo-not-in-deck", card=name, monster=m.name,
                                     why=f"only the cards put under the deck are left, {first} first")
                m.evo_bottom.pop(0)
            elif top[card] <= 0:
                raise self.illegal("evo-not-in-deck", card=name, monster=m.name, why="it lies under the deck")
        m.evo_deck[card] -= 1

    def deck_of(self, m: Monster) -> set[str]:
        return {c.id for c in self.rs.evolutions if c.monster == m.monster}

    def _evolve(self, action: Evolve) -> None:
        ev = self.rs.evolution
        m = self.monsters[action.monster]
        if ev is None:
            raise self.illegal("kot-unexpected", expected=self.expected(),
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
            raise self.illegal("evo-not-owed", monster=m.name, why=why)
        left = self.evolutions_left(m)
        want = min(draw, left)
        if len(action.drawn) != want or len(action.kept) != min(keep, want) or any(
                action.drawn.count(k) < action.kept.count(k) for k in action.kept):
            raise self.illegal("evo-keep", monster=m.name, keep=min(keep, want), drawn=want)
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
        m = self.monsters[action.monster]
        key = f"evolution:{action.card}"
        card = self.cards.get(key)
        if card is None or m.eliminated:
            raise self.illegal("evo-not-in-hand", monster=m.name, card=card.name if card else action.card)
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
            raise self.illegal("evo-not-in-hand", monster=m.name, card=card.name)
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
            raise self.illegal("kot-unexpected", expected=self.expected(), got="dice tokens (none in this edition)")
        if action.monster != self.active or self.phase != "roll" or self.rolls:
            raise self.illegal("gz-dice-tokens", monster=m.name, count=action.count,
                             why="tokens are spent by the monster whose turn it is, before its first roll")
        if self.token_dice + action.count > per:
            raise self.illegal("gz-dice-tokens", monster=m.name, count=action.count,
                             why=f"at most {per} per turn")
        if m.dice_tokens < action.count:
            raise self.illegal("gz-dice-tokens", monster=m.name, count=action.count, why=f"it has {m.dice_tokens}")
        before = self.dice_count()
        self.token_dice += action.count
        if self.dice_count() - before < action.count:
            self.token_dice -= action.count
            raise self.illegal("gz-dice-tokens", monster=m.name, count=action.count,
                             why=f"it would roll more than {self.rs.max_dice} dice")
        m.dice_tokens -= action.count
