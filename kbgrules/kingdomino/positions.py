"""Kingdomino positions written as grids, for ``kbg score`` and for checkpoints in game logs.

One row per line, cells separated by spaces. A cell is a terrain letter with an optional crown
count (``W`` wheat field, ``F`` forest, ``L`` lake, ``G`` grassland, ``S`` swamp, ``M`` mine;
``F2`` = forest with 2 crowns), ``C`` the castle, ``.`` an empty cell; ``W0``, ``CC`` and ``..``
are accepted too. Rows may be indented; ``#`` starts a comment.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from kbgrules.core.logfile import MAX_DIGITS, lines
from kbgrules.core.words import counted
from kbgrules.errors import Diagnostic, KbgError
from kbgrules.kingdomino.kingdom import CASTLE, Cell, Kingdom
from kbgrules.kingdomino.model import Half, KingdominoRuleset

MAX_GRID_BYTES = 64 * 1024
TILING_BUDGET = 200_000


@dataclass(frozen=True, slots=True)
class GridCell:
    text: str
    line: int
    col: int


class GridError(KbgError):
    """A grid that cannot be read at all; ``diagnostics`` says where."""

    code = "grid"

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        super().__init__(str(self.diagnostics[0]) if self.diagnostics else "unreadable grid", code="grid")

    def lines(self) -> list[str]:
        return [str(d) for d in self.diagnostics]


def split_rows(text: str, first_line: int = 1) -> list[list[GridCell]]:
    """Rows of cell tokens with their positions; comments and blank lines dropped."""
    rows = []
    for i, raw in enumerate(lines(text)):
        body = raw.split("#", 1)[0]
        if not body.strip():
            continue
        row = []
        col = 0
        for part in body.split():
            col = body.index(part, col)
            row.append(GridCell(part, first_line + i, col + 1))
            col += len(part)
        rows.append(row)
    return rows


def _cell_value(token: str, letters: dict[str, str], max_crowns: int) -> Half | str | None:
    """A square, CASTLE, None for empty; a string is an error message."""
    t = token.strip()
    if t in (".", ".."):
        return None
    if t.upper() in ("C", "CC"):
        return CASTLE
    letter = t[0].upper()
    if letter not in letters:
        return f"{token!r} is not a cell: use a terrain letter ({' '.join(sorted(letters))}), C or ."
    rest = t[1:]
    if rest and not (rest.isascii() and rest.isdigit()):
        return f"{token!r} is not a cell: a terrain letter may be followed only by a crown count"
    if len(rest) > MAX_DIGITS:
        return f"{token[:20]!r}...: a crown count has at most {MAX_DIGITS} digits"
    crowns = int(rest) if rest else 0
    if crowns > max_crowns:
        return f"{token!r}: a square has at most {max_crowns} crowns"
    return Half(letters[letter], crowns)


def grid_to_kingdom(
    rows: Sequence[Sequence[str | GridCell]],
    rs: KingdominoRuleset,
    size: int | None = None,
    file: str = "<grid>",
) -> tuple[Kingdom, list[Diagnostic]]:
    """Build a kingdom from grid rows; returns it with warnings about things no real game produces.

    Raises GridError listing every unreadable cell.
    """
    by_letter = {t.letter: t.id for t in rs.terrains}
    errors: list[Diagnostic] = []
    values: dict[tuple[int, int], Half] = {}
    castles: list[tuple[int, int]] = []
    first_mark: GridCell | None = None
    for r, row in enumerate(rows):
        for c, item in enumerate(row):
            cell = item if isinstance(item, GridCell) else GridCell(str(item), r + 1, c + 1)
            first_mark = first_mark or cell
            v = _cell_value(cell.text, by_letter, rs.max_crowns_per_square)
            if isinstance(v, str):
                errors.append(Diagnostic(file, cell.line, cell.col, "grid-cell", v))
            elif v is CASTLE:
                castles.append((r, c))
                values[(r, c)] = v
            elif v is not None:
                values[(r, c)] = v
    if errors:
        raise GridError(errors)
    line = first_mark.line if first_mark else 1
    warnings: list[Diagnostic] = []

    def warn(code: str, message: str) -> None:
        warnings.append(Diagnostic(file, line, 1, code, message, "warning"))

    size = size or rs.kingdom_size
    if not castles:
        warn("grid-no-castle", "the grid has no castle (C)")
        origin = min(values) if values else (0, 0)
    else:
        origin = castles[0]
        if len(castles) > 1:
            warn("grid-castles", f"the grid has {len(castles)} castles; a kingdom has one")
    kingdom = Kingdom(size, castle_wild=rs.castle_wild, min_edges=rs.min_matching_edges,
                      diagonal=rs.diagonal_connects, letters={t.id: t.letter for t in rs.terrains})
    kingdom.cells = {}
    for (r, c), v in values.items():
        kingdom.cells[(c - origin[1], origin[0] - r)] = v
    xs = [x for x, _ in kingdom.cells] or [0]
    ys = [y for _, y in kingdom.cells] or [0]
    kingdom.minx, kingdom.maxx, kingdom.miny, kingdom.maxy = min(xs), max(xs), min(ys), max(ys)
    if kingdom.width > size or kingdom.height > size:
        warn("grid-too-big", f"the kingdom spans {kingdom.width}x{kingdom.height}; the limit is {size}x{size}")
    warnings.extend(inventory_warnings(kingdom, rs, file, line))
    return kingdom, warnings


def inventory_warnings(kingdom: Kingdom, rs: KingdominoRuleset, file: str, line: int) -> list[Diagnostic]:
    """Warnings when the squares cannot come from the 48 real dominoes."""
    out: list[Diagnostic] = []
    squares = [sq for sq in kingdom.cells.values() if sq is not CASTLE]
    have_sq = Counter(sq.terrain for sq in squares)
    have_cr: Counter[str] = Counter()
    for sq in squares:
        have_cr[sq.terrain] += sq.crowns
    box_sq: Counter[str] = Counter()
    box_cr: Counter[str] = Counter()
    kinds: set[tuple[str, int]] = set()
    for d in rs.dominoes:
        for h in d.halves:
            box_sq[h.terrain] += 1
            box_cr[h.terrain] += h.crowns
            kinds.add((h.terrain, h.crowns))
    names = {t.id: t.name for t in rs.terrains}
    for t in names:
        if have_sq[t] > box_sq[t]:
            out.append(Diagnostic(file, line, 1, "grid-inventory",
                                  f"{counted(have_sq[t], names[t] + ' square')}; the dominoes hold only "
                                  f"{box_sq[t]}", "warning"))
        if have_cr[t] > box_cr[t]:
            out.append(Diagnostic(file, line, 1, "grid-inventory",
                                  f"{counted(have_cr[t], 'crown')} on {names[t]}; the dominoes hold only "
                                  f"{box_cr[t]}", "warning"))
    for sq in sorted(set(squares), key=lambda h: (h.terrain, h.crowns)):
        if (sq.terrain, sq.crowns) not in kinds:
            out.append(Diagnostic(file, line, 1, "grid-inventory",
                                  f"no domino has a {names[sq.terrain]} square with "
                                  f"{counted(sq.crowns, 'crown')}", "warning"))
    if not out:
        verdict = tiling(kingdom, rs)
        if verdict is False:
            out.append(Diagnostic(file, line, 1, "grid-tiling",
                                  "the squares cannot be cut into distinct real dominoes", "warning"))
        elif verdict is None:
            out.append(Diagnostic(file, line, 1, "grid-tiling",
                                  "could not decide whether the squares can be cut into real dominoes", "warning"))
    return out


def tiling(kingdom: Kingdom, rs: KingdominoRuleset) -> bool | None:
    """Whether the squares split into edge-adjacent pairs that are distinct real dominoes.

    None when the search gives up (budget exhausted).
    """
    cells = {c: sq for c, sq in kingdom.cells.items() if sq is not CASTLE}
    if len(cells) % 2:
        return False
    stock: Counter[tuple[tuple[str, int], tuple[str, int]]] = Counter()
    for d in rs.dominoes:
        a, b = (d.first.terrain, d.first.crowns), (d.second.terrain, d.second.crowns)
        stock[(a, b) if a <= b else (b, a)] += 1
    order = sorted(cells, key=lambda c: (-c[1], c[0]))
    used: set[Cell] = set()
    steps = 0

    def key(x: Cell, y: Cell) -> tuple[tuple[str, int], tuple[str, int]]:
        a, b = (cells[x].terrain, cells[x].crowns), (cells[y].terrain, cells[y].crowns)
        return (a, b) if a <= b else (b, a)

    def solve(i: int) -> bool | None:
        nonlocal steps
        while i < len(order) and order[i] in used:
            i += 1
        if i == len(order):
            return True
        steps += 1
        if steps > TILING_BUDGET:
            return None
        c = order[i]
        undecided = False
        for n in ((c[0] + 1, c[1]), (c[0], c[1] - 1)):  # partners not yet visited in reading order
            if n in cells and n not in used:
                k = key(c, n)
                if stock[k] <= 0:
                    continue
                stock[k] -= 1
                used.update((c, n))
                res = solve(i + 1)
                used.difference_update((c, n))
                stock[k] += 1
                if res:
                    return True
                undecided = undecided or res is None
        return None if undecided else False

    return solve(0)


def read_grid(file: str, text: str, rs: KingdominoRuleset, first_line: int = 1,
              size: int | None = None) -> tuple[Kingdom, list[Diagnostic]]:
    """Read a grid from text (see the module docstring); GridError if unreadable."""
    from kbgrules.core import args

    args.text(file, "file")
    args.text(text, "text")
    args.of_type(rs, KingdominoRuleset, "rs", "a Kingdomino ruleset (kbgrules.load('kingdomino'))")
    if size is not None:
        args.count(size, "size")
    if len(text.encode("utf-8")) > MAX_GRID_BYTES:
        raise GridError([Diagnostic(file, 1, 1, "grid-too-large", f"a grid file is at most {MAX_GRID_BYTES} bytes")])
    rows = split_rows(text, first_line)
    if not rows:
        raise GridError([Diagnostic(file, first_line, 1, "grid-empty", "no grid rows found")])
    return grid_to_kingdom(rows, rs, size, file)


def same_kingdom(a: Kingdom, b: Kingdom) -> bool:
    """Equal squares at equal offsets from the castle."""
    return a.cells == b.cells
