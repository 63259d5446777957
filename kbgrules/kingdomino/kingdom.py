"""Kingdomino kingdoms: cells, placement, properties and scoring.

Cells are ``(x, y)`` offsets from the castle, x to the right and y up; their names in game logs
(``e5``) are :mod:`~kbgrules.kingdomino.board`'s.

>>> import kbgrules
>>> from kbgrules.kingdomino.kingdom import Kingdom
>>> rs = kbgrules.load("kingdomino")
>>> k = Kingdom(rs.kingdom_size)
>>> len(k.legal_placements(rs.domino(20)))
24
>>> k.place(rs.domino(20), (1, 0), (2, 0))
>>> [(p.terrain, p.squares, p.crowns, p.points) for p in k.properties()]
[('wheat', 1, 1, 1), ('lake', 1, 0, 0)]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from types import MappingProxyType
from typing import Any, Final

from kbgrules.core.model import violation as violation  # re-exported: the game's modules raise it
from kbgrules.errors import KbgError
from kbgrules.kingdomino.board import ORIGIN, REMADE
from kbgrules.kingdomino.board import Cell as Cell
from kbgrules.kingdomino.board import board_cells as board_cells
from kbgrules.kingdomino.board import board_columns as board_columns
from kbgrules.kingdomino.board import board_offset as board_offset
from kbgrules.kingdomino.board import cell_name as cell_name
from kbgrules.kingdomino.board import parse_cell as parse_cell
from kbgrules.kingdomino.grid import WINDOWS, corner_cell_name, grid_codes, window_cells
from kbgrules.kingdomino.grid import square as square  # re-exported: its home before grid.py
from kbgrules.kingdomino.groups import SIDES, Found, holes_fit, property_groups, search_groups, shared, sides
from kbgrules.kingdomino.model import Domino, Half, KingdominoRuleset, slot_shell

DIRECTIONS: Final[tuple[Cell, ...]] = ((1, 0), (0, 1), (-1, 0), (0, -1))
AROUND: Final[tuple[Cell, ...]] = (*DIRECTIONS, (1, 1), (1, -1), (-1, 1), (-1, -1))  # when diagonals connect
CASTLE: Final = Half("castle", 0)
_NEXT: Final = (1, -1)


# --------------------------------------------------------------------------- cells


def corner_name(k: Kingdom, size: int) -> str:
    """The name of the square at the top left of ``k.rows()``, so that a picture can be labelled."""
    return corner_cell_name((k.minx, k.maxy), size)


def neighbours(cell: Cell) -> Iterator[Cell]:
    x, y = cell
    for dx, dy in DIRECTIONS:
        yield (x + dx, y + dy)


# --------------------------------------------------------------------------- kingdom


@dataclass(frozen=True, slots=True, init=False)
class Property:
    """A maximal group of edge-connected squares of one terrain."""

    terrain: str
    squares: int
    crowns: int
    cells: tuple[Cell, ...] = field(repr=False)

    def __init__(self, terrain: str, squares: int, crowns: int, cells: tuple[Cell, ...]) -> None:
        # written out: in the compiled build (docs/scale.md) dataclasses' own would be interpreted
        object.__setattr__(self, "terrain", terrain)
        object.__setattr__(self, "squares", squares)
        object.__setattr__(self, "crowns", crowns)
        object.__setattr__(self, "cells", cells)

    @property
    def points(self) -> int:
        return self.squares * self.crowns

    def __reduce__(self) -> tuple[Any, ...]:  # compiled, a native class pickles only so
        return Property, (self.terrain, self.squares, self.crowns, self.cells)


_PROPERTY_SHELL: Final = slot_shell(Property)


def _properties(found: list[Found]) -> list[Property]:
    shell = _PROPERTY_SHELL
    if shell is None:
        return [Property(terrain, -squares, -crowns, cells) for _, squares, crowns, terrain, _, cells in found]
    out: list[Property] = []
    for _, squares, crowns, terrain, _, cells in found:  # Property(...), at a quarter of the cost
        p: Any = object.__new__(shell)
        p.terrain, p.squares, p.crowns, p.cells = terrain, -squares, -crowns, cells
        p.__class__ = Property
        out.append(p)
    return out


class Kingdom:
    """One player's kingdom: the castle at (0, 0) and the squares placed around it."""

    __slots__ = ("castle_wild", "cells", "diagonal", "discards", "letters", "maxx", "maxy", "min_edges", "minx",
                 "miny", "placed", "size")

    def __init__(self, size: int = 5, *, castle_wild: bool = True, min_edges: int = 1, diagonal: bool = False,
                 letters: Mapping[str, str] | None = None) -> None:
        self.size = size
        self.letters = letters  # terrain id -> grid letter, for rows() and str(); None: the ids' initials
        self.castle_wild = castle_wild
        self.min_edges = min_edges
        self.diagonal = diagonal
        self.cells: dict[Cell, Half] = {ORIGIN: CASTLE}
        self.minx = self.maxx = self.miny = self.maxy = 0
        self.discards = 0
        self.placed: list[int] = []

    @classmethod
    def for_rules(cls, rs: KingdominoRuleset) -> Kingdom:
        """An empty kingdom under the ruleset's placement parameters (size, castle, matching edges)."""
        from kbgrules.core.args import of_type

        of_type(rs, KingdominoRuleset, "rs", "a Kingdomino ruleset (from kbgrules.load)")
        return cls(rs.kingdom_size, castle_wild=rs.castle_wild, min_edges=rs.min_matching_edges,
                   diagonal=rs.diagonal_connects, letters=letters(rs))

    def copy(self) -> Kingdom:
        return self._copy(self.cells.copy(), self.placed.copy(), (self.minx, self.maxx, self.miny, self.maxy),
                          self.discards)

    def _copy(self, cells: dict[Cell, Half], placed: list[int], box: tuple[int, int, int, int],
              discards: int) -> Kingdom:
        """A kingdom with this one's parameters and the given contents (no __init__: copies are frequent)."""
        k = Kingdom.__new__(Kingdom)
        k.size, k.castle_wild, k.min_edges, k.diagonal = self.size, self.castle_wild, self.min_edges, self.diagonal
        k.letters = self.letters
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

    def problem(self, domino: Domino, a: Cell, b: Cell) -> tuple[str, dict[str, Any]] | None:
        """Why placing ``domino`` with its first half on ``a`` and second on ``b`` is illegal, or None."""
        return self._check(domino, a, b, False)

    def place_if_legal(self, domino: Domino, a: Cell, b: Cell) -> tuple[str, dict[str, Any]] | None:
        """:meth:`place` ``domino`` and return None if that is legal; else the :meth:`problem` (nothing placed)."""
        return self._check(domino, a, b, True)

    def _check(self, domino: Domino, a: Cell, b: Cell, place: bool) -> tuple[str, dict[str, Any]] | None:
        ax, ay = a
        bx, by = b
        if ax == bx:
            if ay - by not in _NEXT:  # abs(dx) + abs(dy) == 1
                return "kd-cells-apart", {}
            x0 = x1 = ax
            if ay < by:
                y0, y1 = ay, by
            else:
                y0, y1 = by, ay
        elif ay != by or ax - bx not in _NEXT:
            return "kd-cells-apart", {}
        else:
            y0 = y1 = ay
            if ax < bx:
                x0, x1 = ax, bx
            else:
                x0, x1 = bx, ax
        # compiled, a Cell is two native ints, made a new tuple at each use as a key: the shared ones instead
        key_a: Any = shared(ax, ay) if REMADE else a
        key_b: Any = shared(bx, by) if REMADE else b
        cells = self.cells
        if key_a in cells:
            return "kd-overlap", {"cell": a}
        if key_b in cells:
            return "kd-overlap", {"cell": b}
        minx = self.minx
        if x0 < minx:
            minx = x0
        maxx = self.maxx
        if x1 > maxx:
            maxx = x1
        miny = self.miny
        if y0 < miny:
            miny = y0
        maxy = self.maxy
        if y1 > maxy:
            maxy = y1
        size = self.size
        if maxx - minx >= size or maxy - miny >= size:
            return "kd-too-big", {"w": maxx - minx + 1, "h": maxy - miny + 1}
        first, second = domino.first, domino.second  # matching edges: the same terrain, or the castle if wild
        if self.min_edges <= 1 and not self.diagonal:  # the usual rules: one side of either half (_matches, inlined)
            wild = self.castle_wild
            t1 = first.terrain
            n: Any
            for n in SIDES.get(key_a) or sides(key_a):
                sq = cells.get(n)
                if sq is not None and (sq.terrain == t1 or (sq is CASTLE and wild)):
                    break
            else:
                t2 = second.terrain
                for n in SIDES.get(key_b) or sides(key_b):
                    sq = cells.get(n)
                    if sq is not None and (sq.terrain == t2 or (sq is CASTLE and wild)):
                        break
                else:
                    return "kd-no-connection", {}
        elif self._matches(first.terrain, a) + self._matches(second.terrain, b) < max(1, self.min_edges):
            return "kd-no-connection", {}
        if place:  # as place() does
            cells[key_a] = first
            cells[key_b] = second
            self.minx = minx
            self.maxx = maxx
            self.miny = miny
            self.maxy = maxy
            self.placed.append(domino.number)
        return None

    def is_legal(self, domino: Domino, a: Cell, b: Cell) -> bool:
        return self._check(domino, a, b, False) is None

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

    def legal_placements(self, domino: Domino | tuple[Half, Half]) -> list[tuple[Cell, Cell]]:
        """Every legal (first-half cell, second-half cell) pair, sorted. ``domino`` is a domino of the
        ruleset, or any two squares (``(Half("wheat", 1), Half("lake", 0))``)."""
        return sorted(set(self._placements(as_domino(domino))))

    def can_place(self, domino: Domino | tuple[Half, Half]) -> bool:
        d = as_domino(domino)
        if self.min_edges <= 1 and not self.diagonal:
            window = self._window()
            if window is None:
                return False
            x0, x1, y0, y1 = window
            if (x1 - x0 + 1) * (y1 - y0 + 1) < 2 * len(self.cells):  # few holes left: look from them
                return self._fits_in_holes(d.first.terrain, d.second.terrain, window)
        return next(self._placements(d), None) is not None

    def _fits_in_holes(self, t1: str, t2: str, window: tuple[int, int, int, int]) -> bool:
        """Whether :meth:`_one_edge_placements` has a placement, from the empty cells of the window: one
        with an empty neighbour in the window, touching a square of either half's terrain (or the wild castle)."""
        cells = self.cells
        fits = holes_fit(cells, window, t1, t2, self.castle_wild, CASTLE) if REMADE else None  # compiled
        if fits is not None:
            return fits
        inside = WINDOWS.get(window) or window_cells(window)
        wild = self.castle_wild
        f: Any  # compiled, kept as they are (not remade as tuples at each use as a key)
        n: Any
        holes = inside.difference(cells)
        for f in holes:
            around = SIDES.get(f) or sides(f)
            if holes.isdisjoint(around):  # no room for the other half
                continue
            for n in around:
                sq = cells.get(n)
                if sq is not None and ((sq is CASTLE and wild) or sq.terrain == t1 or sq.terrain == t2):
                    return True
        return False

    def placement_problems(self, domino: Domino | tuple[Half, Half], a: Cell, b: Cell) \
            -> list[tuple[str, dict[str, Any]]]:
        """Every reason placing ``domino`` (or two squares) with its first half on ``a`` and its
        second on ``b`` is illegal, as (checker code, details), in a stable order: the cells are not
        next to each other (``kd-cells-apart``), a cell is taken (``kd-overlap``, once per cell), the
        kingdom would pass its size (``kd-too-big``, with ``w`` and ``h``), no edge matches
        (``kd-no-connection``). Empty when the placement is legal."""
        from kbgrules.core.args import cell

        d = as_domino(domino)
        cell(a, "a", named=False)
        cell(b, "b", named=False)
        out: list[tuple[str, dict[str, Any]]] = []
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            out.append(("kd-cells-apart", {}))
        out += [("kd-overlap", {"cell": c}) for c in (a, b) if c in self.cells]
        w, h = self._extent(a, b)
        if w > self.size or h > self.size:
            out.append(("kd-too-big", {"w": w, "h": h}))
        free = {c for c in (a, b) if c not in self.cells}
        edges = sum(self._matches(sq.terrain, c) for sq, c in ((d.first, a), (d.second, b)) if c in free)
        if edges < max(1, self.min_edges):
            out.append(("kd-no-connection", {}))
        return out

    def properties(self) -> list[Property]:
        """The properties, largest first (ties: more crowns first, then terrain name)."""
        return _properties(self._found())

    def _found(self) -> list[Found]:
        found = property_groups(self.cells, CASTLE)
        return found if found is not None else search_groups(self.cells, CASTLE)

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

    def rows(self, letters: Mapping[str, str] | None = None) -> list[list[str]]:
        """The bounding box as rows of cell codes, top row first: ``W1``, ``C``, ``.``; the letters
        are ``letters`` (terrain id -> letter), else the kingdom's own (see :meth:`for_rules`)."""
        if letters is None:
            letters = self.letters if self.letters is not None else _initials(self)
        return self._rows(letters, {})

    def _rows(self, letters: Mapping[str, str], codes: dict[str, dict[int, str]]) -> list[list[str]]:
        """:meth:`rows`, the codes met kept in ``codes`` (for the next calls with the same ``letters``)."""
        return grid_codes(self.cells, (self.minx, self.maxx, self.miny, self.maxy), letters, codes, CASTLE)

    def grid_text(self, letters: Mapping[str, str] | None = None) -> str:
        """The kingdom in the grid format of ``kbg score`` and of the logs' ``NAME kingdom``."""
        return "\n".join(" ".join(f"{c:<2}" for c in row).rstrip() for row in self.rows(letters))

    def __str__(self) -> str:
        """The grid with the log's column letters and row numbers around it, as ``kbg check`` prints it."""
        rows = self.rows()
        off = board_offset(self.size)
        head = "     " + "  ".join(chr(ord("a") + x + off) for x in range(self.minx, self.maxx + 1))
        lines = [f"{y + off + 1:>3}  " + " ".join(f"{c:<2}" for c in row)
                 for y, row in zip(range(self.maxy, self.miny - 1, -1), rows, strict=True)]
        return "\n".join(line.rstrip() for line in (head, *lines))

    def __repr__(self) -> str:
        return f"<Kingdom {self.width}x{self.height}, {len(self.cells) - 1} squares, {self.discards} discards>"


def _initials(k: Kingdom) -> dict[str, str]:
    return {sq.terrain: sq.terrain[:1].upper() for sq in k.cells.values()}


def legal_placements(kingdom: Kingdom, domino: Domino | tuple[Half, Half]) -> list[tuple[Cell, Cell]]:
    """Every legal (first-half cell, second-half cell) for ``domino`` in ``kingdom``; empty means discard."""
    return kingdom.legal_placements(domino)


def as_domino(domino: Domino | tuple[Half, Half]) -> Domino:
    """A domino of the ruleset as it is; two squares as an unnumbered domino (number 0)."""
    if isinstance(domino, Domino):
        return domino
    if not (isinstance(domino, tuple) and len(domino) == 2 and all(isinstance(h, Half) for h in domino)):
        raise TypeError(f"domino must be a Domino or two squares (Half), not {type(domino).__name__}")
    first, second = domino
    return Domino(0, first, second)


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True, init=False)
class Score:
    """A kingdom's score: properties, bonuses and the tie-break figures."""

    total: int
    base: int
    properties: tuple[Property, ...]
    bonuses: Mapping[str, int]
    largest_property: int
    crowns: int

    def __init__(self, total: int, base: int, properties: tuple[Property, ...], bonuses: Mapping[str, int],
                 largest_property: int, crowns: int) -> None:  # written out, as Property's
        for name, value in zip(_SCORE_FIELDS, (total, base, properties, bonuses, largest_property, crowns),
                               strict=True):
            object.__setattr__(self, name, value)

    def __reduce__(self) -> tuple[Any, ...]:  # the bonuses go as a dict, read-only again once back
        return _score, (self.total, self.base, self.properties, dict(self.bonuses), self.largest_property, self.crowns)


def _score(total: int, base: int, properties: tuple[Property, ...], bonuses: dict[str, int], largest: int,
           crowns: int) -> Score:
    return Score(total, base, properties, MappingProxyType(bonuses), largest, crowns)


_SCORE_FIELDS: Final = ("total", "base", "properties", "bonuses", "largest_property", "crowns")


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
    found = kingdom._found()
    props = tuple(_properties(found))
    base, crowns = -sum(map(_POINTS, found)), -sum(map(_CROWNS, found))
    largest = -min(map(_SQUARES, found), default=0)
    known = rs.derived.get("bonuses")  # the active bonuses: none without a variant
    if known is None or known[0] is not rs.bonuses:
        known = rs.derived["bonuses"] = (rs.bonuses, tuple(b for b in rs.bonuses.values() if b.active))
    bonuses = {b.id: b.points for b in known[1] if bonus_applies(rs, b.id, kingdom, discards)} if known[1] else {}
    total = base + sum(bonuses.values()) if bonuses else base
    shell = _SCORE_SHELL
    if shell is None:
        return Score(total=total, base=base, properties=props, bonuses=MappingProxyType(bonuses),
                     largest_property=largest, crowns=crowns)
    out: Any = object.__new__(shell)  # Score(...), at a quarter of the cost (see slot_shell)
    out.total = total
    out.base = base
    out.properties = props
    out.bonuses = MappingProxyType(bonuses)
    out.largest_property = largest
    out.crowns = crowns
    out.__class__ = Score
    made: Score = out
    return made


_SCORE_SHELL: Final = slot_shell(Score)
_POINTS, _SQUARES, _CROWNS = itemgetter(0), itemgetter(1), itemgetter(2)  # of what property_groups finds


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
    return [1 + sum(map(k.__lt__, keys)) for k in keys]  # how many keys are greater


def letters(rs: KingdominoRuleset) -> dict[str, str]:
    """Terrain id -> grid letter."""
    return {t.id: t.letter for t in rs.terrains}
