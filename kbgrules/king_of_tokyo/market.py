"""King of Tokyo's market: revealing cards, their costs, buying (from the market, the top of the deck
or another monster) and sweeping.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from kbgrules.core.compiled import trait
from kbgrules.errors import IllegalMoveError
from kbgrules.king_of_tokyo.hooks import HOOKS
from kbgrules.king_of_tokyo.monster import Monster
from kbgrules.king_of_tokyo.moves import Buy, Sweep, UnsupportedCardError
from kbgrules.king_of_tokyo.statebase import StateBase


@trait
class MarketRules(StateBase):
    """The Power card market and the deck behind it."""

    def reveal(self, cards: Iterable[str], effects: bool = True) -> None:
        """Turn cards face up into the market; ``effects=False`` for a stated position's market (already out)."""
        for c in cards:
            if c not in self.cards:
                raise self.illegal("kot-unknown-card", card=c)
            if self.deck_order:
                top = self.deck_order.pop(0)
                if top != c:
                    raise self.illegal("kot-deck-order", card=self.cards[c].name, top=self.cards[top].name)
            if self.deck[c] <= 0:
                if sum(self.deck.values()) == 0 and self.rs.deck_exhausted == "reshuffle-discards":
                    self.deck, self.discards = self.discards, Counter()
                if self.deck[c] <= 0:
                    raise self.illegal("kot-card-not-in-deck", card=self.cards[c].name)
            self.deck[c] -= 1
            self.market.append(c)
            if self.cards[c].type == "event" and effects:
                for e in self.cards[c].effects:
                    if e["when"] == "reveal":
                        self.card_effect(self.me, e)

    def card_id(self, text: str) -> str | None:
        """A card id from its id or name, ignoring case and punctuation."""
        key = re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")
        return key if key in self.cards else next(
            (c.id for c in self.cards.values() if re.sub(r"[^a-z0-9]+", "-", c.name.lower().replace("'", ""))
             .strip("-") == key), None)

    def cost(self, card: str, buyer: Monster | None = None) -> int:
        return max(0, self.cards[card].cost - self.static(buyer or self.me, "cost_reduction"))

    def all_cards(self, m: Monster) -> list[str]:
        return self.in_play(m)

    def buy_allowed(self, m: Monster, card: str) -> bool:
        """False if a hook forbids ``m`` to buy ``card`` now (Hibernation)."""
        try:
            for hook in self.hooks_at(m, "may_buy"):
                hook.may_buy(self, m, card)
            own = HOOKS.get(self.cards[card].hook or "")
            if own is not None:
                own.may_be_bought(self, m)
        except IllegalMoveError:
            return False
        return True

    # ---------------------------------------------------------------- buy and sweep

    def _buy_or_sweep(self, action: Buy | Sweep) -> None:
        self._end_rolling(action)  # as a buy or sweep does; no undo needed for that part (as for keep)
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
        for c in reveals:
            revealed = self.cards.get(c)
            if revealed is None or self.deck[c] < reveals.count(c) or (
                    revealed.type == "event" and any(e["when"] == "reveal" for e in revealed.effects)):
                return False
        return not self.deck_order or tuple(self.deck_order[:len(reveals)]) == tuple(reveals)

    def _end_rolling(self, action: Buy | Sweep) -> None:
        """A buy or sweep of the active monster ends its rolling and the Tokyo decisions; a buy or sweep
        out of turn is refused (unless Opportunist allows it)."""
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
                    raise self.illegal("kot-wrong-monster", expected=self.me.name, actor=buyer.name)
                raise self.illegal("kot-unexpected", expected=self.expected(), got=what)

    def _market_action(self, action: Buy | Sweep) -> None:
        self._end_rolling(action)
        m = self.monsters[action.monster]
        if isinstance(action, Sweep):
            if m.energy < self.rs.sweep_cost:
                raise self.illegal("kot-no-energy", monster=m.name, need=self.rs.sweep_cost, have=m.energy,
                                 what="a sweep")
            stays = [c for c in self.market if self.rs.sweep_keeps_events and self.cards[c].type == "event"]
            if len(action.reveals) != self.rs.market_size - len(stays):
                raise self.illegal("kot-reveal-count", expected=self.rs.market_size - len(stays),
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
                raise self.illegal("kot-card-use", card="Parasitic Tentacles", why=f"{m.name} does not hold it")
            if action.card not in seller.cards:
                raise self.illegal("kot-card-use", card="Parasitic Tentacles",
                                 why=f"{seller.name} holds no {card.name if card else action.card}")
        elif action.top:
            if "made-in-a-lab" not in self.all_cards(m):
                raise self.illegal("kot-card-use", card="Made in a Lab", why=f"{m.name} does not hold it")
            self.reveal([action.card])
            self.market.remove(action.card)
        elif action.card not in self.market:
            names = ", ".join(self.cards[c].name for c in self.market)
            name = card.name if card else action.card
            raise self.illegal("kot-not-in-market", card=name, market=names or "nothing")
        assert card is not None
        price = self.cost(action.card, m)
        if m.energy < price:
            if action.top:  # the peeked card stays on top of the deck
                self.deck[action.card] += 1
            raise self.illegal("kot-no-energy", monster=m.name, need=price, have=m.energy, what=card.name)
        for hook in self.hooks_at(m, "may_buy"):
            hook.may_buy(self, m, card.id)
        if f"buy-forbidden:{action.monster}:{card.id}" in self.used_this_turn:  # Bamboozle
            raise self.illegal("kot-unexpected", expected=f"{m.name} buying another card than {card.name} (Bamboozle), "
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
                raise self.illegal("kot-reveal-count", expected=1, got=0)
        if self.frenzy_now and not m.eliminated:
            self.frenzy_now = False  # the turn ends at once, without its end-of-turn effects
            self.turn_number += 1
            self.start_turn()
