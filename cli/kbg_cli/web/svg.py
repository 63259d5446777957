"""Pictures for the HTML pages, written as inline SVG from the data the terminal pictures use.

Every picture is an ``<svg role="img">`` with a ``<title>`` and a ``<desc>`` that say in words what
it shows (the pages also give the numbers as tables), scales to its container through its
``viewBox``, and uses colours that stay apart for colour-blind readers (Okabe and Ito's palette).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from html import escape

from markupsafe import Markup

from kbgrules.core.views import Chart, Gauge, Grid, Strip

from ..render import grid_axes

SERIES = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999")
FONT = 12  # the size of the pictures' words (style.css: svg .tick, .axis, .label)
_NARROW, _WIDE = frozenset(" .,:;'!|()[]fijlrtI"), frozenset("mwMW@%")


def text_width(text: str, size: float = FONT) -> float:
    """How wide ``text`` is at most in the pages' sans-serif fonts: each character's advance taken
    at the top of its kind in DejaVu Sans (wider than most), so a margin made from it holds the text."""
    em = 0.0
    for ch in text:
        if ch in _NARROW:
            em += 0.42
        elif ch in _WIDE:
            em += 1.0
        elif ch.isupper():
            em += 0.79
        elif ch.isascii():
            em += 0.64
        else:
            em += 1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.8
    return em * size


def _svg(width: float, height: float, title: str, desc: str, body: list[str], cls: str) -> Markup:
    return Markup(
        f'<svg class="{cls}" viewBox="0 0 {width:g} {height:g}" role="img" xmlns="http://www.w3.org/2000/svg" '
        f'preserveAspectRatio="xMinYMin meet"><title>{escape(title)}</title><desc>{escape(desc)}</desc>'
        + "".join(body) + "</svg>")


def _crown(x: float, y: float, size: float) -> str:
    """A small crown whose top-left corner is at (x, y)."""
    s = size
    points = [(0, s), (0, s * .3), (s * .25, s * .6), (s * .5, 0), (s * .75, s * .6), (s, s * .3), (s, s)]
    pts = " ".join(f"{x + a:.1f},{y + b:.1f}" for a, b in points)
    return f'<polygon points="{pts}" class="crown"/>'


CELL = 40  # a grid's square, in its picture's units


def grid_width(g: Grid, cells: int = 0) -> float:
    """The width of ``g``'s picture in its units, or of a picture of ``cells`` squares across with
    the same margins."""
    across = cells or max((len(r.split()) for r in g.rows), default=0)
    return _pad(g) + across * CELL + 2


def _pad(g: Grid) -> int:
    return 22 if g.corner and g.rows else 2  # room for the column letters and row numbers


def grid(g: Grid, widest: float | None = None) -> Markup:
    """A board of cells (``W1 C . F``): each letter's colour from the rules data, its marks (crowns),
    landmarks drawn as a tower, the log's column letters and row numbers, and a thick line around
    each area (cells of one letter that touch). ``widest``: the width (:func:`grid_width`) of the
    widest picture it is shown with, which fills its place; this one is drawn at the same scale."""
    palette, names = dict(g.palette), dict(g.names)
    grid = [r.split() for r in g.rows]
    h, w = len(grid), max((len(r) for r in grid), default=0)
    cols, nums = grid_axes(g.corner, list(g.rows))
    cell, pad = CELL, _pad(g)
    body: list[str] = []
    for j, letter in enumerate(cols):
        body.append(f'<text x="{pad + j * cell + cell / 2}" y="15" class="axis">{letter}</text>')
    for i, n in enumerate(nums):
        body.append(f'<text x="{pad / 2}" y="{pad + i * cell + cell / 2 + 4}" class="axis">{n}</text>')

    def letter_at(i: int, j: int) -> str:
        return grid[i][j][0] if 0 <= i < h and 0 <= j < len(grid[i]) and grid[i][j] != "." else ""

    counts: dict[str, int] = {}
    for i, row in enumerate(grid):
        for j, code in enumerate(row):
            x, y = pad + j * cell, pad + i * cell
            if code == ".":
                body.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" class="empty"/>')
                continue
            letter, crowns = code[0], int(code[1:] or 0)
            counts[letter] = counts.get(letter, 0) + 1
            if letter in g.landmarks:
                body.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" class="castle"/>'
                            f'<path d="M{x + 10} {y + 32}v-16h4v4h4v-4h4v4h4v-4h4v16z" class="tower"/>')
                continue
            fill = escape(palette.get(letter, "#ccc"))
            label = names.get(letter, letter) + (f", {crowns} crown{'s' if crowns > 1 else ''}" if crowns else "")
            body.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" class="square">'
                        f'<title>{escape(label)}</title></rect>')
            for k in range(crowns):
                body.append(_crown(x + 4 + k * 11, y + 4, 10))
    for i in range(h):  # area borders: where a cell meets another letter, an empty cell or the edge
        for j in range(len(grid[i])):
            t = letter_at(i, j)
            if not t:
                continue
            x, y = pad + j * cell, pad + i * cell
            for di, dj, x1, y1, x2, y2 in ((-1, 0, x, y, x + cell, y), (1, 0, x, y + cell, x + cell, y + cell),
                                           (0, -1, x, y, x, y + cell), (0, 1, x + cell, y, x + cell, y + cell)):
                if letter_at(i + di, j + dj) != t:
                    body.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="edge"/>')
    where = f", columns {cols[0]} to {cols[-1]}, rows {nums[0]} to {nums[-1]}" if cols else ""
    made = ", ".join(f"{n} {names.get(letter, letter)}" for letter, n in sorted(counts.items())
                     if letter not in g.landmarks)
    marks = ", ".join(names.get(x, x) for x in g.landmarks)
    what = ", ".join(filter(None, [marks, made])) or "nothing yet"
    width = grid_width(g)
    picture = _svg(width, pad + h * cell + 2, g.title, f"{w} by {h} squares{where}: {what}.", body, "grid")
    if not widest:
        return picture
    share = min(100.0, 100 * width / widest)
    return Markup(str(picture).replace("<svg ", f'<svg style="width: {share:.3f}%" ', 1))


def line_chart(c: Chart) -> Markup:
    """Lines of values per turn or round, one per player (a ``None`` ends the line: out of the game)."""
    title, x_label, xs, series, y_label, y_max = c.title, c.x_label, c.xs, c.series, c.y_label, c.y_max
    values = [v for _, vs in series for v in vs if v is not None]
    top = max([y_max or 0, *values, 1])
    step = max(1, round(top / 5))
    ys = range(0, top + 1, step)
    left = max(24, round(max(text_width(str(v)) for v in ys) + 10))  # the values written left of the axis
    right = max(8, round(text_width(str(xs[-1]) if xs else "") / 2 + 2))  # the last turn, centred on the edge
    top_pad, bottom = 10, 32
    width, height = 420, 210
    plot_w, plot_h = width - left - right, height - top_pad - bottom
    n = max(len(xs), 2)

    def px(k: int) -> float:
        return left + plot_w * k / (n - 1)

    def py(v: float) -> float:
        return top_pad + plot_h * (1 - v / top)

    body: list[str] = []
    for v in ys:
        body.append(f'<line x1="{left}" x2="{width - right}" y1="{py(v):.1f}" y2="{py(v):.1f}" class="grid"/>'
                    f'<text x="{left - 5}" y="{py(v) + 4:.1f}" class="tick" text-anchor="end">{v}</text>')
    for k in _written(xs, px):
        body.append(f'<text x="{px(k):.1f}" y="{height - bottom + 16}" class="tick" '
                    f'text-anchor="middle">{xs[k]}</text>')
    body.append(f'<text x="{left + plot_w / 2}" y="{height - 4}" class="label" text-anchor="middle">'
                f'{escape(x_label)}</text>')
    for s, (name, vs) in enumerate(series):
        colour = SERIES[s % len(SERIES)]
        points = [(px(k), py(v)) for k, v in enumerate(vs) if v is not None]
        if not points:
            continue
        dash = ' stroke-dasharray="6 3"' if s % 2 else ""
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        body.append(f'<polyline points="{path}" stroke="{colour}" class="series"{dash}>'
                    f'<title>{escape(name)}</title></polyline>')
        end_x, end_y = points[-1]
        body.append(f'<circle cx="{end_x:.1f}" cy="{end_y:.1f}" r="3.5" fill="{colour}"/>')
    last = "; ".join(f"{name}: {next((v for v in reversed(vs) if v is not None), '-')}" for name, vs in series)
    return _svg(width, height, title, f"{y_label} of each player by {x_label.lower()}; at the end {last}.",
                body, "chart")


def _written(xs: tuple[int, ...], px: Callable[[int], float]) -> list[int]:
    """Which of ``xs`` (at ``px(k)`` across) to write under a chart's axis: the first, the last, and
    between them the multiples of the smallest round step (1, 2, 5, 10, 20, 50...) whose words keep
    apart; any that would touch its neighbour is left out."""
    if not xs:
        return []
    room = max(text_width(str(x)) for x in xs) + 6
    gap = px(1) - px(0) if len(xs) > 1 else room
    step = 1
    while step * gap < room:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    kept: list[int] = []
    for k, x in enumerate(xs):
        if (k == 0 or x % step == 0) and (not kept or px(k) - px(kept[-1]) >= room):
            kept.append(k)
    last = len(xs) - 1
    while kept and kept[-1] != last and px(last) - px(kept[-1]) < room:
        kept.pop()
    return [*kept, last] if not kept or kept[-1] != last else kept


def strip_layout(s: Strip) -> tuple[float, float]:
    """Where the squares of :func:`strip` begin (right of the longest place's name), and its width
    (in pixels: a strip is drawn at its own size)."""
    left = round(max((text_width(label) for label, _ in s.places), default=0) + 12)
    return left, left + max((len(h) for _, h in s.places), default=1) * 14 + 4


def strip(s: Strip) -> Markup:
    """Who held each place at the end of each step: one coloured square per step and place."""
    size = 14
    left, width = strip_layout(s)
    colour = {p: SERIES[i % len(SERIES)] for i, p in enumerate(s.players)}
    body: list[str] = []
    for r, (label, holders) in enumerate(s.places):
        y = 4 + r * (size + 6)
        body.append(f'<text x="{left - 6}" y="{y + size - 3}" class="tick" text-anchor="end">{escape(label)}</text>')
        for t, who in enumerate(holders):
            fill = colour.get(who, "#ffffff") if who else "#ffffff"
            body.append(f'<rect x="{left + t * size}" y="{y}" width="{size - 1}" height="{size}" fill="{fill}" '
                        f'class="held"><title>{escape(s.x_label)} {s.xs[t]}: {escape(who or "empty")}</title></rect>')
    height = 4 + len(s.places) * (size + 6)
    spans = []
    first, holders = s.places[0] if s.places else ("", ())
    for p in s.players:
        n = sum(1 for h in holders if h == p)
        if n:
            spans.append(f"{p} {n} {s.x_label}{'s' if n != 1 else ''}")
    picture = _svg(width, height, s.title,
                   f"{first} at the end of each {s.x_label}: " + (", ".join(spans) or "nobody") + ".", body, "strip")
    return Markup(str(picture).replace("<svg ", f'<svg width="{width}" height="{height}" ', 1))  # own size: scrolls


def gauge(g: Gauge) -> Markup:
    """A gauge from 0 to ``top`` with its thresholds marked."""
    value, top, marks = g.value, g.top, g.marks
    width, height, left = 220, 26, 4
    unit = (width - 2 * left) / max(top, 1)
    body = [f'<rect x="{left}" y="6" width="{width - 2 * left}" height="12" class="track"/>',
            f'<rect x="{left}" y="6" width="{unit * min(value, top):.1f}" height="12" class="fill"/>']
    for m in marks:
        body.append(f'<line x1="{left + unit * m:.1f}" x2="{left + unit * m:.1f}" y1="2" y2="22" class="mark"/>')
    return _svg(width, height, g.label, f"{value} of {top}; thresholds at "
                + ", ".join(map(str, marks)) + ".", body, "gauge")
