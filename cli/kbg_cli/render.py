"""Output: rich on a terminal, plain aligned text when piped, JSON for tools.

The plain writer (tables, wrapping) is kept here, not rich's no-colour console: importing rich.console
costs 40-55 ms, which would double piped ``kbg setup`` and ``kbg explain`` start-up; widths are rich's.
"""

from __future__ import annotations

import os
import re
import sys
import textwrap

from kbgrules.errors import shown  # control characters from a log are written out, never sent to the terminal

TYPE_CHECKING = False
if TYPE_CHECKING:  # kbg explain imports this module: typing costs start-up time
    from collections.abc import Sequence
    from typing import Any, TextIO

    from kbgrules.core.reference import Page
    from kbgrules.core.views import Block, Grid



def plain_width() -> int:
    """The width plain (piped) output wraps at: ``COLUMNS`` when it holds a usable number, else 100."""
    v = os.environ.get("COLUMNS", "")
    return int(v) if v.isascii() and v.isdigit() and 40 <= int(v) <= 1000 else 100


WIDTH = plain_width()


def is_terminal(stream: TextIO | None = None) -> bool:
    stream = stream or sys.stdout
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False


def print_json(data: Any) -> None:
    import json  # on use: `kbg --version` and the help pages need no json

    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


class JsonStream:
    """A JSON object written while one of its lists is still being made: ``head`` is the whole object
    with that list (``key``) empty; ``item`` writes an element as it comes; ``close`` writes the keys
    after the list from the finished object. The text is ``json.dumps(whole, indent=indent)``'s, so a
    file of any number of games is written without holding them all."""

    def __init__(self, head: dict[str, Any], key: str, indent: int | None = 2) -> None:
        self.key, self.indent, self.count = key, indent, 0
        keys = list(head)
        before = {k: head[k] for k in keys[:keys.index(key)]}
        text = self._dumps(before)[:-1].rstrip()  # without its closing brace
        if before:
            text += ","
        sep = self._newline(1) if indent is not None or before else ""
        import json

        sys.stdout.write(text + sep + json.dumps(key) + ": [")

    def _dumps(self, data: Any) -> str:
        import json

        return json.dumps(data, indent=self.indent, ensure_ascii=False)

    def _newline(self, level: int) -> str:
        return "\n" + " " * (self.indent * level) if self.indent is not None else (" " if level else "")

    def item(self, data: Any) -> None:
        text = self._dumps(data)
        if self.indent is not None:
            text = text.replace("\n", self._newline(2))
        sys.stdout.write(("," if self.count else "") + (self._newline(2) if self.indent is not None
                                                         else " " if self.count else "") + text)
        self.count += 1

    def close(self, whole: dict[str, Any]) -> None:
        keys = list(whole)
        after = {k: whole[k] for k in keys[keys.index(self.key) + 1:]}
        end = self._newline(1) + "]" if self.count and self.indent is not None else "]"
        rest = self._dumps(after)
        if after:
            rest = "," + " " * (self.indent is None) + rest[1:]  # the keys after the list
        sys.stdout.write(end + (rest if after else self._newline(0) + "}") + "\n")
        sys.stdout.flush()


def error(line: str) -> None:
    diag(f"kbg: {shown(line)}")


_SEVERITY = {"error": "bold red", "warning": "bold yellow", "note": "cyan"}


def diag(line: str) -> None:
    """A diagnostic that already names its file and position: one line on stderr, its severity and
    code coloured when stderr is a terminal (rich honours NO_COLOR)."""
    if not is_terminal(sys.stderr):
        sys.stderr.write(line + "\n")
        return
    from rich.console import Console
    from rich.text import Text

    text = Text(line)
    m = re.search(r"(?:^|: )(error|warning|note)(?: ([\w.-]+))?:", line)
    if m:
        text.stylize(_SEVERITY[m.group(1)], m.start(1), m.end(2) if m.group(2) else m.end(1))
    Console(stderr=True, highlight=False, soft_wrap=True).print(text)


class Table:
    """A titled table rendered with rich on a terminal and as aligned text otherwise."""

    def __init__(self, title: str | None, columns: Sequence[str], *, numeric: Sequence[int] = ()) -> None:
        self.title = None if title is None else shown(title)
        self.columns = [shown(c) for c in columns]  # names from a log (a player's) or from rule data
        self.numeric = set(numeric)
        self.rows: list[list[str]] = []

    def add(self, *cells: object) -> None:
        self.rows.append(["" if c is None else shown(str(c)) for c in cells])

    def grid(self) -> tuple[list[str], list[list[str]]]:
        """The header and the rows, every row as long as the widest."""
        n = max([len(self.columns), *(len(r) for r in self.rows)])
        return self.columns + [""] * (n - len(self.columns)), [r + [""] * (n - len(r)) for r in self.rows]

    def measure(self) -> tuple[list[int], list[int]]:
        """Each column's longest word and widest line, its header included when it has one."""
        header, rows = self.grid()
        cells = [*([header] if any(header) else []), *rows]
        sizes = [[_measure(r[i]) for r in cells] for i in range(len(header))]
        return [max((x[0] for x in c), default=0) for c in sizes], [max((x[1] for x in c), default=0) for c in sizes]

    def natural(self) -> list[int]:
        return self.measure()[1]

    def layout(self, room: int, spacings: Sequence[tuple[int, int]], natural: bool = False
               ) -> tuple[int, list[int]] | None:
        """``(gap, widths)``: the first of ``spacings`` (``(gap, edge)``: columns between two columns and
        around them all) at which the table fits ``room`` display columns, with its widths (:func:`fit`);
        ``natural``: only at its natural widths, no column narrowed. None if it fits at none."""
        mins, maxs = self.measure()
        for gap, edge in spacings:
            widths = fit(maxs if natural else mins, maxs, room - edge - gap * max(0, len(maxs) - 1))
            if widths is not None:
                return gap, widths
        return None


def _measure(text: str) -> tuple[int, int]:
    """The narrowest ``text`` can be wrapped without cutting a word, and its widest line."""
    return (max(map(width, text.split()), default=0),
            max(map(width, text.splitlines()), default=0))


def fit(mins: Sequence[int], maxs: Sequence[int], room: int) -> list[int] | None:
    """Column widths that add up to at most ``room``: every column as wide as its widest line (``maxs``)
    if they all fit; else the widest ones narrowed alike, each to no less than its longest word
    (``mins``), so that text wraps between words, never inside one. None when the longest words do not
    fit side by side: the table is then drawn a row at a time (:func:`vertical`)."""
    if sum(maxs) <= room:
        return list(maxs)
    if sum(mins) > room:
        return None

    def capped(cap: int) -> list[int]:
        return [max(lo, min(hi, cap)) for lo, hi in zip(mins, maxs, strict=True)]

    low, high = 0, max(maxs)  # the widest cap that fits
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if sum(capped(mid)) <= room else (low, mid - 1)
    widths = capped(low)
    spare = room - sum(widths)
    for i, (w, hi) in enumerate(zip(widths, maxs, strict=True)):  # one column more for the first narrowed
        if spare and w == low < hi:
            widths[i], spare = w + 1, spare - 1
    return widths


def vertical(t: Table) -> tuple[list[Table], Table]:
    """A table too wide for its room, one small table per row: each cell after its column's name, a
    ``name  value`` line (empty cells left out); a table with no header gives its cells one a line.
    Also all of their lines in one table, whose widths they all take."""
    header, rows = t.grid()
    named = any(header)
    records = []
    for r in rows:
        one = Table(None, ["", ""] if named else [""])
        one.rows = [[h, c] if named else [c] for h, c in zip(header, r, strict=True) if c]
        records.append(one)
    joined = Table(None, records[0].columns if records else [""])
    joined.rows = [line for one in records for line in one.rows]
    return records, joined


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal, as rich measures them: wide characters (Hangul...) take
    two, combining accents (Vietnamese written decomposed) none."""
    if text.isascii():
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)


def _pad(text: str, cols: int, right: bool) -> str:
    """``text`` padded with spaces to ``cols`` display columns (on the left if ``right``)."""
    fill = " " * max(0, cols - width(text))
    return fill + text if right else text + fill


def wrap(text: str, cols: int, indent: str = "") -> list[str]:
    """``textwrap.wrap`` by display width, so Korean lines fit the terminal like English ones."""
    if text.isascii():
        return textwrap.wrap(text, cols, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False,
                             break_long_words=False)
    lines: list[str] = []
    line = indent
    for gap, word in re.findall(r"(\s*)(\S+)", text):  # spaces kept between words on a line, as textwrap does
        gap = " " * max(1, len(gap))
        if line.strip() and width(line) + len(gap) + width(word) > cols:
            lines.append(line)
            line = indent
        line = line + gap + word if line.strip() else line + word
    if line.strip():
        lines.append(line)
    return lines


class Doc:
    """A sequence of blocks (headings, paragraphs, tables) shown together."""

    def __init__(self) -> None:
        self.blocks: list[tuple[str, Any]] = []

    def heading(self, text: str, style: str = "") -> None:
        """A heading; ``style`` colours it on a terminal (a verdict: green, red or yellow)."""
        self.blocks.append(("heading", (shown(text), style)))

    def para(self, text: str, style: str = "") -> None:
        self.blocks.append(("para", (shown(text), style)))

    def items(self, header: str, lines: Sequence[str]) -> None:
        """A header and its lines, each indented and wrapped on its own (sources, related rules)."""
        self.blocks.append(("items", (shown(header), [shown(x) for x in lines])))

    def table(self, table: Table) -> None:
        self.blocks.append(("table", table))

    def grid(self, g: Grid, title: bool = True) -> None:
        """A board of cells (``W1 C . F``), each coloured by its letter on a terminal, with the log's
        column letters and row numbers when the grid names its top-left cell (``c7``)."""
        self.blocks.append(("grid", (shown(g.caption or g.title) if title else None, g)))

    def view(self, block: Block) -> None:
        """One block a game drew (:mod:`kbgrules.core.views`); charts and strips are pictures for the
        HTML report (the terminal shows their numbers in ``kbg show``'s table)."""
        from kbgrules.core.views import Grid, Items, Text
        from kbgrules.core.views import Table as ViewTable

        if isinstance(block, Text):
            self.para(block.text, "bold" if block.strong else "")
        elif isinstance(block, ViewTable):
            t = Table(block.title, block.names, numeric=[i for i, c in enumerate(block.columns) if c.numeric])
            for row in block.rows:
                t.add(*row)
            self.table(t)
        elif isinstance(block, Grid):
            self.grid(block)
        elif isinstance(block, Items):
            self.items(block.title, [f"{name}: {text}" for name, text in block.items])

    def page(self, page: Page) -> None:
        """A page a game made (:mod:`kbgrules.core.reference`): its heading, its blocks, its caution
        (yellow on a terminal); the caller adds its sources."""
        self.heading(page.title)
        for block in page.blocks:
            self.view(block)
        if page.note:
            self.para(page.note, "yellow")

    def show(self, after: bool = False) -> None:
        """Write the blocks; ``after``: another Doc was shown just before (plain text keeps a blank
        line between them, as between the blocks of one Doc)."""
        if is_terminal():
            self._rich()
        else:
            sys.stdout.write("\n" * after + self.plain())

    def plain(self) -> str:
        out: list[str] = []
        for kind, value in self.blocks:
            if kind == "heading":
                out += [value[0], "=" * min(width(value[0]), WIDTH), ""]
            elif kind == "para":
                out += [*wrap(value[0], WIDTH), ""]
            elif kind == "items":
                out += [value[0], *(x for line in value[1] for x in wrap(line, WIDTH, "  ")), ""]
            elif kind == "grid":
                title, g = value
                if title:
                    out.append(f"{title}:")
                head, numbers = _labels(g.corner, list(g.rows))
                if head:
                    out.append(("     " + "  ".join(head)).rstrip())
                out += [(n + " ".join(f"{c:<2}" for c in r.split())).rstrip()
                        for n, r in zip(numbers, g.rows, strict=True)]
                out.append("")
            else:
                out += [*_plain_table(value), ""]
        while out and out[-1] == "":
            out.pop()
        return "\n".join(out) + "\n"

    def _rich(self) -> None:
        from rich.console import Console
        from rich.padding import Padding
        from rich.text import Text

        console = Console(highlight=False)  # colour says something (a grid's cells, verdicts), not "this is a number"
        for kind, value in self.blocks:
            if kind == "heading":  # the heading whole (wrapped, never cut: it holds the verdict), then a rule
                console.print(Text(value[0], style=f"bold {value[1]}".strip()))
                console.rule(style="cyan")
            elif kind == "para":
                text, style = value
                console.print(Text(text, style=style or ""))
                console.print()
            elif kind == "items":
                console.print(Text(value[0], style="bold"))
                for line in value[1]:
                    console.print(Padding(Text(line), (0, 0, 0, 2)))
                console.print()
            elif kind == "grid":
                _rich_grid(console, *value)
            else:
                _rich_table(console, value)


def _rich_table(console: Any, t: Table) -> None:
    """``t`` drawn by rich in the terminal's width: as it is when it fits, else without its margins and
    with less space between columns, its columns narrowed (:meth:`Table.layout`: rich wraps between
    words), else a row at a time (:func:`vertical`) under its title."""
    from rich import box
    from rich.table import Table as RichTable
    from rich.text import Text

    def draw(t: Table, widths: list[int] | None, gap: int, title: str | None, label: bool = False) -> Any:
        header, rows = t.grid()
        out = RichTable(title=title, title_justify="left", title_style="bold cyan", box=box.SIMPLE_HEAVY,
                        show_header=any(header), show_edge=gap == 3, pad_edge=gap == 3,
                        padding=(0, 1) if gap == 3 else (0, gap - 1, 0, 0))
        for i, col in enumerate(header):
            out.add_column(col, justify="right" if i in t.numeric else "left", overflow="fold",
                           style="bold" if i in t.numeric or (label and i == 0) else None,
                           width=None if widths is None else max(1, widths[i]))
        for r in rows:
            out.add_row(*map(Text, r))
        return out

    # rich's own margins: a cell's padding and the box's edge or separator, one column each
    laid = t.layout(console.width, [(3, 4)], natural=True) or t.layout(console.width, [(2, 0), (1, 0)])
    if laid is not None:
        console.print(draw(t, laid[1], laid[0], t.title))
        if laid[0] < 3:
            console.print()  # what the box's bottom edge gives a table with margins
        return
    if t.title:
        console.print(Text(t.title, style="bold cyan"))
    records, all_rows = vertical(t)
    laid = all_rows.layout(console.width, [(2, 0)])  # a word wider than the terminal: rich folds it
    for one in records:
        console.print(draw(one, laid and laid[1], 2, None, label=len(one.columns) == 2))
        console.print()


def grid_axes(corner: str | None, rows: list[str]) -> tuple[list[str], list[int]]:
    """The column letters and row numbers of a grid whose top-left cell is ``corner`` (``c7``), as
    the log names cells; empty without a corner (the terminal and the HTML report draw them)."""
    if not corner or not rows:
        return [], []
    col, top = ord(corner[0]) - ord("a"), int(corner[1:])
    width = len(rows[0].split())
    return [chr(ord("a") + col + i) for i in range(width)], [top - i for i in range(len(rows))]


def _labels(corner: str | None, rows: list[str]) -> tuple[list[str], list[str]]:
    """Column letters and row-number prefixes (``"  7  "``) for a grid whose top-left cell is ``corner``."""
    head, numbers = grid_axes(corner, rows)
    if not head:
        return [], ["  "] * len(rows)
    return head, [f"{n:>3}  " for n in numbers]


def _rich_grid(console: Any, title: str | None, g: Grid) -> None:
    """Each cell as wide as a letter and three marks (``M♛♛♛``; more marks are counted: ``M4♛``), a space
    between cells, so the board reads the same without colour (``NO_COLOR``); with colour, the space
    between two cells of one letter takes their colour, so that regions show whole."""
    from rich.text import Text

    if title:
        console.print(Text(title, style="bold"))
    size = 1 + 3 * width(g.mark)
    head, numbers = _labels(g.corner, list(g.rows))
    if head:
        console.print(Text("     " + "".join(c.ljust(size + 1) for c in head).rstrip(), style="dim"))
    palette = dict(g.palette)
    for number, r in zip(numbers, g.rows, strict=True):
        line = Text()
        line.append(number, style="dim")  # not Text(number, style=...): that style would be the whole line's
        cells = r.split()
        for k, cell in enumerate(cells):
            letter, marks = cell[0], cell[1:]
            n = int(marks) if marks.isascii() and marks.isdigit() else 0
            if cell == ".":
                text, style = "·", "dim"
            elif letter in g.landmarks:
                text, style = "♜", "bold black on white"
            else:
                text = letter + (g.mark * n if n <= 3 else f"{n}{g.mark}")
                style = f"bold white on {palette.get(letter, 'grey50')}"
            line.append(_pad(text, size, False), style=style)
            if k + 1 < len(cells):
                same = style != "dim" and letter not in g.landmarks and cells[k + 1][0] == letter
                line.append(" ", style=style if same else "")
        console.print(line)
    console.print()


def _plain_table(t: Table, room: int | None = None) -> list[str]:
    """``t`` as aligned text in ``room`` columns (``WIDTH``), two spaces from the left: columns two spaces
    apart, or one where two do not fit (:meth:`Table.layout`), else a row at a time (:func:`vertical`)."""
    room = WIDTH if room is None else room
    lines = [t.title] if t.title else []
    if not t.rows:
        return [*lines, "  (none)"]
    laid = t.layout(room, [(2, 2), (1, 2)])
    if laid is not None:
        return lines + _plain_rows(t, *laid)
    records, all_rows = vertical(t)
    gap, widths = all_rows.layout(room, [(2, 2)]) or (2, all_rows.natural())
    for k, one in enumerate(records):
        lines += [*([""] if k else []), *_plain_rows(one, gap, widths)]
    return lines


def _plain_rows(t: Table, gap: int, widths: list[int]) -> list[str]:
    header, rows = t.grid()
    sep = " " * gap

    def fmt(r: list[str]) -> list[str]:
        cells = [[c] if width(c) <= w and "\n" not in c else wrap(c, w) or [""]
                 for c, w in zip(r, widths, strict=True)]
        return [("  " + sep.join(_pad(c[k] if k < len(c) else "", w, i in t.numeric)
                                 for i, (c, w) in enumerate(zip(cells, widths, strict=True)))).rstrip()
                for k in range(max(map(len, cells)))]

    lines: list[str] = []
    if any(header):
        lines += fmt(header)
        lines.append("  " + sep.join("-" * w for w in widths))
    for r in rows:
        lines += fmt(r)
    return lines


class Progress:
    """A rich progress bar on stderr while many files are checked; nothing unless stderr is a terminal."""

    def __init__(self, total: int, label: str) -> None:
        self._bar: Any = None
        if total > 1 and is_terminal(sys.stderr):
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TimeRemainingColumn
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress("{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                                     console=Console(stderr=True), transient=True)
            self._task = self._bar.add_task(label, total=total)
            self._bar.start()

    def advance(self) -> None:
        if self._bar is not None:
            self._bar.advance(self._task)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


def reader_gone() -> None:
    """Standard output's reader went away (``kbg ... | head``): what is still buffered goes nowhere,
    so that exiting does not fail writing it (Python's exit code 120)."""
    import contextlib
    import os

    with contextlib.suppress(OSError, ValueError):  # ValueError: no real file behind stdout (a capture)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
