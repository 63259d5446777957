"""A kingdom's properties found on small integer codes of its cells (a short path of
:meth:`~kbgrules.kingdomino.kingdom.Kingdom.properties`).

The cells within 7 squares of the castle (every cell of a legal kingdom, Mighty Duel's 7x7 too)
are numbered ``(x + 7) * 16 + y + 7``: side neighbours are the codes 1 and 16 apart, codes sort as
the cells do, and every code and neighbour is a small int (no int object is made).
"""

from __future__ import annotations

from typing import Any, Final

from kbgrules.kingdomino.board import Cell, same_cell
from kbgrules.kingdomino.model import Half

REACH: Final = 7
CODES: Final[dict[Cell, int]] = {same_cell(x, y): (x + REACH) * 16 + y + REACH
                                 for x in range(-REACH, REACH + 1) for y in range(-REACH, REACH + 1)}
CELLS: Final[dict[int, Cell]] = {code: cell for cell, code in CODES.items()}

# (-points, -squares, -crowns, terrain, order found, cells): sorted, largest property first
Found = tuple[int, int, int, str, int, tuple[Cell, ...]]
SIDES: Final[dict[Cell, tuple[Cell, ...]]] = {}  # the four side neighbours of the cells met so far


def sides(cell: Any) -> tuple[Cell, ...]:
    """The side neighbours of ``cell`` (Any: compiled, the cell itself is kept as the key, not remade)."""
    x, y = cell
    around = (same_cell(x + 1, y), same_cell(x, y + 1), same_cell(x - 1, y), same_cell(x, y - 1))
    if abs(x) < 16 and abs(y) < 16:  # the cells of real kingdoms: keep the cache small
        SIDES[cell] = around
    return around


def search_groups(cells: dict[Cell, Half], castle: Half) -> list[Found]:
    """:func:`property_groups` for cells anywhere: a search from each square."""
    left = {c: sq for c, sq in cells.items() if sq is not castle}  # squares not yet in a property
    found: list[Found] = []
    for start, sq in cells.items():
        if start not in left:
            continue
        del left[start]
        terrain = sq.terrain
        group = [start]
        crowns = sq.crowns
        for c in group:  # grows while it is walked: a breadth-first search
            for n in SIDES.get(c) or sides(c):
                other = left.get(n)
                if other is not None and other.terrain == terrain:
                    del left[n]
                    group.append(n)
                    crowns += other.crowns
        squares = len(group)
        group.sort()
        # largest first (points, squares, crowns, terrain), ties in the order found: tuples sort without a key
        found.append((-squares * crowns, -squares, -crowns, terrain, len(found), tuple(group)))
    found.sort()
    return found


def property_groups(cells: dict[Cell, Half], castle: Half) -> list[Found] | None:
    """The properties of ``cells`` (``castle``, by identity, is none), sorted as ``Kingdom.properties``
    gives them; None when a cell lies beyond the coded ones (only a kingdom changed by hand)."""
    codes = CODES
    by_terrain: dict[str, dict[int, int]] = {}  # terrain -> code -> crowns, the last cells first
    c: Any  # compiled, kept as it is (a Cell would be remade as a tuple to look it up)
    for c, sq in reversed(cells.items()):
        if sq is castle:
            continue
        try:
            i = codes[c]
        except KeyError:
            return None
        terrain = sq.terrain
        same = by_terrain.get(terrain)
        if same is None:
            same = by_terrain[terrain] = {}
        same[i] = sq.crowns
    found: list[Found] = []
    cell_of = CELLS.__getitem__
    for terrain, same in by_terrain.items():
        while same:
            start, crowns = same.popitem()  # the first square of this terrain in the kingdom's order left
            if not (start + 1 in same or start - 1 in same or start + 16 in same or start - 16 in same):  # alone
                found.append((-crowns, -1, -crowns, terrain, len(found), (cell_of(start),)))
                continue
            group = [start]
            for i in group:  # grows while it is walked: a breadth-first search
                if i + 1 in same:
                    crowns += same.pop(i + 1)
                    group.append(i + 1)
                if i - 1 in same:
                    crowns += same.pop(i - 1)
                    group.append(i - 1)
                if i + 16 in same:
                    crowns += same.pop(i + 16)
                    group.append(i + 16)
                if i - 16 in same:
                    crowns += same.pop(i - 16)
                    group.append(i - 16)
            squares = len(group)
            group.sort()
            # ties (the same terrain too) stay in the order of their first squares, as they are found
            found.append((-squares * crowns, -squares, -crowns, terrain, len(found), tuple(map(cell_of, group))))
    found.sort()
    return found
