"""The Kingdomino game state the rule checker replays: the draft, the kings, the moves.

>>> import kbgrules
>>> from kbgrules.kingdomino.state import KingdominoState, Deal
>>> st = KingdominoState(kbgrules.load("kingdomino", players=2), ["Ann", "Bob"])
>>> st.expected()
'a deal of 4 dominoes'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from kbgrules.core.outcome import Outcome as Outcome  # re-exported: its home before the core had one
from kbgrules.core.words import counted
from kbgrules.errors import IllegalMoveError as IllegalMoveError  # re-exported: its home before errors.py
from kbgrules.errors import KbgError
from kbgrules.kingdomino.kingdom import Cell, Kingdom, Score, cell_name, rank, score, tiebreak_key, violation
from kbgrules.kingdomino.model import Domino, KingdominoRuleset

# --------------------------------------------------------------------------- actions


# The actions write their __init__ out: in the compiled build (docs/scale.md) the one dataclasses
# generates would run as interpreted code.
@dataclass(frozen=True, slots=True, init=False)
class Deal:
    """Chance: a new line revealed (numbers in any order; the line is sorted)."""

    numbers: tuple[int, ...]

    def __init__(self, numbers: tuple[int, ...]) -> None:
        object.__setattr__(self, "numbers", numbers)


@dataclass(frozen=True, slots=True)
class DrawKings:
    """Chance: the order in which the kings were drawn for the first claims (one entry per king)."""

    order: tuple[int, ...]


@dataclass(frozen=True, slots=True, init=False)
class Claim:
    player: int
    number: int

    def __init__(self, player: int, number: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "number", number)


@dataclass(frozen=True, slots=True, init=False)
class Place:
    player: int
    number: int
    first: Cell
    second: Cell

    def __init__(self, player: int, number: int, first: Cell, second: Cell) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "second", second)


@dataclass(frozen=True, slots=True, init=False)
class Discard:
    player: int
    number: int

    def __init__(self, player: int, number: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "number", number)


Action = Deal | DrawKings | Claim | Place | Discard


# --------------------------------------------------------------------------- game state


@dataclass(frozen=True, slots=True, init=False)
class Standing:
    player: int
    name: str
    score: Score
    rank: int
    discards: int

    def __init__(self, player: int, name: str, score: Score, rank: int, discards: int) -> None:
        object.__setattr__(self, "player", player)  # written out, as the actions' (compiled)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "discards", discards)

    def __reduce__(self) -> tuple[Any, ...]:  # compiled, a native class pickles only so
        return Standing, (self.player, self.name, self.score, self.rank, self.discards)




class KingdominoState:
    """A game in progress: ``legal_actions()``, ``apply()`` (checked by default), ``is_terminal()``."""

    def __init__(self, rs: KingdominoRuleset, players: Sequence[str]) -> None:
        if rs.players != len(players):
            raise KbgError(f"the ruleset was loaded for {rs.players} players, not {len(players)}",
                           code="player-count")
        self.rs = rs
        self.players = tuple(players)
        self.row = rs.setup
        self.dominoes, empty = _tables(rs)
        self.kingdoms = [empty.copy() for _ in players]  # copies cost less than new kingdoms
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
        self._outcome: tuple[list[Score], str, list[int], Outcome] | None = None  # the last outcome()
        self._round_marks: list[list[_Mark]] = []  # every kingdom at the end of each round, for `kbg show`
        self._overwritten = False  # an unchecked placement covered a square: marks must hold copies

    def copy(self) -> KingdominoState:
        """An independent copy. Shared, as they never change: the ruleset, the domino table, the moves, the
        scores and outcome (frozen), and the squares (the castle is recognised by identity)."""
        other = KingdominoState(self.rs, self.players)
        other.row, other.dominoes = self.row, self.dominoes
        kingdoms = other.kingdoms = [k.copy() for k in self.kingdoms]
        other.king_owner = self.king_owner.copy()
        other.dealt, other.lines_dealt = self.dealt.copy(), self.lines_dealt
        other.current, other.current_claims = self.current.copy(), self.current_claims.copy()
        other.next, other.next_claims = self.next.copy(), self.next_claims.copy()
        other.phase, other.first_order, other.order = self.phase, self.first_order, self.order.copy()
        other.turn, other.step, other.discarded = self.turn, self.step, self.discarded.copy()
        other.history = self.history.copy()
        scores, known = self._scores, self._outcome
        listed = None
        if scores is not None:
            listed = scores[1].copy()
            other._scores = (scores[0], listed)
        if known is not None:  # its scores are the copy's own when they were the state's
            if listed is None or scores is None or known[0] is not scores[1]:
                listed = known[0].copy()
            other._outcome = (listed, known[1], known[2].copy(), known[3])
        # a mark holds a kingdom of the state (the copy's in the copy) or a copy made at a round end
        copies = {id(k): c for k, c in zip(self.kingdoms, kingdoms, strict=True)}
        for marks in self._round_marks:
            out = []
            for k, cells, placed, discards, box in marks:
                c = copies.get(id(k))
                if c is None:
                    c = copies[id(k)] = k.copy()
                out.append((c, cells, placed, discards, box))
            other._round_marks.append(out)
        other._overwritten = self._overwritten
        return other

    # ---------------------------------------------------------------- queries

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance(self) -> bool:
        """A deal comes next (the draw of kings, which a log may leave out, is :meth:`kings_due`)."""
        return self.phase == "deal"

    def kings_due(self) -> bool:
        """The draw of kings may come now: the first line is dealt, no king drawn and none placed yet."""
        return self.phase == "first" and self.first_order is None and not self.next_claims

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

    @property
    def round_ends(self) -> list[list[Kingdom]]:
        """Every kingdom at the end of each round (built on demand from marks taken as rounds end)."""
        return [[_mark_kingdom(m) for m in marks] for marks in self._round_marks]

    def king_domino(self, king: int) -> int:
        for n, k in self.current_claims.items():
            if k == king:
                return n
        raise StopIteration  # as next() on an empty search did

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
        kind = type(action)  # most moves: an exact class is the quickest test
        phase = self.phase
        if phase == "turn" and check:
            # a legal placement or claim of the turns, played as _place and _claim play it with fewer steps;
            # anything amiss (nothing changed yet) goes to them, and they say what
            if kind is Place:
                if self.step == "place":
                    king = self.order[self.turn]
                    p = action.player  # type: ignore[union-attr]  # a Place
                    if self.king_owner[king] == p:
                        for own, k in self.current_claims.items():  # noqa: B007 (king_domino(king), inlined)
                            if k == king:
                                break
                        else:
                            own = -1
                        if action.number == own and self.kingdoms[p]._check(  # type: ignore[union-attr]
                                self.dominoes[own], action.first, action.second, True) is None:  # type: ignore[union-attr]
                            if self.next:
                                self.step = "claim"
                            else:
                                self._advance()
                            self.history.append(action)
                            return
            elif kind is Claim and self.step == "claim":
                p, n = action.player, action.number  # type: ignore[union-attr]  # a Claim
                turn = self.turn
                king = self.order[turn]
                if self.king_owner[king] == p and n in self.next and n not in self.next_claims:
                    self.next_claims[n] = king
                    if turn + 1 < len(self.order):  # _advance, within the round
                        self.turn = turn + 1
                        self.step = "place"
                    else:
                        self._advance()
                    self.history.append(action)
                    return
        elif phase == "over":
            raise self._fail("kd-after-end")
        if kind is Place:
            self._place(action, check)  # type: ignore[arg-type]
        elif kind is Claim:
            self._claim(action, check)  # type: ignore[arg-type]
        elif isinstance(action, Deal):
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

    def apply_undoable(self, action: Action) -> Undo:
        """Play ``action`` (checked: an illegal one raises and changes nothing); the record that
        :meth:`undo` takes it back with, at the cost of one move."""
        record = Undo(self, action)
        self.apply(action)
        return record

    def undo(self, record: Undo) -> None:
        """Take back the last action, played by :meth:`apply_undoable` with ``record``."""
        action = self.history.pop()
        if isinstance(action, Deal):
            for n in action.numbers:
                del self.dealt[n]
        elif isinstance(action, Place | Discard):
            k = self.kingdoms[action.player]
            if isinstance(action, Place):
                del k.cells[action.first], k.cells[action.second]
                k.placed.pop()
            k.minx, k.maxx, k.miny, k.maxy = record.box
            k.discards = record.discards
        self.phase, self.step, self.turn = record.phase, record.step, record.turn
        self.first_order, self.order, self.lines_dealt = record.first_order, record.order, record.lines_dealt
        self.current, self.current_claims = record.current, record.current_claims
        self.next, self.next_claims = record.next, dict(record.next_claims)
        del self.discarded[record.discarded:]
        del self._round_marks[record.marks:]
        self._scores = record.scores

    def _deal(self, action: Deal, check: bool) -> None:
        if check:
            if self.phase != "deal":
                raise self._fail("kd-unexpected", expected=self.expected(), got="a deal")
            if len(action.numbers) != self.row.line_size:
                raise self._fail("kd-deal-size", players=len(self.players), expected=self.row.line_size,
                                 got=len(action.numbers))
            seen: set[int] = set()
            dominoes, dealt = self.dominoes, self.dealt
            for n in action.numbers:
                if n not in dominoes:
                    raise self._fail("kd-deal-unknown", domino=n)
                if n in dealt or n in seen:
                    where = f"in deal {dealt[n] + 1}" if n in dealt else "twice in this deal"
                    raise self._fail("kd-deal-repeat", domino=n, first=where)
                seen.add(n)
        dealt, line = self.dealt, self.lines_dealt
        for n in action.numbers:
            dealt[n] = line
        self.lines_dealt = line + 1
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
            if n not in self.next or n in self.next_claims:
                self._check_claim(n)  # raises
        self.next_claims[n] = self.order[self.turn]
        if self.turn + 1 < len(self.order):  # _advance, within the round
            self.turn += 1
            self.step = "place"
        else:
            self._advance()

    def _check_claim(self, n: int) -> None:
        if n not in self.next:
            raise self._fail("kd-claim-not-in-line", domino=n, line=" ".join(map(str, self.next)))
        if n in self.next_claims:
            raise self._fail("kd-claim-taken", domino=n, owner=self.players[self.king_owner[self.next_claims[n]]])

    def _place(self, action: Place | Discard, check: bool) -> None:
        p, n = action.player, action.number
        if check:
            if self.phase != "turn" or self.step != "place":
                kind = "a placement" if isinstance(action, Place) else "a discard"
                raise self._fail("kd-unexpected", expected=self.expected(), got=f"{kind} by {self.players[p]}")
            owner = self.king_owner[self.order[self.turn]]
            if owner != p:
                raise self._fail("kd-wrong-player", expected=self.players[owner], actor=self.players[p],
                                 why="turn order follows the line being placed")
        king = self.order[self.turn]
        for own, k in self.current_claims.items():  # noqa: B007 (king_domino(king), inlined)
            if k == king:
                break
        else:
            raise StopIteration
        if check and n != own:
            raise self._fail("kd-wrong-domino", actor=self.players[p], expected=own, domino=n)
        domino = self.dominoes[n]
        kingdom = self.kingdoms[p]
        if type(action) is Place or isinstance(action, Place):
            if not check:
                if action.first in kingdom.cells or action.second in kingdom.cells:
                    self._overwritten = True
                kingdom.place(domino, action.first, action.second)
            else:
                bad = kingdom._check(domino, action.first, action.second, True)  # place_if_legal
                if bad is not None:
                    code, info = bad
                    size = kingdom.size
                    a, b = cell_name(action.first, size), cell_name(action.second, size)
                    cell = info.get("cell")
                    raise self._fail(code, domino=n, a=a, b=b, actor=self.players[p], size=size,
                                     cell=cell_name(cell, size) if cell else "", w=info.get("w"), h=info.get("h"))
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
        kingdoms = [k.copy() for k in self.kingdoms] if self._overwritten else self.kingdoms
        self._round_marks.append([(k, len(k.cells), len(k.placed), k.discards, (k.minx, k.maxx, k.miny, k.maxy))
                                  for k in kingdoms])

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
        """Scores, ranks (with the edition's tie-breaks) and winners, as the game stands: over once
        terminal. The standings are :class:`Standing` values in seat order."""
        scores = self.scores()
        discards = [k.discards for k in self.kingdoms]
        known = self._outcome
        if known is not None and known[0] is scores and known[1] == self.phase and known[2] == discards:
            return known[3]
        ranks = rank([tiebreak_key(self.rs, s) for s in scores])
        standings = tuple(Standing(i, self.players[i], s, r, self.kingdoms[i].discards)
                          for i, (s, r) in enumerate(zip(scores, ranks, strict=True)))
        winners = tuple(st.name for st in standings if st.rank == 1)
        best = max(s.total for s in scores)
        if len(winners) > 1:
            reason = f"tied on {counted(best, 'point')} and on every tie-break"
        elif sum(s.total == best for s in scores) > 1:
            reason = f"{counted(best, 'point')}, the tie broken by the edition's tie-breaks"
        else:
            reason = counted(best, "point")
        out = Outcome(self.is_terminal(), winners, reason, standings)
        self._outcome = (scores, self.phase, discards, out)
        return out


def _tables(rs: KingdominoRuleset) -> tuple[dict[int, Domino], Kingdom]:
    """The dominoes by number and an empty kingdom of ``rs`` (never handed out: copied), made once per
    ruleset (shared: they never change)."""
    key = (rs.dominoes, rs.terrains, rs.kingdom_size, rs.castle_wild, rs.min_matching_edges, rs.diagonal_connects)
    known = rs.derived.get("state")
    if known is None or known[0] != key:
        known = rs.derived["state"] = (key, {d.number: d for d in rs.dominoes}, Kingdom.for_rules(rs))
    return known[1], known[2]


class Undo:
    """What one action may change in a :class:`KingdominoState`, as it was before: the lists and
    dicts an action replaces (rather than changes) are kept as they are, ``next_claims`` as a copy."""

    __slots__ = ("box", "current", "current_claims", "discarded", "discards", "first_order", "lines_dealt",
                 "marks", "next", "next_claims", "order", "phase", "scores", "step", "turn")

    def __init__(self, st: KingdominoState, action: Action) -> None:
        self.phase, self.step, self.turn = st.phase, st.step, st.turn
        self.first_order, self.order, self.lines_dealt = st.first_order, st.order, st.lines_dealt
        self.current, self.current_claims = st.current, st.current_claims
        self.next, self.next_claims = st.next, st.next_claims.copy()
        self.discarded, self.marks, self.scores = len(st.discarded), len(st._round_marks), st._scores
        self.box = (0, 0, 0, 0)
        self.discards = 0
        if isinstance(action, Place | Discard) and 0 <= action.player < len(st.kingdoms):
            k = st.kingdoms[action.player]
            self.box, self.discards = (k.minx, k.maxx, k.miny, k.maxy), k.discards


# A kingdom as it stood at a round end: kingdoms only grow (squares are never covered in a checked
# game), so the first ``cells`` squares and ``placed`` numbers of the kingdom now, with the bounding
# box and discards of then, give it back without copying every kingdom at every round end.
_Mark = tuple[Kingdom, int, int, int, tuple[int, int, int, int]]


def _mark_kingdom(mark: _Mark) -> Kingdom:
    k, cells, placed, discards, box = mark
    return k._copy(dict(islice(k.cells.items(), cells)), k.placed[:placed], box, discards)
