"""Kingdomino: kingdoms, placements, scoring, and the game state used by the rule checker.

Cells are ``(x, y)`` offsets from the castle, x to the right and y up. In game logs they are
written chess-style on a board just big enough for any legal kingdom: 9x9 with the castle on
``e5`` (5x5 kingdoms), 13x13 with the castle on ``g7`` (7x7 kingdoms, the Mighty Duel).

>>> import kbgrules
>>> from kbgrules.kingdomino import Kingdom
>>> rs = kbgrules.load("kingdomino")
>>> k = Kingdom(rs.kingdom_size)
>>> len(k.legal_placements(rs.domino(20)))
24
>>> k.place(rs.domino(20), (1, 0), (2, 0))
>>> [(p.terrain, p.squares, p.crowns, p.points) for p in k.properties()]
[('wheat', 1, 1, 1), ('lake', 1, 0, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .errors import IllegalMoveError as IllegalMoveError  # re-exported: its home before errors.py
from .errors import KbgError
from .model import Domino, Half, KingdominoRuleset

Cell = tuple[int, int]
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
CASTLE = Half("castle", 0)


def violation(rs: KingdominoRuleset, code: str, **params: Any) -> IllegalMoveError:
    """An IllegalMoveError whose rule id and message template come from the rule data (``codes``)."""
    entry = rs.data["codes"][code]
    return IllegalMoveError(code, str(entry["rule"]), str(entry["message"]).format(**params), params)


# --------------------------------------------------------------------------- cells


def board_offset(size: int) -> int:
    """Distance from the castle to the board edge: any legal kingdom of ``size`` fits."""
    return size - 1


def cell_name(cell: Cell, size: int) -> str:
    off = board_offset(size)
    return f"{chr(ord('a') + cell[0] + off)}{cell[1] + off + 1}"


def parse_cell(text: str, size: int) -> Cell | None:
    """``e5``-style name to offsets from the castle; None if it is not a cell of the board."""
    off = board_offset(size)
    width = 2 * off + 1
    t = text.strip().lower()
    if len(t) < 2 or not ("a" <= t[0] <= "z") or not (t[1:].isascii() and t[1:].isdigit()):
        return None
    col = ord(t[0]) - ord("a")
    row = int(t[1:]) - 1
    if not (0 <= col < width and 0 <= row < width):
        return None
    return (col - off, row - off)


def board_columns(size: int) -> str:
    width = 2 * board_offset(size) + 1
    return f"a-{chr(ord('a') + width - 1)}"


def neighbours(cell: Cell) -> Iterator[Cell]:
    x, y = cell
    for dx, dy in DIRECTIONS:
        yield (x + dx, y + dy)


# --------------------------------------------------------------------------- kingdom


@dataclass(frozen=True, slots=True)
class Property:
    """A maximal group of edge-connected squares of one terrain."""

    terrain: str
    squares: int
    crowns: int
    cells: tuple[Cell, ...] = field(repr=False)

    @property
    def points(self) -> int:
        return self.squares * self.crowns


class Kingdom:
    """One player's kingdom: the castle at (0, 0) and the squares placed around it."""

    __slots__ = ("castle_wild", "cells", "diagonal", "discards", "maxx", "maxy", "min_edges", "minx", "miny",
                 "placed", "size")

    def __init__(self, size: int = 5, *, castle_wild: bool = True, min_edges: int = 1, diagonal: bool = False) -> None:
        self.size = size
        self.castle_wild = castle_wild
        self.min_edges = min_edges
        self.diagonal = diagonal
        self.cells: dict[Cell, Half] = {(0, 0): CASTLE}
        self.minx = self.maxx = self.miny = self.maxy = 0
        self.discards = 0
        self.placed: list[int] = []

    @classmethod
    def for_rules(cls, rs: KingdominoRuleset) -> Kingdom:
        """An empty kingdom under the ruleset's placement parameters (size, castle, matching edges)."""
        return cls(rs.kingdom_size, castle_wild=rs.castle_wild, min_edges=rs.min_matching_edges,
                   diagonal=rs.diagonal_connects)

    def copy(self) -> Kingdom:
        k = Kingdom(self.size, castle_wild=self.castle_wild, min_edges=self.min_edges, diagonal=self.diagonal)
        k.cells = dict(self.cells)
        k.minx, k.maxx, k.miny, k.maxy = self.minx, self.maxx, self.miny, self.maxy
        k.discards = self.discards
        k.placed = list(self.placed)
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
        return (*DIRECTIONS, (1, 1), (1, -1), (-1, 1), (-1, -1)) if self.diagonal else DIRECTIONS

    def _around(self, cell: Cell) -> Iterator[Cell]:
        x, y = cell
        for dx, dy in self._offsets():
            yield (x + dx, y + dy)

    def _matches(self, terrain: str, cell: Cell) -> int:
        """Matching edges for a square of ``terrain`` put on the empty ``cell`` (the castle counts if wild)."""
        n = 0
        x, y = cell
        cells = self.cells
        for dx, dy in self._offsets():
            sq = cells.get((x + dx, y + dy))
            if sq is not None and ((sq is CASTLE and self.castle_wild) or sq.terrain == terrain):
                n += 1
        return n

    def _connects_pair(self, first: str, a: Cell, second: str, b: Cell) -> bool:
        total = self._matches(first, a) + self._matches(second, b)
        return total >= max(1, self.min_edges)

    def problem(self, domino: Domino, a: Cell, b: Cell) -> tuple[str, dict[str, Any]] | None:
        """Why placing ``domino`` with its first half on ``a`` and second on ``b`` is illegal, or None."""
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            return "kd-cells-apart", {}
        for c in (a, b):
            if c in self.cells:
                return "kd-overlap", {"cell": c}
        w, h = self._extent(a, b)
        if w > self.size or h > self.size:
            return "kd-too-big", {"w": w, "h": h}
        if not self._connects_pair(domino.first.terrain, a, domino.second.terrain, b):
            return "kd-no-connection", {}
        return None

    def is_legal(self, domino: Domino, a: Cell, b: Cell) -> bool:
        return self.problem(domino, a, b) is None

    def place(self, domino: Domino, a: Cell, b: Cell) -> None:
        """Put ``domino`` down without checking (see :meth:`problem`)."""
        self.cells[a] = domino.first
        self.cells[b] = domino.second
        for x, y in (a, b):
            self.minx = min(self.minx, x)
            self.maxx = max(self.maxx, x)
            self.miny = min(self.miny, y)
            self.maxy = max(self.maxy, y)
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

    def _placements(self, domino: Domino) -> Iterator[tuple[Cell, Cell]]:
        """Legal placements, possibly repeated; both cells are empty, so neither half can block the other."""
        cells = self.cells
        touch = self._touching()
        t1, t2 = domino.first.terrain, domino.second.terrain
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

    def legal_placements(self, domino: Domino) -> list[tuple[Cell, Cell]]:
        """Every legal (first-half cell, second-half cell) pair, sorted."""
        return sorted(set(self._placements(domino)))

    def can_place(self, domino: Domino) -> bool:
        return next(self._placements(domino), None) is not None

    def properties(self) -> list[Property]:
        """The properties, largest first (ties: more crowns first, then terrain name)."""
        seen: set[Cell] = set()
        out: list[Property] = []
        cells = self.cells
        for start, sq in cells.items():
            if start in seen or sq is CASTLE:
                continue
            group = [start]
            seen.add(start)
            crowns = 0
            i = 0
            while i < len(group):
                c = group[i]
                i += 1
                crowns += cells[c].crowns
                for n in neighbours(c):
                    other = cells.get(n)
                    if n not in seen and other is not None and other is not CASTLE and other.terrain == sq.terrain:
                        seen.add(n)
                        group.append(n)
            out.append(Property(sq.terrain, len(group), crowns, tuple(sorted(group))))
        out.sort(key=lambda p: (-p.points, -p.squares, -p.crowns, p.terrain))
        return out

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

    def rows(self, letters: Mapping[str, str]) -> list[list[str]]:
        """The bounding box as rows of cell codes, top row first: ``W1``, ``C``, ``.``."""
        out = []
        for y in range(self.maxy, self.miny - 1, -1):
            row = []
            for x in range(self.minx, self.maxx + 1):
                sq = self.cells.get((x, y))
                if sq is None:
                    row.append(".")
                elif sq is CASTLE:
                    row.append("C")
                else:
                    row.append(f"{letters[sq.terrain]}{sq.crowns}" if sq.crowns else letters[sq.terrain])
            out.append(row)
        return out

    def grid_text(self, letters: Mapping[str, str]) -> str:
        return "\n".join(" ".join(f"{c:<2}" for c in row).rstrip() for row in self.rows(letters))


def legal_placements(kingdom: Kingdom, domino: Domino) -> list[tuple[Cell, Cell]]:
    """Every legal (first-half cell, second-half cell) for ``domino`` in ``kingdom``; empty means discard."""
    return kingdom.legal_placements(domino)


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class Score:
    """A kingdom's score: properties, bonuses and the tie-break figures."""

    total: int
    base: int
    properties: tuple[Property, ...]
    bonuses: Mapping[str, int]
    largest_property: int
    crowns: int


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
    props = tuple(kingdom.properties())
    base = sum(p.points for p in props)
    bonuses = {b.id: b.points for b in rs.bonuses.values()
               if b.active and bonus_applies(rs, b.id, kingdom, discards)}
    return Score(
        total=base + sum(bonuses.values()), base=base, properties=props, bonuses=MappingProxyType(bonuses),
        largest_property=max((p.squares for p in props), default=0),
        crowns=sum(p.crowns for p in props),
    )


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
    return [1 + sum(1 for other in keys if other > k) for k in keys]


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: a new line revealed (numbers in any order; the line is sorted)."""

    numbers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DrawKings:
    """Chance: the order in which the kings were drawn for the first claims (one entry per king)."""

    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Claim:
    player: int
    number: int


@dataclass(frozen=True, slots=True)
class Place:
    player: int
    number: int
    first: Cell
    second: Cell


@dataclass(frozen=True, slots=True)
class Discard:
    player: int
    number: int


Action = Deal | DrawKings | Claim | Place | Discard


# --------------------------------------------------------------------------- game state


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    name: str
    score: Score
    rank: int
    discards: int


@dataclass(frozen=True, slots=True)
class Outcome:
    standings: tuple[Standing, ...]
    winners: tuple[str, ...]


class KingdominoState:
    """A game in progress: ``legal_actions()``, ``apply()`` (checked by default), ``is_terminal()``."""

    def __init__(self, rs: KingdominoRuleset, players: Sequence[str]) -> None:
        if rs.players != len(players):
            raise KbgError(f"the ruleset was loaded for {rs.players} players, not {len(players)}",
                           code="player-count")
        self.rs = rs
        self.players = tuple(players)
        self.row = rs.setup
        self.dominoes = {d.number: d for d in rs.dominoes}
        self.kingdoms = [Kingdom.for_rules(rs) for _ in players]
        kpp = self.row.kings_per_player
        self.king_owner = [p for p in range(len(players)) for _ in range(kpp)]
        self.dealt: dict[int, int] = {}  # number -> index of the line it came in
        self.lines_dealt = 0
        self.current: list[int] = []
        self.current_claims: dict[int, int] = {}  # number -> king
        self.next: list[int] = []
        self.next_claims: dict[int, int] = {}
        self.phase = "deal"  # deal, first, turn, over
        self.first_order: tuple[int, ...] | None = None
        self.order: list[int] = []
        self.turn = 0
        self.step = "place"
        self.discarded: list[int] = []
        self.history: list[Action] = []
        self._scores: tuple[int, list[Score]] | None = None
        self.round_ends: list[list[Kingdom]] = []  # every kingdom at the end of each round, for `kbg show`

    # ---------------------------------------------------------------- queries

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance(self) -> bool:
        """A chance event comes next: a deal, or (optionally) the draw of kings for the first claims."""
        return self.phase == "deal"

    def current_king(self) -> int | None:
        if self.phase == "first":
            taken = len(self.next_claims)
            return self.first_order[taken] if self.first_order is not None else None
        if self.phase == "turn":
            return self.order[self.turn]
        return None

    def current_player(self) -> int | None:
        """The player to act, or None at a chance event, at the end, or in free first claims."""
        king = self.current_king()
        return None if king is None else self.king_owner[king]

    def king_domino(self, king: int) -> int:
        return next(n for n, k in self.current_claims.items() if k == king)

    def expected(self) -> str:
        """What comes next, in words, for messages."""
        if self.phase == "deal":
            return f"a deal of {self.row.line_size} dominoes"
        if self.phase == "first":
            p = self.current_player()
            return f"{self.players[p]}'s first claim" if p is not None else "a first claim"
        if self.phase == "turn":
            who = self.players[self.king_owner[self.order[self.turn]]]
            if self.step == "place":
                return f"{who} placing or discarding domino {self.king_domino(self.order[self.turn])}"
            return f"{who}'s claim"
        return "the end of the game"

    def remaining_deck(self) -> list[int]:
        return [n for n in self.dominoes if n not in self.dealt]

    def legal_actions(self) -> list[Action]:
        """Every legal player action (empty at a chance event: see :meth:`is_chance`)."""
        if self.phase in ("deal", "over"):
            return []
        if self.phase == "first":
            snake = self.snake_owner()
            players = ([self.current_player()] if self.first_order is not None else [snake] if snake is not None
                       else [p for p in range(len(self.players)) if self._unclaimed_kings(p)])
            return [Claim(p, n) for p in players if p is not None for n in self.next if n not in self.next_claims]
        king = self.order[self.turn]
        p = self.king_owner[king]
        if self.step == "claim":
            return [Claim(p, n) for n in self.next if n not in self.next_claims]
        number = self.king_domino(king)
        domino = self.dominoes[number]
        places: list[Action] = [Place(p, number, a, b) for a, b in self.kingdoms[p].legal_placements(domino)]
        if not places or self.rs.discard == "any-time":
            places.append(Discard(p, number))
        return places

    # ---------------------------------------------------------------- moves

    def _fail(self, code: str, **params: Any) -> IllegalMoveError:
        return violation(self.rs, code, **params)

    def snake_owner(self) -> int | None:
        """With the snake option (2 players): who claims next in the first round, A, B, B, A."""
        if self.rs.first_player_method != "snake" or len(self.players) != 2 or not self.next_claims:
            return None
        first = self.king_owner[next(iter(self.next_claims.values()))]
        return [first, 1 - first, 1 - first, first][len(self.next_claims)]

    def _unclaimed_kings(self, player: int) -> int:
        mine = sum(1 for k in self.next_claims.values() if self.king_owner[k] == player)
        return self.row.kings_per_player - mine

    def apply(self, action: Action, check: bool = True) -> None:
        """Play ``action``; with ``check`` an illegal one raises IllegalMoveError and changes nothing."""
        if self.phase == "over":
            raise self._fail("kd-after-end")
        if isinstance(action, Deal):
            self._deal(action, check)
        elif isinstance(action, DrawKings):
            self._draw_kings(action, check)
        elif isinstance(action, Claim):
            self._claim(action, check)
        elif isinstance(action, Place | Discard):
            self._place(action, check)
        else:  # pragma: no cover - the Action union is closed
            raise TypeError(action)
        self.history.append(action)

    def _deal(self, action: Deal, check: bool) -> None:
        if check:
            if self.phase != "deal":
                raise self._fail("kd-unexpected", expected=self.expected(), got="a deal")
            if len(action.numbers) != self.row.line_size:
                raise self._fail("kd-deal-size", players=len(self.players), expected=self.row.line_size,
                                 got=len(action.numbers))
            seen: set[int] = set()
            for n in action.numbers:
                if n not in self.dominoes:
                    raise self._fail("kd-deal-unknown", domino=n)
                if n in self.dealt or n in seen:
                    where = f"in deal {self.dealt[n] + 1}" if n in self.dealt else "twice in this deal"
                    raise self._fail("kd-deal-repeat", domino=n, first=where)
                seen.add(n)
        for n in action.numbers:
            self.dealt[n] = self.lines_dealt
        self.lines_dealt += 1
        self.next = sorted(action.numbers)
        self.next_claims = {}
        if self.lines_dealt == 1:
            self.phase = "first"
        else:
            self._start_turns()

    def _start_turns(self) -> None:
        self.phase = "turn"
        self.order = [self.current_claims[n] for n in self.current]
        self.turn = 0
        self.step = "place"

    def _draw_kings(self, action: DrawKings, check: bool) -> None:
        if check:
            if self.phase != "first" or self.next_claims or self.first_order is not None:
                raise self._fail("kd-unexpected", expected=self.expected(), got="the draw of kings")
            want = sorted(self.king_owner)
            o = action.order
            if self.rs.first_player_method == "snake" and len(self.players) == 2 and len(o) == 4 and \
                    sorted(o) == want and list(o) != [o[0], 1 - o[0], 1 - o[0], o[0]]:
                raise self._fail("kd-kings-order", problem="with the snake option the kings go A, B, B, A")
            if sorted(action.order) != want:
                counts = ", ".join(f"{self.players[p]} x{self.row.kings_per_player}" for p in range(len(self.players)))
                raise self._fail("kd-kings-order", problem=f"the kings drawn must be each king in play once ({counts})")
        # the n-th time a player's king is drawn, it is that player's n-th king
        used = [0] * len(self.players)
        kings = []
        for p in action.order:
            kings.append(p * self.row.kings_per_player + used[p])
            used[p] += 1
        self.first_order = tuple(kings)

    def _claim(self, action: Claim, check: bool) -> None:
        p, n = action.player, action.number
        if self.phase == "first":
            expected_king = self.current_king()
            if check:
                if expected_king is not None and self.king_owner[expected_king] != p:
                    raise self._fail("kd-wrong-player", expected=self.players[self.king_owner[expected_king]],
                                     actor=self.players[p], why="order of the kings drawn")
                snake = self.snake_owner()
                if snake is not None and snake != p:
                    raise self._fail("kd-wrong-player", expected=self.players[snake], actor=self.players[p],
                                     why="the snake order A, B, B, A")
                if expected_king is None and self._unclaimed_kings(p) <= 0:
                    raise self._fail("kd-kings-order", problem=f"{self.players[p]} has no king left to place")
                self._check_claim(n)
            king = expected_king if expected_king is not None else (
                p * self.row.kings_per_player + self.row.kings_per_player - self._unclaimed_kings(p))
            self.next_claims[n] = king
            if len(self.next_claims) == len(self.king_owner):
                self._end_claims()
            return
        if check:
            if self.phase != "turn" or self.step != "claim":
                raise self._fail("kd-unexpected", expected=self.expected(), got=f"a claim by {self.players[p]}")
            owner = self.king_owner[self.order[self.turn]]
            if owner != p:
                raise self._fail("kd-wrong-player", expected=self.players[owner], actor=self.players[p],
                                 why="turn order follows the line being placed")
            self._check_claim(n)
        self.next_claims[n] = self.order[self.turn]
        self._advance()

    def _check_claim(self, n: int) -> None:
        if n not in self.next:
            raise self._fail("kd-claim-not-in-line", domino=n, line=" ".join(map(str, self.next)))
        if n in self.next_claims:
            raise self._fail("kd-claim-taken", domino=n, owner=self.players[self.king_owner[self.next_claims[n]]])

    def _place(self, action: Place | Discard, check: bool) -> None:
        p, n = action.player, action.number
        kind = "a placement" if isinstance(action, Place) else "a discard"
        if check:
            if self.phase != "turn" or self.step != "place":
                raise self._fail("kd-unexpected", expected=self.expected(), got=f"{kind} by {self.players[p]}")
            owner = self.king_owner[self.order[self.turn]]
            if owner != p:
                raise self._fail("kd-wrong-player", expected=self.players[owner], actor=self.players[p],
                                 why="turn order follows the line being placed")
        own = self.king_domino(self.order[self.turn])
        if check and n != own:
            raise self._fail("kd-wrong-domino", actor=self.players[p], expected=own, domino=n)
        domino = self.dominoes[n]
        kingdom = self.kingdoms[p]
        if isinstance(action, Place):
            if check:
                bad = kingdom.problem(domino, action.first, action.second)
                if bad is not None:
                    code, info = bad
                    size = kingdom.size
                    a, b = cell_name(action.first, size), cell_name(action.second, size)
                    cell = info.get("cell")
                    raise self._fail(code, domino=n, a=a, b=b, actor=self.players[p], size=size,
                                     cell=cell_name(cell, size) if cell else "", w=info.get("w"), h=info.get("h"))
            kingdom.place(domino, action.first, action.second)
        else:
            if check and self.rs.discard != "any-time" and kingdom.can_place(domino):
                legal = kingdom.legal_placements(domino)
                if legal:
                    c1, c2 = legal[0]
                    raise self._fail("kd-voluntary-discard", domino=n, count=len(legal),
                                     example=f"{cell_name(c1, kingdom.size)} {cell_name(c2, kingdom.size)}")
            kingdom.discards += 1
            self.discarded.append(n)
        if self.next:
            self.step = "claim"
        else:
            self._advance()

    def _advance(self) -> None:
        self.turn += 1
        self.step = "place"
        if self.turn == len(self.order):
            if self.next:
                self._end_claims()
            else:
                self.phase = "over"
                self._round_end()

    def _round_end(self) -> None:
        self.round_ends.append([k.copy() for k in self.kingdoms])

    def _end_claims(self) -> None:
        self._round_end()
        for n in self.next:
            if n not in self.next_claims:
                self.discarded.append(n)  # the unclaimed leftover of a line (second edition, 3 players)
        self.current = [n for n in self.next if n in self.next_claims]
        self.current_claims = self.next_claims
        self.next = []
        self.next_claims = {}
        if self.lines_dealt < self.row.rounds:
            self.phase = "deal"
        else:
            self._start_turns()

    # ---------------------------------------------------------------- results

    def scores(self) -> list[Score]:
        """Each player's score now (cached until the next move)."""
        stamp = len(self.history)
        if self._scores is None or self._scores[0] != stamp:
            self._scores = (stamp, [score(k, self.rs, discards=k.discards) for k in self.kingdoms])
        return self._scores[1]

    def outcome(self) -> Outcome:
        """Scores, ranks (with the edition's tie-breaks) and winners; meaningful once terminal."""
        scores = self.scores()
        ranks = rank([tiebreak_key(self.rs, s) for s in scores])
        standings = tuple(Standing(i, self.players[i], s, r, self.kingdoms[i].discards)
                          for i, (s, r) in enumerate(zip(scores, ranks, strict=True)))
        winners = tuple(st.name for st in standings if st.rank == 1)
        return Outcome(standings, winners)


def letters(rs: KingdominoRuleset) -> dict[str, str]:
    """Terrain id -> grid letter."""
    return {t.id: t.letter for t in rs.terrains}


def kingdom_from_rows(rows: Iterable[Iterable[str]], rs: KingdominoRuleset, size: int | None = None) -> Kingdom:
    """A kingdom from grid rows (top row first) of cell codes; the castle ``C`` becomes (0, 0).

    Raises KbgError (code ``grid``) for unreadable cells. Use :func:`kbgrules.positions.read_grid`
    for text with warnings about impossible kingdoms.
    """
    from .positions import grid_to_kingdom

    kingdom, _ = grid_to_kingdom([list(r) for r in rows], rs, size)
    return kingdom
