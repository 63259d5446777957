"""What a game draws, as plain data: the blocks of its results and tables.

A game's result (:class:`kbgrules.core.result.GameResult`) and its reference tables are made of
these blocks; the terminal (rich), the HTML report and the offline site render them without knowing
the game. Nothing here draws: the library stays light and every face draws the same facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kbgrules.core.value import FrozenValue


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Text(FrozenValue):
    """A sentence (``strong``: the verdict)."""

    text: str
    strong: bool = False


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Column(FrozenValue):
    """A table's column: its name, and whether it holds numbers."""

    name: str
    numeric: bool = False


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Gauge(FrozenValue):
    """A value on a track from 0 to ``top`` with marks at its thresholds; a table cell may be one
    (shown as its value where no picture can be drawn)."""

    value: int
    top: int
    marks: tuple[int, ...]
    label: str

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Table(FrozenValue):
    """Rows of cells under named columns; the cell in column ``key`` names its row (a player)."""

    title: str | None
    columns: tuple[Column, ...]
    rows: tuple[tuple[object, ...], ...]
    key: int = 0

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Grid(FrozenValue):
    """A board of square cells as the game's log writes it: each row a string of cell codes
    separated by spaces (a letter, then how many marks the cell bears: ``W1 C . F``; ``.`` empty).
    ``palette`` and ``names`` give each letter's colour and name, ``landmarks`` the letters drawn as
    a building (a castle), ``corner`` the log's name of the top-left cell (``b6``), if it has one,
    ``mark`` the symbol a terminal writes for each mark (a crown, say: ``M♛♛``; four marks or more are
    counted, ``M4♛``), ``caption`` what is written under the picture (its owner), ``span`` how many
    cells across a full board may be (0: not known): boards drawn together share one scale, at which a
    full board fills its place."""

    title: str
    rows: tuple[str, ...]
    palette: tuple[tuple[str, str], ...]
    names: tuple[tuple[str, str], ...]
    corner: str | None = None
    landmarks: tuple[str, ...] = ()
    caption: str | None = None
    mark: str = "*"
    span: int = 0


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Chart(FrozenValue):
    """A line per player over the turns or rounds (a ``None`` ends a line: out of the game)."""

    title: str
    x_label: str
    y_label: str
    xs: tuple[int, ...]
    series: tuple[tuple[str, tuple[int | None, ...]], ...]
    y_max: int | None = None


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Strip(FrozenValue):
    """Who held each place at each step: one row per place, one holder (or None) per step."""

    title: str
    x_label: str
    xs: tuple[int, ...]
    places: tuple[tuple[str, tuple[str | None, ...]], ...]
    players: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Items(FrozenValue):
    """A short list under a title: each item a name and what it says (a player: what they bought)."""

    title: str
    items: tuple[tuple[str, str], ...]


Block = Text | Table | Grid | Chart | Strip | Items
