"""Kingdomino: kingdoms, placements, scoring, and the game state used by the rule checker.

Cells are ``(x, y)`` offsets from the castle, x to the right and y up. In game logs they are
written chess-style on a board just big enough for any legal kingdom: 9x9 with the castle on
``e5`` (5x5 kingdoms), 13x13 with the castle on ``g7`` (7x7 kingdoms, the Mighty Duel).

>>> import kbgrules
>>> from kbgrules.kingdomino.state import Kingdom
>>> rs = kbgrules.load("kingdomino")
>>> k = Kingdom(rs.kingdom_size)
>>> len(k.legal_placements(rs.domino(20)))
24
>>> k.place(rs.domino(20), (1, 0), (2, 0))
>>> [(p.terrain, p.squares, p.crowns, p.points) for p in k.properties()]
[('wheat', 1, 1, 1), ('lake', 1, 0, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from types import MappingProxyType
from typing import Any

from kbgrules.errors import IllegalMoveError as IllegalMoveError  # re-exported: its home before errors.py
from kbgrules.errors import KbgError
from kbgrules.model import Domino, Half, KingdominoRuleset

Cell = tuple[int, int]
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
AROUND: tuple[Cell, ...] = (*DIRECTIONS, (1, 1), (1, -1), (-1, 1), (-1, -1))  # when diagonals connect
CASTLE = Half("castle", 0)


def violation(rs: KingdominoRuleset, code: str, **params: Any) -> IllegalMoveError:
    """An IllegalMoveError whose rule id and message template come from the rule data (``codes``)."""
    entry = rs.data["codes"][code]
    return IllegalMoveError(code, str(entry["rule"]), str(entry["message"]).format(**params), params)


# --------------------------------------------------------------------------- cells


def board_offset(size: int) -> int:
    """Distance from the castle to the board edge: any legal kingdom of ``size`` fits."""
    return size - 1


def cell_name(cell: Cell, size: int) -> str:
    off = board_offset(size)
    return f"{chr(ord('a') + cell[0] + off)}{cell[1] + off + 1}"


def parse_cell(text: str, size: int) -> Cell | None:
    """``e5``-style name to offsets from the castle; None if it is not a cell of the board."""
    off = board_offset(size)
    width = 2 * off + 1
    t = text.strip().lower()
    if len(t) < 2 or not ("a" <= t[0] <= "z") or not (t[1:].isascii() and t[1:].isdigit()):
        return None
    col = ord(t[0]) - ord("a")
    row = int(t[1:]) - 1
    if not (0 <= col < width and 0 <= row < width):
        return None
    return (col - off, row - off)


_BOARD_CELLS: dict[int, Mapping[str, Cell]] = {}


def board_cells(size: int) -> Mapping[str, Cell]:
    """Every cell of the board by its usual name (``e5``, lower case): a shortcut for :func:`parse_cell`."""
    cells = _BOARD_CELLS.get(size)
    if cells is None:
        off = board_offset(size)
        names = (cell_name((x, y), size) for x in range(-off, off + 1) for y in range(-off, off + 1))
        cells = _BOARD_CELLS[size] = {n: c for n in names if (c := parse_cell(n, size))}  # shared: read only
    return cells


def board_columns(size: int) -> str:
    width = 2 * board_offset(size) + 1
    return f"a-{chr(ord('a') + width - 1)}"


def neighbours(cell: Cell) -> Iterator[Cell]:
    x, y = cell
    for dx, dy in DIRECTIONS:
        yield (x + dx, y + dy)


# --------------------------------------------------------------------------- kingdom


@dataclass(frozen=True, slots=True)
class Property:
    """A maximal group of edge-connected squares of one terrain."""

    terrain: str
    squares: int
    crowns: int
    cells: tuple[Cell, ...] = field(repr=False)

    @property
    def points(self) -> int:
        return self.squares * self.crowns


_SIDES: dict[Cell, tuple[Cell, ...]] = {}  # the four side neighbours of the cells met so far


def _sides(cell: Cell) -> tuple[Cell, ...]:
    x, y = cell
    sides = ((x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1))
    if abs(x) < 16 and abs(y) < 16:  # the cells of real kingdoms: keep the cache small
        _SIDES[cell] = sides
    return sides


def _property_order(p: Property) -> tuple[int, int, int, str]:
    return (-p.points, -p.squares, -p.crowns, p.terrain)


class Kingdom:
    """One player's kingdom: the castle at (0, 0) and the squares placed around it."""

    __slots__ = ("castle_wild", "cells", "diagonal", "discards", "maxx", "maxy", "min_edges", "minx", "miny",
                 "placed", "size")

    def __init__(self, size: int = 5, *, castle_wild: bool = True, min_edges: int = 1, diagonal: bool = False) -> None:
        self.size = size
        self.castle_wild = castle_wild
        self.min_edges = min_edges
        self.diagonal = diagonal
        self.cells: dict[Cell, Half] = {(0, 0): CASTLE}
        self.minx = self.maxx = self.miny = self.maxy = 0
        self.discards = 0
        self.placed: list[int] = []

    @classmethod
    def for_rules(cls, rs: KingdominoRuleset) -> Kingdom:
        """An empty kingdom under the ruleset's placement parameters (size, castle, matching edges)."""
        return cls(rs.kingdom_size, castle_wild=rs.castle_wild, min_edges=rs.min_matching_edges,
                   diagonal=rs.diagonal_connects)

    def copy(self) -> Kingdom:
        return self._copy(self.cells.copy(), self.placed.copy(), (self.minx, self.maxx, self.miny, self.maxy),
                          self.discards)

    def _copy(self, cells: dict[Cell, Half], placed: list[int], box: tuple[int, int, int, int],
              discards: int) -> Kingdom:
        """A kingdom with this one's parameters and the given contents (no __init__: copies are frequent)."""
        k = Kingdom.__new__(Kingdom)
        k.size, k.castle_wild, k.min_edges, k.diagonal = self.size, self.castle_wild, self.min_edges, self.diagonal
        k.cells, k.placed, k.discards = cells, placed, discards
        k.minx, k.maxx, k.miny, k.maxy = box
        return k

    @property
    def width(self) -> int:
        return self.maxx - self.minx + 1

    @property
    def height(self) -> int:
        return self.maxy - self.miny + 1

    def _extent(self, a: Cell, b: Cell) -> tuple[int, int]:
        w = max(self.maxx, a[0], b[0]) - min(self.minx, a[0], b[0]) + 1
        h = max(self.maxy, a[1], b[1]) - min(self.miny, a[1], b[1]) + 1
        return w, h

    def _offsets(self) -> tuple[Cell, ...]:
        return AROUND if self.diagonal else DIRECTIONS

    def _around(self, cell: Cell) -> Iterator[Cell]:
        x, y = cell
        for dx, dy in self._offsets():
            yield (x + dx, y + dy)

    def _matches(self, terrain: str, cell: Cell) -> int:
        """Matching edges for a square of ``terrain`` put on the empty ``cell`` (the castle counts if wild)."""
        n = 0
        x, y = cell
        cells = self.cells
        wild = self.castle_wild
        for dx, dy in AROUND if self.diagonal else DIRECTIONS:
            sq = cells.get((x + dx, y + dy))
            if sq is not None and ((sq is CASTLE and wild) or sq.terrain == terrain):
                n += 1
        return n

    def _connects_pair(self, first: str, a: Cell, second: str, b: Cell) -> bool:
        total = self._matches(first, a) + self._matches(second, b)
        return total >= max(1, self.min_edges)

    def problem(self, domino: Domino, a: Cell, b: Cell) -> tuple[str, dict[str, Any]] | None:
        """Why placing ``domino`` with its first half on ``a`` and second on ``b`` is illegal, or None."""
        ax, ay = a
        bx, by = b
        if abs(ax - bx) + abs(ay - by) != 1:
            return "kd-cells-apart", {}
        cells = self.cells
        if a in cells:
            return "kd-overlap", {"cell": a}
        if b in cells:
            return "kd-overlap", {"cell": b}
        size = self.size
        w = max(self.maxx, ax, bx) - min(self.minx, ax, bx) + 1
        h = max(self.maxy, ay, by) - min(self.miny, ay, by) + 1
        if w > size or h > size:
            return "kd-too-big", {"w": w, "h": h}
        # matching edges: a square of the same terrain, or the castle when it is wild (inlines _matches)
        wild = self.castle_wild
        t1, t2 = domino.first.terrain, domino.second.terrain
        get = cells.get
        edges = 0
        if self.diagonal:
            around_a, around_b = tuple(self._around(a)), tuple(self._around(b))
        else:
            around_a, around_b = _SIDES.get(a) or _sides(a), _SIDES.get(b) or _sides(b)
        for n in around_a:
            sq = get(n)
            if sq is not None and ((sq is CASTLE and wild) or sq.terrain == t1):
                edges += 1
        for n in around_b:
            sq = get(n)
            if sq is not None and ((sq is CASTLE and wild) or sq.terrain == t2):
                edges += 1
        if edges < max(1, self.min_edges):
            return "kd-no-connection", {}
        return None

    def is_legal(self, domino: Domino, a: Cell, b: Cell) -> bool:
        return self.problem(domino, a, b) is None

    def place(self, domino: Domino, a: Cell, b: Cell) -> None:
        """Put ``domino`` down without checking (see :meth:`problem`)."""
        cells = self.cells
        cells[a] = domino.first
        cells[b] = domino.second
        ax, ay = a
        bx, by = b
        lo, hi = (ax, bx) if ax <= bx else (bx, ax)
        if lo < self.minx:
            self.minx = lo
        if hi > self.maxx:
            self.maxx = hi
        lo, hi = (ay, by) if ay <= by else (by, ay)
        if lo < self.miny:
            self.miny = lo
        if hi > self.maxy:
            self.maxy = hi
        self.placed.append(domino.number)

    def frontier(self) -> set[Cell]:
        """Empty cells next to a square or the castle (diagonally too when diagonals connect)."""
        cells = self.cells
        offs = self._offsets()
        return {(x + dx, y + dy) for x, y in cells for dx, dy in offs} - cells.keys()

    def _touching(self) -> dict[Cell, tuple[int, dict[str, int]]]:
        """For each frontier cell: matching edges the castle gives, and the terrains around it."""
        cells = self.cells
        out: dict[Cell, tuple[int, dict[str, int]]] = {}
        offs = self._offsets()
        for f in self.frontier():
            castle = 0
            terrains: dict[str, int] = {}
            fx, fy = f
            for dx, dy in offs:
                sq = cells.get((fx + dx, fy + dy))
                if sq is CASTLE:
                    castle = 1 if self.castle_wild else 0
                elif sq is not None:
                    terrains[sq.terrain] = terrains.get(sq.terrain, 0) + 1
            out[f] = (castle, terrains)
        return out

    def _window(self) -> tuple[int, int, int, int] | None:
        """The cells a new domino may cover without breaking the size limit (x0, x1, y0, y1), or None."""
        size = self.size
        if self.maxx - self.minx >= size or self.maxy - self.miny >= size:
            return None
        return self.maxx - size + 1, self.minx + size - 1, self.maxy - size + 1, self.miny + size - 1

    def _one_edge_placements(self, t1: str, t2: str) -> Iterator[tuple[Cell, Cell]]:
        """Legal placements when one matching edge is enough and only sides touch (the usual rules).

        A placement (f, g) is legal when f touches a square of the first half's terrain (or the wild
        castle) or g one of the second's; so start from those squares, not from the whole frontier.
        """
        window = self._window()
        if window is None:
            return
        x0, x1, y0, y1 = window
        cells = self.cells
        wild = self.castle_wild
        for (x, y), sq in cells.items():
            if sq is CASTLE:
                m1 = m2 = wild
            else:
                m1, m2 = sq.terrain == t1, sq.terrain == t2
            if not (m1 or m2):
                continue
            for dx, dy in DIRECTIONS:
                fx, fy = f = (x + dx, y + dy)
                if not (x0 <= fx <= x1 and y0 <= fy <= y1) or f in cells:
                    continue
                for ex, ey in DIRECTIONS:
                    gx, gy = g = (fx + ex, fy + ey)
                    if x0 <= gx <= x1 and y0 <= gy <= y1 and g not in cells:
                        if m1:
                            yield (f, g)
                        if m2:
                            yield (g, f)

    def _placements(self, domino: Domino) -> Iterator[tuple[Cell, Cell]]:
        """Legal placements, possibly repeated; both cells are empty, so neither half can block the other."""
        t1, t2 = domino.first.terrain, domino.second.terrain
        if self.min_edges <= 1 and not self.diagonal:
            yield from self._one_edge_placements(t1, t2)
            return
        cells = self.cells
        touch = self._touching()
        size = self.size
        minx, maxx, miny, maxy = self.minx, self.maxx, self.miny, self.maxy
        none: tuple[int, dict[str, int]] = (0, {})
        need = max(1, self.min_edges)
        for f, (fc, ft) in touch.items():
            for dx, dy in DIRECTIONS:
                g = (f[0] + dx, f[1] + dy)
                if g in cells:
                    continue
                if (max(maxx, f[0], g[0]) - min(minx, f[0], g[0]) >= size
                        or max(maxy, f[1], g[1]) - min(miny, f[1], g[1]) >= size):
                    continue
                gc, gt = touch.get(g, none)
                if fc + ft.get(t1, 0) + gc + gt.get(t2, 0) >= need:
                    yield (f, g)
                if gc + gt.get(t1, 0) + fc + ft.get(t2, 0) >= need:
                    yield (g, f)

    def legal_placements(self, domino: Domino) -> list[tuple[Cell, Cell]]:
        """Every legal (first-half cell, second-half cell) pair, sorted."""
        return sorted(set(self._placements(domino)))

    def can_place(self, domino: Domino) -> bool:
        return next(self._placements(domino), None) is not None

    def properties(self) -> list[Property]:
        """The properties, largest first (ties: more crowns first, then terrain name)."""
        left = {c: sq for c, sq in self.cells.items() if sq is not CASTLE}  # squares not yet in a property
        out: list[Property] = []
        for start, sq in self.cells.items():
            if start not in left:
                continue
            del left[start]
            terrain = sq.terrain
            group = [start]
            crowns = sq.crowns
            for c in group:  # grows while it is walked: a breadth-first search
                for n in _SIDES.get(c) or _sides(c):
                    other = left.get(n)
                    if other is not None and other.terrain == terrain:
                        del left[n]
                        group.append(n)
                        crowns += other.crowns
            group.sort()
            out.append(Property(terrain, len(group), crowns, tuple(group)))
        out.sort(key=_property_order)
        return out

    def is_complete(self) -> bool:
        """Every cell of a full size x size square is covered (no holes)."""
        return self.width == self.size and self.height == self.size and len(self.cells) == self.size * self.size

    def castle_centred(self) -> bool:
        """The castle is in the middle of the kingdom's bounding box."""
        return -self.minx == self.maxx and -self.miny == self.maxy

    def within_centre_window(self) -> bool:
        """Every square lies in the size x size window centred on the castle."""
        r = (self.size - 1) // 2
        return max(-self.minx, self.maxx, -self.miny, self.maxy) <= r

    def rows(self, letters: Mapping[str, str]) -> list[list[str]]:
        """The bounding box as rows of cell codes, top row first: ``W1``, ``C``, ``.``."""
        out = []
        for y in range(self.maxy, self.miny - 1, -1):
            row = []
            for x in range(self.minx, self.maxx + 1):
                sq = self.cells.get((x, y))
                if sq is None:
                    row.append(".")
                elif sq is CASTLE:
                    row.append("C")
                else:
                    row.append(f"{letters[sq.terrain]}{sq.crowns}" if sq.crowns else letters[sq.terrain])
            out.append(row)
        return out

    def grid_text(self, letters: Mapping[str, str]) -> str:
        return "\n".join(" ".join(f"{c:<2}" for c in row).rstrip() for row in self.rows(letters))


def legal_placements(kingdom: Kingdom, domino: Domino) -> list[tuple[Cell, Cell]]:
    """Every legal (first-half cell, second-half cell) for ``domino`` in ``kingdom``; empty means discard."""
    return kingdom.legal_placements(domino)


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class Score:
    """A kingdom's score: properties, bonuses and the tie-break figures."""

    total: int
    base: int
    properties: tuple[Property, ...]
    bonuses: Mapping[str, int]
    largest_property: int
    crowns: int


def bonus_applies(rs: KingdominoRuleset, bonus_id: str, kingdom: Kingdom, discards: int | None) -> bool:
    """Whether an active bonus is earned, under the reading the ruleset names."""
    reading = rs.bonuses[bonus_id].reading
    if reading == "symmetric-bounding-box":
        return kingdom.castle_centred()
    if reading in ("within-window", "fixed-centre"):
        return kingdom.within_centre_window()
    if reading == "no-discard":
        return (discards == 0) if discards is not None else kingdom.is_complete()
    if reading == "complete-grid":
        return kingdom.is_complete()
    raise KbgError(f"unknown bonus reading {reading!r}", code="data-error")


def score(kingdom: Kingdom, rs: KingdominoRuleset, *, discards: int | None = None) -> Score:
    """Score ``kingdom`` under ``rs`` (squares x crowns per property, plus the active bonuses).

    ``discards`` is the number of dominoes the player discarded, when known (a replayed game);
    None for a bare grid, where Harmony's "no discard" reading falls back to a complete grid.
    """
    props = tuple(kingdom.properties())
    base = largest = crowns = 0
    for p in props:
        base += p.squares * p.crowns
        largest = max(largest, p.squares)
        crowns += p.crowns
    bonuses = {b.id: b.points for b in rs.bonuses.values()
               if b.active and bonus_applies(rs, b.id, kingdom, discards)}
    return Score(total=base + sum(bonuses.values()), base=base, properties=props,
                 bonuses=MappingProxyType(bonuses), largest_property=largest, crowns=crowns)


def tiebreak_key(rs: KingdominoRuleset, s: Score) -> tuple[int, ...]:
    key = [s.total]
    for step in rs.tiebreak:
        if step == "largest-property":
            key.append(s.largest_property)
        elif step == "crowns":
            key.append(s.crowns)
    return tuple(key)


def rank(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Competition ranks (1 = best; equal keys share a rank)."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: a new line revealed (numbers in any order; the line is sorted)."""

    numbers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DrawKings:
    """Chance: the order in which the kings were drawn for the first claims (one entry per king)."""

    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Claim:
    player: int
    number: int


@dataclass(frozen=True, slots=True)
class Place:
    player: int
    number: int
    first: Cell
    second: Cell


@dataclass(frozen=True, slots=True)
class Discard:
    player: int
    number: int


Action = Deal | DrawKings | Claim | Place | Discard


# --------------------------------------------------------------------------- game state


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    name: str
    score: Score
    rank: int
    discards: int


@dataclass(frozen=True, slots=True)
class Outcome:
    standings: tuple[Standing, ...]
    winners: tuple[str, ...]


class KingdominoState:
    """A game in progress: ``legal_actions()``, ``apply()`` (checked by default), ``is_terminal()``."""

    def __init__(self, rs: KingdominoRuleset, players: Sequence[str]) -> None:
        if rs.players != len(players):
            raise KbgError(f"the ruleset was loaded for {rs.players} players, not {len(players)}",
                           code="player-count")
        self.rs = rs
        self.players = tuple(players)
        self.row = rs.setup
        self.dominoes = {d.number: d for d in rs.dominoes}
        self.kingdoms = [Kingdom.for_rules(rs) for _ in players]
        kpp = self.row.kings_per_player
        self.king_owner = [p for p in range(len(players)) for _ in range(kpp)]
        self.dealt: dict[int, int] = {}  # number -> index of the line it came in
        self.lines_dealt = 0
        self.current: list[int] = []
        self.current_claims: dict[int, int] = {}  # number -> king
        self.next: list[int] = []
        self.next_claims: dict[int, int] = {}
        self.phase = "deal"  # deal, first, turn, over
        self.first_order: tuple[int, ...] | None = None
        self.order: list[int] = []
        self.turn = 0
        self.step = "place"
        self.discarded: list[int] = []
        self.history: list[Action] = []
        self._scores: tuple[int, list[Score]] | None = None
        self._round_marks: list[list[_Mark]] = []  # every kingdom at the end of each round, for `kbg show`
        self._overwritten = False  # an unchecked placement covered a square: marks must hold copies

    # ---------------------------------------------------------------- queries

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance(self) -> bool:
        """A chance event comes next: a deal, or (optionally) the draw of kings for the first claims."""
        return self.phase == "deal"

    def current_king(self) -> int | None:
        if self.phase == "first":
            taken = len(self.next_claims)
            return self.first_order[taken] if self.first_order is not None else None
        if self.phase == "turn":
            return self.order[self.turn]
        return None

    def current_player(self) -> int | None:
        """The player to act, or None at a chance event, at the end, or in free first claims."""
        king = self.current_king()
        return None if king is None else self.king_owner[king]

    @property
    def round_ends(self) -> list[list[Kingdom]]:
        """Every kingdom at the end of each round (built on demand from marks taken as rounds end)."""
        return [[_mark_kingdom(m) for m in marks] for marks in self._round_marks]

    def king_domino(self, king: int) -> int:
        for n, k in self.current_claims.items():
            if k == king:
                return n
        raise StopIteration  # as next() on an empty search did

    def expected(self) -> str:
        """What comes next, in words, for messages."""
        if self.phase == "deal":
            return f"a deal of {self.row.line_size} dominoes"
        if self.phase == "first":
            p = self.current_player()
            return f"{self.players[p]}'s first claim" if p is not None else "a first claim"
        if self.phase == "turn":
            who = self.players[self.king_owner[self.order[self.turn]]]
            if self.step == "place":
                return f"{who} placing or discarding domino {self.king_domino(self.order[self.turn])}"
            return f"{who}'s claim"
        return "the end of the game"

    def remaining_deck(self) -> list[int]:
        return [n for n in self.dominoes if n not in self.dealt]

    def legal_actions(self) -> list[Action]:
        """Every legal player action (empty at a chance event: see :meth:`is_chance`)."""
        if self.phase in ("deal", "over"):
            return []
        if self.phase == "first":
            snake = self.snake_owner()
            players = ([self.current_player()] if self.first_order is not None else [snake] if snake is not None
                       else [p for p in range(len(self.players)) if self._unclaimed_kings(p)])
            return [Claim(p, n) for p in players if p is not None for n in self.next if n not in self.next_claims]
        king = self.order[self.turn]
        p = self.king_owner[king]
        if self.step == "claim":
            return [Claim(p, n) for n in self.next if n not in self.next_claims]
        number = self.king_domino(king)
        domino = self.dominoes[number]
        places: list[Action] = [Place(p, number, a, b) for a, b in self.kingdoms[p].legal_placements(domino)]
        if not places or self.rs.discard == "any-time":
            places.append(Discard(p, number))
        return places

    # ---------------------------------------------------------------- moves

    def _fail(self, code: str, **params: Any) -> IllegalMoveError:
        return violation(self.rs, code, **params)

    def snake_owner(self) -> int | None:
        """With the snake option (2 players): who claims next in the first round, A, B, B, A."""
        if self.rs.first_player_method != "snake" or len(self.players) != 2 or not self.next_claims:
            return None
        first = self.king_owner[next(iter(self.next_claims.values()))]
        return [first, 1 - first, 1 - first, first][len(self.next_claims)]

    def _unclaimed_kings(self, player: int) -> int:
        mine = sum(1 for k in self.next_claims.values() if self.king_owner[k] == player)
        return self.row.kings_per_player - mine

    def apply(self, action: Action, check: bool = True) -> None:
        """Play ``action``; with ``check`` an illegal one raises IllegalMoveError and changes nothing."""
        if self.phase == "over":
            raise self._fail("kd-after-end")
        if type(action) is Place:  # most moves: an exact class is the quickest test
            self._place(action, check)
        elif type(action) is Claim:
            self._claim(action, check)
        elif isinstance(action, Deal):
            self._deal(action, check)
        elif isinstance(action, DrawKings):
            self._draw_kings(action, check)
        elif isinstance(action, Claim):
            self._claim(action, check)
        elif isinstance(action, Place | Discard):
            self._place(action, check)
        else:  # pragma: no cover - the Action union is closed
            raise TypeError(action)
        self.history.append(action)

    def _deal(self, action: Deal, check: bool) -> None:
        if check:
            if self.phase != "deal":
                raise self._fail("kd-unexpected", expected=self.expected(), got="a deal")
            if len(action.numbers) != self.row.line_size:
                raise self._fail("kd-deal-size", players=len(self.players), expected=self.row.line_size,
                                 got=len(action.numbers))
            seen: set[int] = set()
            for n in action.numbers:
                if n not in self.dominoes:
                    raise self._fail("kd-deal-unknown", domino=n)
                if n in self.dealt or n in seen:
                    where = f"in deal {self.dealt[n] + 1}" if n in self.dealt else "twice in this deal"
                    raise self._fail("kd-deal-repeat", domino=n, first=where)
                seen.add(n)
        for n in action.numbers:
            self.dealt[n] = self.lines_dealt
        self.lines_dealt += 1
        self.next = sorted(action.numbers)
        self.next_claims = {}
        if self.lines_dealt == 1:
            self.phase = "first"
        else:
            self._start_turns()

    def _start_turns(self) -> None:
        self.phase = "turn"
        self.order = [self.current_claims[n] for n in self.current]
        self.turn = 0
        self.step = "place"

    def _draw_kings(self, action: DrawKings, check: bool) -> None:
        if check:
            if self.phase != "first" or self.next_claims or self.first_order is not None:
                raise self._fail("kd-unexpected", expected=self.expected(), got="the draw of kings")
            want = sorted(self.king_owner)
            o = action.order
            if self.rs.first_player_method == "snake" and len(self.players) == 2 and len(o) == 4 and \
                    sorted(o) == want and list(o) != [o[0], 1 - o[0], 1 - o[0], o[0]]:
                raise self._fail("kd-kings-order", problem="with the snake option the kings go A, B, B, A")
            if sorted(action.order) != want:
                counts = ", ".join(f"{self.players[p]} x{self.row.kings_per_player}" for p in range(len(self.players)))
                raise self._fail("kd-kings-order", problem=f"the kings drawn must be each king in play once ({counts})")
        # the n-th time a player's king is drawn, it is that player's n-th king
        used = [0] * len(self.players)
        kings = []
        for p in action.order:
            kings.append(p * self.row.kings_per_player + used[p])
            used[p] += 1
        self.first_order = tuple(kings)

    def _claim(self, action: Claim, check: bool) -> None:
        p, n = action.player, action.number
        if self.phase == "first":
            expected_king = self.current_king()
            if check:
                if expected_king is not None and self.king_owner[expected_king] != p:
                    raise self._fail("kd-wrong-player", expected=self.players[self.king_owner[expected_king]],
                                     actor=self.players[p], why="order of the kings drawn")
                snake = self.snake_owner()
                if snake is not None and snake != p:
                    raise self._fail("kd-wrong-player", expected=self.players[snake], actor=self.players[p],
                                     why="the snake order A, B, B, A")
                if expected_king is None and self._unclaimed_kings(p) <= 0:
                    raise self._fail("kd-kings-order", problem=f"{self.players[p]} has no king left to place")
                self._check_claim(n)
            king = expected_king if expected_king is not None else (
                p * self.row.kings_per_player + self.row.kings_per_player - self._unclaimed_kings(p))
            self.next_claims[n] = king
            if len(self.next_claims) == len(self.king_owner):
                self._end_claims()
            return
        if check:
            if self.phase != "turn" or self.step != "claim":
                raise self._fail("kd-unexpected", expected=self.expected(), got=f"a claim by {self.players[p]}")
            owner = self.king_owner[self.order[self.turn]]
            if owner != p:
                raise self._fail("kd-wrong-player", expected=self.players[owner], actor=self.players[p],
                                 why="turn order follows the line being placed")
            if n not in self.next or n in self.next_claims:
                self._check_claim(n)  # raises
        self.next_claims[n] = self.order[self.turn]
        self._advance()

    def _check_claim(self, n: int) -> None:
        if n not in self.next:
            raise self._fail("kd-claim-not-in-line", domino=n, line=" ".join(map(str, self.next)))
        if n in self.next_claims:
            raise self._fail("kd-claim-taken", domino=n, owner=self.players[self.king_owner[self.next_claims[n]]])

    def _place(self, action: Place | Discard, check: bool) -> None:
        p, n = action.player, action.number
        is_place = isinstance(action, Place)
        if check:
            if self.phase != "turn" or self.step != "place":
                kind = "a placement" if is_place else "a discard"
                raise self._fail("kd-unexpected", expected=self.expected(), got=f"{kind} by {self.players[p]}")
            owner = self.king_owner[self.order[self.turn]]
            if owner != p:
                raise self._fail("kd-wrong-player", expected=self.players[owner], actor=self.players[p],
                                 why="turn order follows the line being placed")
        own = self.king_domino(self.order[self.turn])
        if check and n != own:
            raise self._fail("kd-wrong-domino", actor=self.players[p], expected=own, domino=n)
        domino = self.dominoes[n]
        kingdom = self.kingdoms[p]
        if isinstance(action, Place):
            if not check and (action.first in kingdom.cells or action.second in kingdom.cells):
                self._overwritten = True
            if check:
                bad = kingdom.problem(domino, action.first, action.second)
                if bad is not None:
                    code, info = bad
                    size = kingdom.size
                    a, b = cell_name(action.first, size), cell_name(action.second, size)
                    cell = info.get("cell")
                    raise self._fail(code, domino=n, a=a, b=b, actor=self.players[p], size=size,
                                     cell=cell_name(cell, size) if cell else "", w=info.get("w"), h=info.get("h"))
            kingdom.place(domino, action.first, action.second)
        else:
            if check and self.rs.discard != "any-time" and kingdom.can_place(domino):
                legal = kingdom.legal_placements(domino)
                if legal:
                    c1, c2 = legal[0]
                    raise self._fail("kd-voluntary-discard", domino=n, count=len(legal),
                                     example=f"{cell_name(c1, kingdom.size)} {cell_name(c2, kingdom.size)}")
            kingdom.discards += 1
            self.discarded.append(n)
        if self.next:
            self.step = "claim"
        else:
            self._advance()

    def _advance(self) -> None:
        self.turn += 1
        self.step = "place"
        if self.turn == len(self.order):
            if self.next:
                self._end_claims()
            else:
                self.phase = "over"
                self._round_end()

    def _round_end(self) -> None:
        if self._overwritten:
            self._round_marks.append([_mark(k.copy()) for k in self.kingdoms])
        else:
            self._round_marks.append([_mark(k) for k in self.kingdoms])

    def _end_claims(self) -> None:
        self._round_end()
        for n in self.next:
            if n not in self.next_claims:
                self.discarded.append(n)  # the unclaimed leftover of a line (second edition, 3 players)
        self.current = [n for n in self.next if n in self.next_claims]
        self.current_claims = self.next_claims
        self.next = []
        self.next_claims = {}
        if self.lines_dealt < self.row.rounds:
            self.phase = "deal"
        else:
            self._start_turns()

    # ---------------------------------------------------------------- results

    def scores(self) -> list[Score]:
        """Each player's score now (cached until the next move)."""
        stamp = len(self.history)
        if self._scores is None or self._scores[0] != stamp:
            self._scores = (stamp, [score(k, self.rs, discards=k.discards) for k in self.kingdoms])
        return self._scores[1]

    def outcome(self) -> Outcome:
        """Scores, ranks (with the edition's tie-breaks) and winners; meaningful once terminal."""
        scores = self.scores()
        ranks = rank([tiebreak_key(self.rs, s) for s in scores])
        standings = tuple(Standing(i, self.players[i], s, r, self.kingdoms[i].discards)
                          for i, (s, r) in enumerate(zip(scores, ranks, strict=True)))
        winners = tuple(st.name for st in standings if st.rank == 1)
        return Outcome(standings, winners)


# A kingdom as it stood at a round end: kingdoms only grow (squares are never covered in a checked
# game), so the first ``cells`` squares and ``placed`` numbers of the kingdom now, with the bounding
# box and discards of then, give it back without copying every kingdom at every round end.
_Mark = tuple[Kingdom, int, int, int, tuple[int, int, int, int]]


def _mark(k: Kingdom) -> _Mark:
    return (k, len(k.cells), len(k.placed), k.discards, (k.minx, k.maxx, k.miny, k.maxy))


def _mark_kingdom(mark: _Mark) -> Kingdom:
    k, cells, placed, discards, box = mark
    return k._copy(dict(islice(k.cells.items(), cells)), k.placed[:placed], box, discards)


def letters(rs: KingdominoRuleset) -> dict[str, str]:
    """Terrain id -> grid letter."""
    return {t.id: t.letter for t in rs.terrains}


def kingdom_from_rows(rows: Iterable[Iterable[str]], rs: KingdominoRuleset, size: int | None = None) -> Kingdom:
    """A kingdom from grid rows (top row first) of cell codes; the castle ``C`` becomes (0, 0).

    Raises KbgError (code ``grid``) for unreadable cells. Use :func:`kbgrules.kingdomino.positions.read_grid`
    for text with warnings about impossible kingdoms.
    """
    from kbgrules.kingdomino.positions import grid_to_kingdom

    kingdom, _ = grid_to_kingdom([list(r) for r in rows], rs, size)
    return kingdom
