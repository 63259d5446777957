"""No Thanks!'s chance events as outcomes with their probabilities: the cards removed before play
(any ``removed`` of the cards, those the rules always remove included, all equally likely) and each
card turned (any card not seen yet, all equally likely: for whoever watches, a card removed unseen
and a card still in the pile are alike).

>>> import kbgrules
>>> game = kbgrules.new_game("nothanks", ["Ann", "Bob", "Cid"])
>>> removals = game.chance_outcomes()
>>> len(removals), removals[0][0], removals[-1][0].cards[0]
(38567100, Remove(cards=(3, 4, 5, 6, 7, 8, 9, 10, 11)), 27)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, overload

from kbg_nothanks.state import NoThanksState, Remove, Reveal

if TYPE_CHECKING:
    import random

Outcome = tuple[Remove, float]


class Removals(Sequence[Outcome]):
    """Every removal: ``fixed`` plus ``size`` of ``pool``, each with probability 1/C(n, size), in the
    lexicographic order of the chosen cards. Nothing is listed in advance: ``removals[i]`` is
    computed, ``len`` and ``in`` count."""

    def __init__(self, pool: Sequence[int], size: int, fixed: Sequence[int] = ()) -> None:
        self.pool = tuple(sorted(pool))
        self.size = size
        self.fixed = tuple(fixed)
        self.total = comb(len(self.pool), size)
        self.probability = 1 / self.total if self.total else 0.0

    def __len__(self) -> int:
        return self.total

    @overload
    def __getitem__(self, i: int) -> Outcome: ...

    @overload
    def __getitem__(self, i: slice) -> list[Outcome]: ...

    def __getitem__(self, i: int | slice) -> Outcome | list[Outcome]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.total))]
        if i < 0:
            i += self.total
        if not 0 <= i < self.total:
            raise IndexError("removal index out of range")
        pool, n, k = self.pool, len(self.pool), self.size
        chosen: list[int] = []
        start = 0
        for slot in range(k):
            for j in range(start, n):
                below = comb(n - j - 1, k - slot - 1)  # the removals whose slot-th card is pool[j]
                if i < below:
                    chosen.append(pool[j])
                    start = j + 1
                    break
                i -= below
        return (self._move(chosen), self.probability)

    def _move(self, chosen: Sequence[int]) -> Remove:
        return Remove(tuple(sorted((*self.fixed, *chosen))))

    def __iter__(self) -> Iterator[Outcome]:
        for chosen in combinations(self.pool, self.size):
            yield (self._move(chosen), self.probability)

    def __contains__(self, item: object) -> bool:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Remove)
                and item[1] == self.probability):
            return False
        cards = item[0].cards
        rest = [c for c in cards if c not in self.fixed]
        return (len(cards) == len(set(cards)) == self.size + len(self.fixed) and set(self.fixed) <= set(cards)
                and all(c in self.pool for c in rest) and list(cards) == sorted(cards))

    def sample(self, rng: random.Random) -> Remove:
        """One removal, every removal as likely."""
        return self._move(rng.sample(self.pool, self.size))

    def __repr__(self) -> str:
        return f"<{self.total} removals of {self.size} out of {len(self.pool)} cards, each {self.probability:.3g}>"


def removals(state: NoThanksState) -> Removals:
    """Every removal the rules allow before play."""
    rs = state.rs
    fixed = rs.always_removed
    return Removals([c for c in rs.card_numbers if c not in fixed], rs.removed - len(fixed), fixed)


def reveals(state: NoThanksState) -> list[tuple[Reveal, float]]:
    """Every card that may be turned next, each as likely."""
    pool = state.unseen()
    return [(Reveal(c), 1 / len(pool)) for c in pool]
