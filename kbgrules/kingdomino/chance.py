"""Kingdomino's chance events as outcomes with their probabilities: the deal of a line (any
``line_size`` of the dominoes not dealt yet, all equally likely) and the draw of kings for the
first claims.

The dominoes a 2- or 3-player game returns to the box unseen are never known, so each line is, for
whoever watches, an even draw from every domino not dealt yet.

>>> import kbgrules
>>> game = kbgrules.new_game("kingdomino", ["Ann", "Bob"])
>>> deals = game.chance_outcomes()
>>> len(deals), deals[0], deals[-1][0]
(194580, (Deal(numbers=(1, 2, 3, 4)), 5.139274334463974e-06), Deal(numbers=(45, 46, 47, 48)))
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, pairwise, permutations
from math import comb
from typing import TYPE_CHECKING, Any, overload

from kbgrules.kingdomino.state import Deal, DrawKings, KingdominoState

if TYPE_CHECKING:
    import random

Outcome = tuple[Deal, float]


class Deals(Sequence[Outcome]):
    """Every deal of ``size`` dominoes out of ``pool``, each with probability 1/C(n, size), in the
    lexicographic order of their sorted numbers. Nothing is listed in advance: ``deals[i]`` is
    computed, ``len``, ``in`` and ``index`` count."""

    def __init__(self, pool: Sequence[int], size: int) -> None:
        self.pool = tuple(sorted(pool))
        self.size = size
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
            raise IndexError("deal index out of range")
        pool, n, k = self.pool, len(self.pool), self.size
        numbers: list[int] = []
        start = 0
        for slot in range(k):
            for j in range(start, n):
                below = comb(n - j - 1, k - slot - 1)  # the deals whose slot-th number is pool[j]
                if i < below:
                    numbers.append(pool[j])
                    start = j + 1
                    break
                i -= below
        return (Deal(tuple(numbers)), self.probability)

    def __iter__(self) -> Iterator[Outcome]:
        p = self.probability
        for numbers in combinations(self.pool, self.size):
            yield (Deal(numbers), p)

    def __contains__(self, item: object) -> bool:
        return self._rank(item) is not None

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        i = self._rank(value)
        if i is None or i < start or (stop is not None and i >= stop):
            raise ValueError(f"{value!r} is not one of these deals")
        return i

    def _rank(self, item: object) -> int | None:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Deal)
                and item[1] == self.probability):
            return None
        numbers = item[0].numbers  # an outcome's numbers are sorted, as the rules lay a line out
        where = {n: j for j, n in enumerate(self.pool)}
        if len(numbers) != self.size or any(n not in where for n in numbers) or \
                any(a >= b for a, b in pairwise(numbers)):
            return None
        n, k = len(self.pool), self.size
        rank = start = 0
        for slot, x in enumerate(numbers):
            j = where[x]
            rank += sum(comb(n - m - 1, k - slot - 1) for m in range(start, j))
            start = j + 1
        return rank

    def sample(self, rng: random.Random) -> Deal:
        """One deal, every deal as likely."""
        return Deal(tuple(sorted(rng.sample(self.pool, self.size))))

    def __repr__(self) -> str:
        return f"<{self.total} deals of {self.size} out of {len(self.pool)} dominoes, each {self.probability:.3g}>"


def deals(state: KingdominoState) -> Deals:
    """Every deal of the next line."""
    return Deals(state.remaining_deck(), state.row.line_size)


def _snake(state: KingdominoState) -> bool:
    return state.rs.first_player_method == "snake" and len(state.players) == 2 and len(state.king_owner) == 4


def king_draws(state: KingdominoState) -> list[tuple[DrawKings, float]]:
    """Every order the kings can be drawn in (by owner: a player's kings are alike), each as likely;
    with the snake option, A, B, B, A for either player as A."""
    orders: list[tuple[int, ...]] = [(a, 1 - a, 1 - a, a) for a in (0, 1)] if _snake(state) \
        else sorted(set(permutations(state.king_owner)))
    return [(DrawKings(o), 1 / len(orders)) for o in orders]


def sample_kings(state: KingdominoState, rng: random.Random) -> DrawKings:
    if _snake(state):
        a = rng.randrange(2)
        return DrawKings((a, 1 - a, 1 - a, a))
    order = list(state.king_owner)
    rng.shuffle(order)
    return DrawKings(tuple(order))
