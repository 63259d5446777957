"""Cells of the Kingdomino board by name: ``e5``-style names to offsets from the castle and back.

Cells are ``(x, y)`` offsets from the castle, x to the right and y up. In game logs they are
written chess-style on a board just big enough for any legal kingdom: 9x9 with the castle on
``e5`` (5x5 kingdoms), 13x13 with the castle on ``g7`` (7x7 kingdoms, the Mighty Duel).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

Cell = tuple[int, int]


def board_offset(size: int) -> int:
    """Distance from the castle to the board edge: any legal kingdom of ``size`` fits."""
    return size - 1


def _size(size: object) -> None:
    """A kingdom size the board's letters can name (a to z: at most 13)."""
    if type(size) is not int:
        raise TypeError(f"size must be an int, not {type(size).__name__}")
    if not 1 <= size <= 13:
        raise ValueError(f"size must be from 1 to 13 (the board's columns are named a to z), not {size}")


def cell_name(cell: Cell, size: int) -> str:
    """The usual name (``e5``) of a cell given as offsets from the castle."""
    _size(size)
    if not (type(cell) is tuple and len(cell) == 2 and all(type(v) is int for v in cell)):
        raise TypeError(f"cell must be a tuple of two ints (offsets from the castle), not {cell!r:.40}")
    off = board_offset(size)
    if not (0 <= cell[0] + off < 26 and 0 <= cell[1] + off < 99):  # the names parse_cell reads: a1 to z99
        raise ValueError(f"the cell {cell!r:.40} has no name (columns a to z, rows 1 to 99)")
    return f"{chr(ord('a') + cell[0] + off)}{cell[1] + off + 1}"


def parse_cell(text: str, size: int) -> Cell | None:
    """``e5``-style name to offsets from the castle; None if it is not a cell name (a letter, then a
    row number from 1 to 99). Names beyond the board are cells too (``j5``): a placement there is
    checked by the rules (too big), not refused as a misspelling."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    _size(size)
    off = board_offset(size)
    t = text.strip().lower()
    if not (2 <= len(t) <= 3) or not ("a" <= t[0] <= "z") or not (t[1:].isascii() and t[1:].isdigit()):
        return None
    row = int(t[1:]) - 1
    if row < 0:
        return None
    return (ord(t[0]) - ord("a") - off, row - off)


_BOARD_CELLS: Final[dict[int, dict[str, Any]]] = {}
SAME: Final[dict[Any, Any]] = {}  # one tuple per cell near the castle (see same_cell; Any: objects, compiled too)


def same_cell(x: int, y: int) -> Any:
    """The cell ``(x, y)``, as one shared tuple for the cells near the castle: the kingdoms' dicts
    then find their keys by identity, without comparing tuples. (Any: compiled, a Cell would be
    passed on as two ints, and made a new tuple again.)"""
    cell: Any = (x, y)
    if -16 <= x <= 16 and -16 <= y <= 16:
        return SAME.setdefault(cell, cell)
    return cell


ORIGIN: Final[Any] = same_cell(0, 0)  # the castle's cell (Any: kept as an object, compiled too)


def _passed(cell: Cell) -> object:
    return cell


# compiled (mypyc), a Cell passes from call to call as two ints and comes back a new tuple: Kingdom._check then
# takes the board's own tuples as keys (same_cell), which the kingdom's dicts find by identity
REMADE: Final = _passed(ORIGIN) is not ORIGIN


def board_cells(size: int) -> Mapping[str, Cell]:
    """Every cell of the board by its usual name (``e5``, lower case): a shortcut for :func:`parse_cell`."""
    return board_dict(size)


def board_dict(size: int) -> dict[str, Any]:
    """:func:`board_cells` as the dict it is, to read only (compiled, a dict's get is a native call; Any:
    the shared tuples kept as they are)."""
    cells = _BOARD_CELLS.get(size)
    if cells is None:
        off = board_offset(size)
        names = (cell_name((x, y), size) for x in range(-off, off + 1) for y in range(-off, off + 1))
        cells = _BOARD_CELLS[size] = {n: same_cell(*c) for n in names if (c := parse_cell(n, size))}  # read only
    return cells


def board_columns(size: int) -> str:
    width = 2 * board_offset(size) + 1
    return f"a-{chr(ord('a') + width - 1)}"
