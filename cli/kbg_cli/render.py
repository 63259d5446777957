"""Output: rich on a terminal, plain aligned text when piped, JSON for tools.

The plain writer (tables, wrapping) is kept here, not rich's no-colour console: importing rich.console
costs 40-55 ms, which would double piped ``kbg setup`` and ``kbg explain`` start-up; widths are rich's.
"""

from __future__ import annotations

import json
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
        sys.stdout.write(text + sep + json.dumps(key) + ": [")

    def _dumps(self, data: Any) -> str:
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
        self.title = title
        self.columns = list(columns)
        self.numeric = set(numeric)
        self.rows: list[list[str]] = []

    def add(self, *cells: object) -> None:
        self.rows.append(["" if c is None else shown(str(c)) for c in cells])


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
        return textwrap.wrap(text, cols, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False)
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
        self.blocks.append(("items", (header, list(lines))))

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
        from rich import box
        from rich.console import Console
        from rich.padding import Padding
        from rich.table import Table as RichTable
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
                t = RichTable(title=value.title, title_justify="left", title_style="bold cyan",
                              box=box.SIMPLE_HEAVY, show_header=bool(value.columns and any(value.columns)))
                for i, col in enumerate(value.columns):
                    t.add_column(col, justify="right" if i in value.numeric else "left",
                                 style="bold" if i in value.numeric else None, overflow="fold")
                for row in value.rows:
                    t.add_row(*(_esc(c) for c in row))
                console.print(t)


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
    from rich.text import Text

    if title:
        console.print(Text(title, style="bold"))
    head, numbers = _labels(g.corner, list(g.rows))
    if head:
        console.print(Text("     " + "".join(f"{c}  " for c in head).rstrip(), style="dim"))
    palette = dict(g.palette)
    for number, r in zip(numbers, g.rows, strict=True):
        line = Text(number, style="dim")
        for cell in r.split():
            letter, marks = cell[0], cell[1:]
            if cell == ".":
                line.append(" · ", style="dim")
            elif letter in g.landmarks:
                line.append(" ♜ ", style="bold black on white")
            else:
                n = int(marks) if marks.isascii() and marks.isdigit() else 0
                mark = g.mark * n if n <= 2 else f"{n}{g.mark}"  # three cells wide: three marks are written 3♛
                line.append(f"{letter}{mark:<2}", style=f"bold white on {palette.get(letter, 'grey50')}")
        console.print(line)
    console.print()


def _esc(text: str) -> str:
    return text.replace("[", "\\[")


def _plain_table(t: Table) -> list[str]:
    lines: list[str] = []
    if t.title:
        lines.append(t.title)
    if not t.rows:
        return [*lines, "  (none)"]
    ncol = max(len(t.columns), max(len(r) for r in t.rows))
    rows = [r + [""] * (ncol - len(r)) for r in t.rows]
    header = t.columns + [""] * (ncol - len(t.columns))
    show_header = any(header)
    widths = [max([width(header[i]) if show_header else 0] + [width(r[i]) for r in rows]) for i in range(ncol)]
    last = ncol - 1
    indent = "  "
    prefix_width = len(indent) + sum(widths[:last]) + 2 * last
    wrap_width = max(30, WIDTH - prefix_width)

    widths[last] = min(widths[last], wrap_width)

    def fmt(r: list[str]) -> list[str]:
        cells = [_pad(r[i], widths[i], i in t.numeric) for i in range(last)]
        if last in t.numeric:
            return [(indent + "  ".join([*cells, _pad(r[last], widths[last], True)])).rstrip()]
        tail = wrap(r[last], wrap_width) or [""]
        first = indent + "  ".join([*cells, tail[0]])
        return [first.rstrip()] + [(" " * prefix_width + x).rstrip() for x in tail[1:]]

    if show_header:
        lines += fmt(header)
        lines.append(indent + "  ".join("-" * w for w in widths))
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
