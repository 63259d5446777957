"""King of Tokyo chance outcomes: the multisets of dice faces or cards a roll or a reveal can give, with their
probabilities, listed lazily (a sweep reveals one of tens of thousands of card triples)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from math import comb, factorial
from typing import Any, overload

from kbgrules.core.compiled import mypyc_attr


@mypyc_attr(native_class=False)
class _Lazy:
    """A list of outcomes computed one by one: ``len`` and ``_at(i)`` from the subclass; indexing (slices
    and negative indexes too) and iteration here."""

    def __len__(self) -> int:
        raise NotImplementedError

    def _at(self, i: int) -> tuple[Any, float]:
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> tuple[Any, float]: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[tuple[Any, float]]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self._at(i)

    def __iter__(self) -> Iterator[tuple[Any, float]]:
        for i in range(len(self)):
            yield self._at(i)


@mypyc_attr(native_class=False)
class Multisets(_Lazy):
    """Every multiset of ``k`` items (in ``items`` order) drawn from ``counts`` copies of each ``item`` (with
    ``replace``: a die per item, each face as likely), made into a move by ``make`` with its probability.
    ``fixed`` items come first in every outcome (a frozen die, cards already known to come)."""

    def __init__(self, items: Sequence[str], counts: Sequence[int], k: int, make: Callable[[tuple[str, ...]], Any],
                 replace: bool = False, fixed: tuple[str, ...] = ()) -> None:
        self.items = tuple(items)
        self.caps = tuple(k if replace else c for c in counts)
        self.k = k
        self.make = make
        self.replace = replace
        self.fixed = fixed
        self.total = sum(counts)
        n = len(self.items)
        # ways[j][t]: the multisets of t items taken from items j and after
        self.ways = [[0] * (k + 1) for _ in range(n + 1)]
        self.ways[n][0] = 1
        for j in range(n - 1, -1, -1):
            for t in range(k + 1):
                self.ways[j][t] = sum(self.ways[j + 1][t - c] for c in range(min(self.caps[j], t) + 1))

    def __len__(self) -> int:
        return self.ways[0][self.k]

    def _at(self, i: int) -> tuple[Any, float]:
        counts = []
        t = self.k
        for j in range(len(self.items)):
            for c in range(min(self.caps[j], t) + 1):
                w = self.ways[j + 1][t - c]
                if i < w:
                    break
                i -= w
            counts.append(c)
            t -= c
        return self._outcome(counts)

    def _outcome(self, counts: Sequence[int]) -> tuple[Any, float]:
        if self.replace:
            p = factorial(self.k) / len(self.items) ** self.k
            for c in counts:
                p /= factorial(c)
        else:
            p = 1.0
            for cap, c in zip(self.caps, counts, strict=True):
                p *= comb(cap, c)
            p /= comb(self.total, self.k)
        drawn = tuple(x for x, c in zip(self.items, counts, strict=True) for _ in range(c))
        return self.make(self.fixed + drawn), p

    def sample(self, rng: random.Random) -> Any:
        """One outcome's move, drawn by its probability."""
        order = {x: j for j, x in enumerate(self.items)}
        if self.replace:
            drawn = [rng.choice(self.items) for _ in range(self.k)]
        else:
            drawn = rng.sample([x for x, c in zip(self.items, self.caps, strict=True) for _ in range(c)], self.k)
        return self.make(self.fixed + tuple(sorted(drawn, key=order.__getitem__)))


@mypyc_attr(native_class=False)
class Choices(_Lazy):
    """Independent choices, one from each of ``options``, all alike (the side showing on each wickedness tile)."""

    def __init__(self, options: Sequence[Sequence[str]], make: Callable[[tuple[str, ...]], Any]) -> None:
        self.options = [tuple(o) for o in options]
        self.make = make
        self.size = 1
        for o in self.options:
            self.size *= len(o)

    def __len__(self) -> int:
        return self.size

    def _at(self, i: int) -> tuple[Any, float]:
        out = []
        for o in reversed(self.options):
            i, r = divmod(i, len(o))
            out.append(o[r])
        return self.make(tuple(reversed(out))), 1 / self.size

    def sample(self, rng: random.Random) -> Any:
        return self.make(tuple(rng.choice(o) for o in self.options))


# sequences by registration: compiled (bench/build_mypyc.py), a class cannot derive from an ABC
Sequence.register(Multisets)
Sequence.register(Choices)


def one(move: Any) -> Multisets:
    """A single certain outcome."""
    return Multisets((), (), 0, lambda _: move)
