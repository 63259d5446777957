"""Chance outcomes too many to list: every choice of ``size`` items out of a pool, all equally likely,
as a sequence that computes its items (a line of tiles dealt, the cards removed unseen before play).

A game subclasses :class:`Subsets` with the move a choice makes (``_move``) and the choice a move
made (``_chosen``); ``outcomes[i]``, ``len``, ``in``, ``index`` and ``sample`` then cost one choice,
never C(n, k) of them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, pairwise
from math import comb
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from kbgrules.core.compiled import mypyc_attr

if TYPE_CHECKING:
    import random

M = TypeVar("M")


@mypyc_attr(allow_interpreted_subclasses=True)  # a plug-in game's outcomes subclass it
class Subsets(Sequence[tuple[M, float]], Generic[M]):
    """Every choice of ``size`` items of ``pool`` as ``(move, probability)``, each 1/C(n, size), in the
    lexicographic order of the sorted items chosen."""

    noun = "choices"  # what __repr__ calls them

    def __init__(self, pool: Sequence[int], size: int) -> None:
        self.pool = tuple(sorted(pool))
        self.size = size
        self.total = comb(len(self.pool), size)
        self.probability = 1 / self.total if self.total else 0.0

    def _move(self, chosen: tuple[int, ...]) -> M:
        """The move that choosing these items (sorted) makes."""
        raise NotImplementedError

    def _chosen(self, move: object) -> Sequence[int] | None:
        """The items ``move`` chose, sorted (None if it is not one of these moves)."""
        raise NotImplementedError

    def __len__(self) -> int:
        return self.total

    @overload
    def __getitem__(self, i: int) -> tuple[M, float]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[M, float]]: ...

    def __getitem__(self, i: int | slice) -> tuple[M, float] | list[tuple[M, float]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.total))]
        if i < 0:
            i += self.total
        if not 0 <= i < self.total:
            raise IndexError(f"{self.noun} index out of range")
        pool, n, k = self.pool, len(self.pool), self.size
        chosen: list[int] = []
        start = 0
        for slot in range(k):
            for j in range(start, n):
                below = comb(n - j - 1, k - slot - 1)  # the choices whose slot-th item is pool[j]
                if i < below:
                    chosen.append(pool[j])
                    start = j + 1
                    break
                i -= below
        return (self._move(tuple(chosen)), self.probability)

    def __iter__(self) -> Iterator[tuple[M, float]]:
        p = self.probability
        for chosen in combinations(self.pool, self.size):
            yield (self._move(chosen), p)

    def __contains__(self, item: object) -> bool:
        return self._rank(item) is not None

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        i = self._rank(value)
        if i is None or i < start or (stop is not None and i >= stop):
            raise ValueError(f"{value!r} is not one of these {self.noun}")
        return i

    def _rank(self, item: object) -> int | None:
        if not (isinstance(item, tuple) and len(item) == 2 and item[1] == self.probability):
            return None
        chosen = self._chosen(item[0])
        where = {x: j for j, x in enumerate(self.pool)}
        if chosen is None or len(chosen) != self.size or any(x not in where for x in chosen) or \
                any(a >= b for a, b in pairwise(chosen)):
            return None
        n, k = len(self.pool), self.size
        rank = start = 0
        for slot, x in enumerate(chosen):
            j = where[x]
            rank += sum(comb(n - m - 1, k - slot - 1) for m in range(start, j))
            start = j + 1
        return rank

    def sample(self, rng: random.Random) -> M:
        """One choice, every choice as likely."""
        return self._move(tuple(sorted(rng.sample(self.pool, self.size))))

    def __repr__(self) -> str:
        return (f"<{self.total} {self.noun} of {self.size} out of {len(self.pool)}, "
                f"each {self.probability:.3g}>")
