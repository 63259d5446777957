"""A kingdom's properties found on small integer codes of its cells (a short path of
:meth:`~kbgrules.kingdomino.kingdom.Kingdom.properties`).

The cells within 7 squares of the castle (every cell of a legal kingdom, Mighty Duel's 7x7 too)
are numbered ``(x + 8) * 16 + y + 8``: side neighbours are the codes 1 and 16 apart (never another
cell past an edge: row 0 and the columns either side stay empty), codes sort as the cells do, and
every code and neighbour is a small int (no int object is made). Compiled, ints multiply natively only
when both are positive (else through int objects): hence ``(x + 8) * 16`` and ``-(squares * crowns)``.
"""

from __future__ import annotations

from typing import Any, Final

from kbgrules.kingdomino.board import Cell, same_cell
from kbgrules.kingdomino.model import Half

REACH: Final = 7
SPAN: Final = (2 * REACH + 3) * 16  # the codes, with an empty column on either side and an empty row below


def code(x: int, y: int) -> int:
    """The code of the cell ``(x, y)`` within REACH of the castle."""
    return (x + REACH + 1) * 16 + y + REACH + 1


# the cell of each code (Any: compiled, kept as the shared tuples, not remade)
CELL_AT: Final[list[Any]] = [None] * SPAN
for _cell in [same_cell(x, y) for x in range(-REACH, REACH + 1) for y in range(-REACH, REACH + 1)]:
    CELL_AT[code(*_cell)] = _cell


def shared(x: int, y: int) -> Any:
    """:func:`~kbgrules.kingdomino.board.same_cell`, looked up by code near the castle (no tuple made)."""
    if -8 < x < 8 and -8 < y < 8:  # within REACH
        return CELL_AT[(x + 8) * 16 + y + 8]
    return same_cell(x, y)


# (-points, -squares, -crowns, terrain, order found, cells): sorted, largest property first
Found = tuple[int, int, int, str, int, tuple[Cell, ...]]
# the four side neighbours of the cells met so far (Any: compiled, each kept as it is, not remade)
SIDES: Final[dict[Cell, tuple[Any, ...]]] = {}


def sides(cell: Any) -> tuple[Any, ...]:
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
    # lists by code, not dicts by cell: no tuple hashed, and compiled, only native ints (no int boxed)
    kinds = [0] * SPAN  # at each code: its terrain's number + 1, 0 where empty or already in a property
    crowns_at = [0] * SPAN
    numbers: dict[str, int] = {}
    terrains: list[str] = []
    order: list[int] = []  # the codes in the kingdom's order
    for (x, y), sq in cells.items():
        if sq is castle:
            continue
        if not (-8 < x < 8 and -8 < y < 8):  # within REACH
            return None
        i = (x + 8) * 16 + y + 8  # code(x, y), inlined
        terrain = sq.terrain
        k = numbers.get(terrain, 0)
        if not k:
            terrains.append(terrain)
            k = numbers[terrain] = len(terrains)
        kinds[i] = k
        crowns_at[i] = sq.crowns
        order.append(i)
    found: list[Found] = []
    cell_at = CELL_AT
    for start in order:  # each property found from its first square in the kingdom's order (ties keep it)
        k = kinds[start]
        if not k:
            continue
        kinds[start] = 0
        crowns = crowns_at[start]
        terrain = terrains[k - 1]
        if kinds[start + 1] != k and kinds[start - 1] != k and kinds[start + 16] != k and kinds[start - 16] != k:
            found.append((-crowns, -1, -crowns, terrain, len(found), (cell_at[start],)))  # alone
            continue
        group = [start]
        for i in group:  # grows while it is walked: a breadth-first search
            if kinds[i + 1] == k:
                kinds[i + 1] = 0
                crowns += crowns_at[i + 1]
                group.append(i + 1)
            if kinds[i - 1] == k:
                kinds[i - 1] = 0
                crowns += crowns_at[i - 1]
                group.append(i - 1)
            if kinds[i + 16] == k:
                kinds[i + 16] = 0
                crowns += crowns_at[i + 16]
                group.append(i + 16)
            if kinds[i - 16] == k:
                kinds[i - 16] = 0
                crowns += crowns_at[i - 16]
                group.append(i - 16)
        squares = len(group)
        group.sort()  # codes sort as their cells do
        found.append((-(squares * crowns), -squares, -crowns, terrain, len(found), tuple([cell_at[i] for i in group])))
    found.sort()
    return found


def _fits(sq: Half | None, t1: str, t2: str, wild: bool, castle: Half) -> bool:
    if sq is None:
        return False
    terrain = sq.terrain  # read once (compiled, a generic attribute read)
    return (sq is castle and wild) or terrain in (t1, t2)


def holes_fit(cells: dict[Cell, Half], window: tuple[int, int, int, int], t1: str, t2: str, wild: bool,
              castle: Half) -> bool | None:
    """``Kingdom._fits_in_holes`` on cell codes, for the compiled build (no tuple hashed; interpreted, the
    general way costs less); None when a cell or the window lies beyond REACH."""
    x0, x1, y0, y1 = window
    if not (x0 > -8 and x1 < 8 and y0 > -8 and y1 < 8):
        return None
    board: list[Half | None] = [None] * SPAN  # the squares by code
    for (x, y), sq in cells.items():
        if not (-8 < x < 8 and -8 < y < 8):
            return None
        board[(x + 8) * 16 + y + 8] = sq
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            i = (x + 8) * 16 + y + 8
            if board[i] is not None:
                continue
            if not ((x < x1 and board[i + 16] is None) or (x > x0 and board[i - 16] is None)
                    or (y < y1 and board[i + 1] is None) or (y > y0 and board[i - 1] is None)):
                continue  # no room in the window for the other half
            if (_fits(board[i + 1], t1, t2, wild, castle) or _fits(board[i - 1], t1, t2, wild, castle)
                    or _fits(board[i + 16], t1, t2, wild, castle) or _fits(board[i - 16], t1, t2, wild, castle)):
                return True
    return False
