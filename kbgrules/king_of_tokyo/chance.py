"""King of Tokyo chance outcomes: what a game's next chance event can give (a set-up draw, a roll, the dice of a
re-roll, the cards a buy or a sweep reveals, an evolution draw, Camouflage dice), as moves with their probabilities,
listed lazily (a sweep reveals one of tens of thousands of card triples)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from math import comb, factorial
from typing import TYPE_CHECKING, Any, overload

from kbgrules.core.compiled import mypyc_attr
from kbgrules.errors import KbgError
from kbgrules.king_of_tokyo.monster import copy_counter
from kbgrules.king_of_tokyo.moves import (
    FACES,
    Action,
    Buy,
    Camouflage,
    ChanceNeeded,
    Evolve,
    Reroll,
    Roll,
    Setup,
    Sweep,
)
from kbgrules.king_of_tokyo.state import KingOfTokyoState

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
    from kbgrules.king_of_tokyo.parse import Parsed


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


@lru_cache(maxsize=256)
def _ways(caps: tuple[int, ...], k: int) -> list[list[int]]:
    """``ways[j][t]``: the multisets of ``t`` items taken from items ``j`` and after, at most ``caps[j]`` of
    item ``j`` (the same few tables serve every roll of a game: kept, never changed)."""
    n = len(caps)
    ways = [[0] * (k + 1) for _ in range(n + 1)]
    ways[n][0] = 1
    for j in range(n - 1, -1, -1):
        for t in range(k + 1):
            ways[j][t] = sum(ways[j + 1][t - c] for c in range(min(caps[j], t) + 1))
    return ways


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
        self.ways = _ways(self.caps, k)

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


# sequences by registration: compiled (docs/scale.md), a class cannot derive from an ABC
Sequence.register(Multisets)
Sequence.register(Choices)


def one(move: Any) -> Multisets:
    """A single certain outcome."""
    return Multisets((), (), 0, lambda _: move)


# --------------------------------------------------------------------------- what comes now

DRAFT_DECK = 8  # the evolution-draft variant: the cards each monster drafts (as kbg simulate deals them)


def setup_outcomes(rs: KingOfTokyoRuleset, players: Sequence[str], setup_lines: Sequence[Parsed],
                   st: KingOfTokyoState | None) -> Multisets | Choices | None:
    """The set-up draw that comes after ``setup_lines`` (the first player, the market, the tile sides, a
    drafted evolution deck), or None; ``st``: the state they make, once made."""
    whats = {p.what for p in setup_lines}
    n = len(players)
    if not whats & {"first", "market", "monster"}:
        return Multisets([str(i) for i in range(n)], (1,) * n, 1,
                         lambda i: Setup("first", f"first {players[int(i[0])]}", int(i[0])))
    if "market" not in whats:
        probe = KingOfTokyoState(rs, players, begin=False)
        return reveals(probe, rs.market_size, (), lambda c: Setup("market", "market " + " ".join(c), None, c))
    if st is not None and st.tile_sides == "mixed" and "tiles" not in whats:
        options = [(red, st.cards[f"tile:{red}"].back or red) for red in st.tile_supply]
        return Choices([tuple(dict.fromkeys(o)) for o in options],
                       lambda t: Setup("tiles", "tiles " + " ".join(t), None, t))
    ev = rs.evolution
    if ev is not None and ev.draft:
        drafted = {p.monster for p in setup_lines if p.what == "evolutions"}
        missing = [i for i in range(n) if i not in drafted]
        if missing:
            pool = Counter(c.id for c in rs.evolutions for _ in range(c.copies))
            pool.subtract(c for p in setup_lines if p.what == "evolutions" for c in p.values)
            items = sorted(c for c in pool if pool[c] > 0)
            i = missing[0]
            size = min(DRAFT_DECK, sum(pool[c] for c in items))
            return Multisets(items, [pool[c] for c in items], size, lambda d: Setup(
                "evolutions", f"{players[i]} evolutions " + " ".join(d), i, d))
    return None


def outcomes(st: KingOfTokyoState, pending: Action | None, need: ChanceNeeded | None) -> Multisets | Choices | None:
    """The chance event that comes in a game under way, or None at a decision: the dice Camouflage needs
    (``need``), the chance part of the decision ``pending`` (the dice re-rolled, the cards revealed), an
    evolution draw (at the start, or owed in the buy phase), a roll."""
    if need is not None:
        return Multisets(FACES, (0,) * 6, need.count, lambda f: Camouflage(need.monster, f), replace=True)
    if isinstance(pending, Reroll):
        dice = pending.dice
        return Multisets(FACES, (0,) * 6, len(dice), lambda f: Reroll(dice, f), replace=True)
    if isinstance(pending, Buy):
        card = pending
        extra = (card.card,) if st.cards[card.card].type != "keep" else ()
        return reveals(st, 1, extra, lambda c: Buy(card.monster, card.card, c[0]))
    if isinstance(pending, Sweep):
        who = pending.monster
        return reveals(st, sweep_count(st), swept(st), lambda c: Sweep(who, c))
    if pending is not None:
        return None
    if st.starting:  # the starting draws, one monster after another; then the first roll, below
        owing = next((i for i, m in enumerate(st.monsters) if m.evo_owed), None)
        if owing is not None:
            return evolutions(st, owing, True)
    if st.phase == "roll" and not st.rolls:
        n = st.dice_count()
        ice = st.ice_die
        fixed = (ice[1],) if ice is not None and ice[0] != st.active and n else ()
        return Multisets(FACES, (0,) * 6, n - len(fixed), lambda f: Roll(_sorted_faces(f)), replace=True,
                         fixed=fixed)
    me = st.me
    if st.phase == "buy" and me.evo_owed and not me.eliminated and st.evolutions_left(me):
        return evolutions(st, st.active, False)
    return None


def draw(found: Multisets | Choices | None, rng: random.Random) -> Any:
    """An outcome of the chance event ``found`` drawn by its probability (KbgError where none comes)."""
    if found is None:
        raise KbgError("no chance event comes now: push a decision", code="not-chance")
    if len(found) == 0:  # a reveal the deck (and the discard pile) cannot fill
        raise KbgError("no outcome can come now: the cards left are fewer than this reveal needs",
                       code="no-chance-outcome")
    return found.sample(rng)


def is_decision(st: KingOfTokyoState, move: Action | Camouflage | Setup) -> bool:
    """A move whose chance part is still to come (the dice re-rolled, the cards revealed): pushed alone, then
    its outcome."""
    if isinstance(move, Reroll):
        return not move.faces and bool(move.dice)
    if isinstance(move, Buy):
        return move.reveal is None and not move.top and move.seller is None and bool(
            len(reveals(st, 1, (move.card,))))
    return isinstance(move, Sweep) and not move.reveals


def completes(pending: Action, move: Action | Camouflage | Setup) -> bool:
    """Whether ``move`` is ``pending`` with its chance part (or its choice) given."""
    if isinstance(pending, Reroll):
        return isinstance(move, Reroll) and move.dice == pending.dice and len(move.faces) == len(move.dice)
    if isinstance(pending, Buy):
        return isinstance(move, Buy) and (move.monster, move.card) == (pending.monster, pending.card)
    if isinstance(pending, Sweep):
        return isinstance(move, Sweep) and move.monster == pending.monster
    if isinstance(pending, Evolve):
        return isinstance(move, Evolve) and (move.monster, move.drawn) == (pending.monster, pending.drawn)
    return False


def sweep_count(st: KingOfTokyoState) -> int:
    """The cards a sweep reveals."""
    return st.rs.market_size - len([c for c in st.market if st.rs.sweep_keeps_events
                                    and st.cards[c].type == "event"])


def swept(st: KingOfTokyoState) -> tuple[str, ...]:
    """The market cards a sweep discards."""
    return tuple(c for c in st.market if not (st.rs.sweep_keeps_events and st.cards[c].type == "event"))


def reveals(st: KingOfTokyoState, k: int, discarded: Sequence[str], make: Any = tuple) -> Multisets:
    """The cards ``k`` reveals can show (none if fewer are left): the stated top of the deck first, the
    deck's cards, then (the deck run out) the discard pile with ``discarded`` on it."""
    fixed = tuple(st.deck_order[:k])
    deck = copy_counter(st.deck)
    deck.subtract(fixed)
    need = k - len(fixed)
    left = sum(deck.values())
    if need > left:
        if st.rs.deck_exhausted != "reshuffle-discards":
            return Multisets((), (), 1, make)  # no outcome: not enough cards
        fixed += tuple(sorted(deck.elements()))
        need -= left
        deck = copy_counter(st.discards)
        deck.update(discarded)
        if need > sum(deck.values()):
            return Multisets((), (), 1, make)
    items = sorted(c for c in deck if deck[c] > 0)
    return Multisets(items, [deck[c] for c in items], need, make, fixed=fixed)


def keep_count(st: KingOfTokyoState, e: Evolve) -> int:
    """How many of the evolutions ``e`` draws its monster keeps."""
    ev = st.rs.evolution
    assert ev is not None
    return min(ev.start_keep if st.starting else ev.keep, len(e.drawn))


def evolutions(st: KingOfTokyoState, i: int, starting: bool) -> Multisets:
    """The evolutions monster ``i`` can draw: its deck's unknown top, then the cards put under it."""
    ev = st.rs.evolution
    assert ev is not None
    m = st.monsters[i]
    want = min(ev.start_draw if starting else ev.draw, st.evolutions_left(m))
    keep = min(ev.start_keep if starting else ev.keep, want)
    deck, bottom = m.evo_deck, list(m.evo_bottom)
    if sum(deck.values()) - m.secret <= 0 and ev.reshuffle and m.evo_discard:
        deck, bottom = deck + m.evo_discard, []
    top = deck - Counter(bottom)

    def make(drawn: tuple[str, ...]) -> Evolve:
        return Evolve(i, drawn, drawn[:keep] if len(set(drawn)) <= 1 or len(drawn) <= keep else ())

    if sum(top.values()) >= want:
        items = sorted(top)
        return Multisets(items, [top[c] for c in items], want, make)
    return one(make(tuple(sorted(top.elements())) + tuple(bottom[:want - sum(top.values())])))


def _sorted_faces(faces: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(faces, key=FACES.index))
