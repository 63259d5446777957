"""A kingdom drawn as a grid: the cell codes of ``Kingdom.rows`` (``W1``, ``C``, ``.``) and the name of
the square at their top left; a square read from its code (``square``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kbgrules.core.logfile import MAX_DIGITS
from kbgrules.errors import KbgError
from kbgrules.kingdomino.board import Cell, board_cells, cell_name, same_cell
from kbgrules.kingdomino.model import Half, KingdominoRuleset

Box = tuple[int, int, int, int]  # minx, maxx, miny, maxy
_BOXES: Final[dict[Box, dict[Cell, int]]] = {}  # the boxes met so far: each cell's place in the rows, read flat


def _places(box: Box) -> dict[Cell, int]:
    minx, maxx, miny, maxy = box
    width = maxx - minx + 1
    places = {same_cell(x, y): (maxy - y) * width + x - minx
              for y in range(miny, maxy + 1) for x in range(minx, maxx + 1)}
    if len(places) <= 256 and len(_BOXES) < 4096:  # real kingdoms: a few hundred boxes of at most 49 cells
        _BOXES[box] = places
    return places


def grid_codes(cells: Mapping[Cell, Half], box: Box, letters: Mapping[str, str], codes: dict[str, dict[int, str]],
               castle: Half) -> list[list[str]]:
    """The rows of codes of the cells of ``box``, the top row first (``.`` where empty; the cells
    outside it left out); ``codes`` keeps the code of each terrain and crowns met, from ``letters``."""
    places = _BOXES.get(box) or _places(box)
    width, height = box[1] - box[0] + 1, box[3] - box[2] + 1
    out = ["."] * (width * height)
    c: Any  # compiled, kept as it is (a Cell would be remade as a tuple to look it up)
    for c, sq in cells.items():
        try:
            i = places[c]
        except KeyError:  # outside a box changed by hand
            continue
        if sq is castle:
            out[i] = "C"
        else:
            try:
                out[i] = codes[sq.terrain][sq.crowns]
            except KeyError:  # met for the first time
                crowns = sq.crowns
                code = f"{letters[sq.terrain]}{crowns}" if crowns else letters[sq.terrain]
                codes.setdefault(sq.terrain, {})[crowns] = out[i] = code
    if width <= 0:  # a box changed by hand
        return [[] for _ in range(height)]
    rows = []
    for r in range(0, width * height, width):
        rows.append(out[r:r + width])
    return rows


WINDOWS: Final[dict[Box, frozenset[Cell]]] = {}  # the cells of the windows (x0, x1, y0, y1) met so far


def window_cells(window: Box) -> frozenset[Cell]:
    x0, x1, y0, y1 = window
    cells = frozenset(same_cell(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))
    if len(WINDOWS) < 4096:  # real kingdoms meet a few hundred
        WINDOWS[window] = cells
    return cells


def corner_cell_name(corner: Cell, size: int) -> str:
    """:func:`~kbgrules.kingdomino.kingdom.corner_name`: the name of ``corner``, looked up."""
    names = _NAMES.get(size)
    if names is None:
        names = _NAMES[size] = {c: n for n, c in board_cells(size).items()}  # raises for a size with no board
    name = names.get(corner)
    return name if name is not None else cell_name(corner, size)


_NAMES: Final[dict[int, dict[Cell, str]]] = {}  # board_cells, the other way: names by cell


def square(rs: KingdominoRuleset, text: str) -> Half:
    """A square from its grid code: a terrain letter or name, then its crowns (``W1``, ``F``, ``lake2``)."""
    from kbgrules.core.args import of_type
    from kbgrules.core.args import text as is_text

    of_type(rs, KingdominoRuleset, "rs", "a Kingdomino ruleset (from kbgrules.load)")
    is_text(text, "text")
    t = text.strip()
    body = t.rstrip("0123456789")
    if len(t) - len(body) > MAX_DIGITS:
        raise KbgError(f"{t[:20]!r}...: a crown count has at most {MAX_DIGITS} digits", code="grid")
    crowns = int(t[len(body):] or 0)
    terrain = rs.terrain(body)
    if crowns > rs.max_crowns_per_square:
        raise KbgError(f"a square has at most {rs.max_crowns_per_square} crowns, not {crowns}", code="grid")
    return Half(terrain.id, crowns)
