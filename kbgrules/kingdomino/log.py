"""Kingdomino events in game logs: parsing, replay, checkpoints and positions (docs/log-format.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

from kbgrules.core.closest import did_you_mean
from kbgrules.core.logfile import Event, GameText, LogSyntaxError, PlayerNames, Token
from kbgrules.core.outcome import Outcome
from kbgrules.core.replay import players_ok, stopped_note
from kbgrules.core.report import GameReport
from kbgrules.core.words import counted, plural
from kbgrules.errors import Diagnostic, IllegalMoveError
from kbgrules.kingdomino.board import board_dict
from kbgrules.kingdomino.kingdom import (
    Kingdom,
    board_columns,
    board_offset,
    cell_name,
    corner_name,
    letters,
    parse_cell,
    violation,
)
from kbgrules.kingdomino.model import KingdominoRuleset, slot_shell
from kbgrules.kingdomino.positions import GridError, grid_to_kingdom, same_kingdom, split_rows
from kbgrules.kingdomino.result import kingdomino_result
from kbgrules.kingdomino.state import Action, Claim, Deal, Discard, DrawKings, KingdominoState, Place, Standing

KEYWORDS = {"deal", "kings", "expect", "out", "line", "discards"}
_CLAIMS: Final[dict[int, Claim]] = {}  # by player * 1024 + domino number
_NUMBERS: Final[dict[str, int]] = {str(n): n for n in range(1024)}  # the numbers as logs usually write them
POSITION_EVENTS = {"kingdom", "out", "line", "discards"}
_PLACE_SHELL: Final = slot_shell(Place)


class PositionError(Exception):
    """An impossible starting position, tied to the statement that states it."""

    def __init__(self, statement: Parsed, error: IllegalMoveError) -> None:
        super().__init__(error.message)
        self.statement = statement
        self.error = error


@dataclass(slots=True)
class Parsed:
    """A checkpoint (kind ``expect``) or a position statement (kind ``position``); actions stay bare."""

    event: Event
    kind: str  # expect, position
    what: str = ""
    player: int | None = None
    values: Sequence[Any] = ()
    kingdom: Kingdom | None = None


Step = tuple[Event, "Action | Parsed"]  # an event and what it says


def _int(tok: Token, what: str) -> int:
    if not (tok.text.isascii() and tok.text.isdigit()):
        raise LogSyntaxError(f"{what} must be a number, not {tok.text!r}", tok.col)
    return int(tok.text)


def _number(ev: Event, words: list[str], i: int, what: str) -> int:
    """Word ``i`` of ``ev`` as a number (like :func:`_int`, without making tokens)."""
    w = words[i]
    if w.isdigit() and w.isascii():
        return int(w)
    return _int(ev.tokens[i], what)


class Parser(PlayerNames):
    def __init__(self, file: str, rs: KingdominoRuleset, players: tuple[str, ...]) -> None:
        self.file = file
        self.rs = rs
        super().__init__(players)
        self.size = rs.kingdom_size
        self.cells = board_dict(self.size)  # the usual names (e5); others go through parse_cell

    def need(self, ev: Event, n: int, usage: str) -> None:
        if len(ev.tokens) != n:
            raise LogSyntaxError(f"expected: {usage}", ev.tokens[min(len(ev.tokens), n) - 1].col
                                 if len(ev.tokens) > n else ev.col)

    def cell(self, tok: Token) -> tuple[int, int]:
        c = parse_cell(tok.text, self.size)
        if c is None:
            off = board_offset(self.size)
            raise LogSyntaxError(f"{tok.text!r} is not a cell: a column letter and a row number, like "
                                 f"{cell_name((0, 1), self.size)} (the board has columns {board_columns(self.size)}, "
                                 f"rows 1-{2 * off + 1}; the castle is on {cell_name((0, 0), self.size)})", tok.col,
                                 "log-cell")
        return c

    def word_cell(self, ev: Event, words: list[str], i: int) -> tuple[int, int]:
        """The cell named by word ``i`` of ``ev``."""
        c = self.cells.get(words[i])
        if c is None:
            c = parse_cell(words[i], self.size)
            if c is None:
                return self.cell(ev.tokens[i])  # raises, with the column
        return c

    def grid(self, ev: Event) -> Kingdom:
        if not ev.block:
            raise LogSyntaxError("the kingdom's grid rows must follow, indented, on the next lines", ev.col)
        rows = [r for n, text in ev.block for r in split_rows(text, n)]
        try:
            kingdom, _ = grid_to_kingdom(rows, self.rs, self.size, self.file)
        except GridError as exc:
            d = exc.diagnostics[0]
            err = LogSyntaxError(d.message, d.col, "grid-cell")
            err.line = d.line  # the grid row's own line, not the event's
            raise err from None
        return kingdom

    def parse(self, ev: Event) -> Action | Parsed:
        words = ev.words
        head = words[0]
        who = self.index.get(head)
        if who is not None:  # most lines: names are never keywords (see check_kingdomino)
            fast = self.fast_move(who, words)
            return fast if fast is not None else self.player_event(ev, words)
        head = head.lower()  # keywords in any case: Deal, KINGS
        if head == "deal":
            if len(words) < 2:
                raise LogSyntaxError("expected: deal N N ... (the numbers of the dominoes revealed)", ev.col)
            numbers = words[1:]
            digits = "".join(numbers)
            if digits.isdigit() and digits.isascii():  # every word is a number
                return Deal(tuple(map(int, numbers)))
            return Deal(tuple([_number(ev, words, i, "a domino") for i in range(1, len(words))]))
        if head == "expect":
            return self.fast_expect(ev, words) or self.expect(ev)
        if head == "kings":
            if len(words) < 2:
                raise LogSyntaxError("expected: kings NAME NAME ... (the kings in the order drawn)", ev.col)
            index = self.index
            if all(w in index for w in words[1:]):
                return DrawKings(tuple([index[w] for w in words[1:]]))
            return DrawKings(tuple(self.player(x) for x in ev.tokens[1:]))  # raises, with the column
        t = ev.tokens
        if head in ("out", "line"):
            return self.position(ev, head)
        if len(t) > 1 and t[1].text.lower() in _VERBS:
            self.player(t[0])
        raise LogSyntaxError(f"unknown event {t[0].text!r}: an event starts with a player's name or one of "
                             "deal, kings, expect" + did_you_mean(head, ("deal", "kings", "expect")), ev.col)

    def fast_move(self, who: int, words: list[str]) -> Action | None:
        """A well-formed claim or placement (cells named the usual way, e.g. e5), else None.

        Nearly every line of a log is one of these; :meth:`player_event` reads the rest, and
        reports the errors.
        """
        n = len(words)
        number = words[2] if n > 2 else ""
        if not (number.isdigit() and number.isascii()):
            return None
        if n == 3 and words[1] == "claim":
            return Claim(who, int(number))
        if n == 5 and words[1] == "place":
            cells = self.cells
            a, b = cells.get(words[3]), cells.get(words[4])
            if a is not None and b is not None:
                return Place(who, int(number), a, b)
        return None

    def player_event(self, ev: Event, words: list[str]) -> Action | Parsed:
        who = self.index[words[0]]
        n = len(words)
        if n < 2:
            raise LogSyntaxError("expected a verb after the player: claim, place, discard, kingdom", ev.col)
        verb = words[1].lower()  # verbs in any case: Place, CLAIM
        if verb == "claim":
            if n != 3:
                self.need(ev, 3, "NAME claim N")
            return Claim(who, _number(ev, words, 2, "a domino"))
        if verb == "place":
            if n != 5:
                self.need(ev, 5, "NAME place N CELL CELL (the cells of the first and second half, e.g. e6 f6)")
            number = _number(ev, words, 2, "a domino")
            return Place(who, number, self.word_cell(ev, words, 3), self.word_cell(ev, words, 4))
        if verb == "discard":
            if n != 3:
                self.need(ev, 3, "NAME discard N")
            return Discard(who, _number(ev, words, 2, "a domino"))
        if verb == "kingdom":
            self.need(ev, 2, "NAME kingdom, then the grid rows indented below")
            return Parsed(ev, "position", what="kingdom", player=who, kingdom=self.grid(ev))
        if verb == "discards":
            self.need(ev, 3, "NAME discards N")
            return Parsed(ev, "position", what="discards", player=who, values=[_number(ev, words, 2, "a count")])
        raise LogSyntaxError(f"unknown verb {words[1]!r}: use claim, place, discard (or kingdom, discards in a "
                             "starting position)" + did_you_mean(verb, _VERBS), ev.tokens[1].col)

    def fast_expect(self, ev: Event, words: list[str]) -> Parsed | None:
        """``expect score NAME N`` and ``expect winner NAME...`` read from the words alone when they are
        well formed (None otherwise: :meth:`expect` reads and reports the rest)."""
        index = self.index
        n = len(words)
        if n == 4 and words[1] == "score" and words[2] in index and words[3].isdigit() and words[3].isascii():
            return Parsed(ev, "expect", what="score", player=index[words[2]], values=[int(words[3])])
        if n >= 3 and words[1] in ("winner", "winners") and all(w in index for w in words[2:]):
            return Parsed(ev, "expect", what="winner", values=[index[w] for w in words[2:]])
        return None

    def expect(self, ev: Event) -> Parsed:
        t = ev.tokens
        if len(t) < 3:
            raise LogSyntaxError("expected: expect score NAME N | expect winner NAME... | expect kingdom NAME",
                                 ev.col)
        what = t[1].text.lower()
        if what == "score":
            self.need(ev, 4, "expect score NAME N")
            return Parsed(ev, "expect", what="score", player=self.player(t[2]), values=[_int(t[3], "a score")])
        if what in ("winner", "winners"):
            return Parsed(ev, "expect", what="winner", values=[self.player(x) for x in t[2:]])
        if what == "kingdom":
            self.need(ev, 3, "expect kingdom NAME, then the grid rows indented below")
            return Parsed(ev, "expect", what="kingdom", player=self.player(t[2]), kingdom=self.grid(ev))
        raise LogSyntaxError(f"unknown checkpoint {what!r}: use score, winner or kingdom", t[1].col)

    def position(self, ev: Event, head: str) -> Parsed:
        t = ev.tokens
        if head == "out":
            return Parsed(ev, "position", what="out", values=[_int(x, "a domino") for x in t[1:]])
        claims = []
        for x in t[1:]:
            number, _, name = x.text.partition(":")
            if not (number.isascii() and number.isdigit()) or not name:
                raise LogSyntaxError(f"{x.text!r}: write each claimed domino as NUMBER:PLAYER", x.col)
            claims.append((int(number), self.player(Token(name, x.col + len(number) + 1))))
        return Parsed(ev, "position", what="line", values=claims)


_PLAYER_COLS = ("actor", "verb", "number", "first", "second")
_VERBS = ("claim", "place", "discard", "kingdom", "discards")


def _cols(ev: Event, item: Action | Parsed) -> dict[str, int]:
    """Columns of the parts of an action's line, by name, for pointing at the part that breaks a rule."""
    t = ev.tokens
    if isinstance(item, Deal):
        return {f"n{n}": x.col for n, x in zip(item.numbers, t[1:], strict=True)}
    if isinstance(item, Claim | Place | Discard):
        return {name: x.col for name, x in zip(_PLAYER_COLS, t, strict=False)}
    return {}


def _fail_col(ev: Event, item: Action | Parsed, exc: IllegalMoveError) -> int:
    code, c = exc.code, _cols(ev, item)
    if code == "kd-wrong-player":
        return c.get("actor", ev.col)
    if code in ("kd-claim-not-in-line", "kd-claim-taken", "kd-wrong-domino"):
        return c.get("number", ev.col)
    if code in ("kd-cells-apart",):
        return c.get("second", ev.col)
    if code == "kd-overlap":
        cell = exc.params.get("cell")
        key = "second" if cell and cell == exc.params.get("b") else "first"
        return c.get(key, ev.col)
    if code in ("kd-no-connection", "kd-too-big"):
        return c.get("first", ev.col)
    if code in ("kd-deal-unknown", "kd-deal-repeat"):
        return c.get(f"n{exc.params.get('domino')}", ev.col)
    if code == "kd-voluntary-discard":
        return c.get("verb", ev.col)
    return ev.col


def _grid_rows(k: Kingdom, letters: dict[str, str], codes: dict[str, dict[int, str]]) -> list[str]:
    return [" ".join(row) for row in k._rows(letters, codes)]


def _line_json(state: KingdominoState, numbers: list[int], claims: dict[int, int]) -> list[dict[str, Any]]:
    """A line of dominoes, lowest first, each with the player whose king stands on it (or None)."""
    return [{"domino": n, "king": state.players[state.king_owner[claims[n]]] if n in claims else None}
            for n in sorted(numbers)]


def next_json(state: KingdominoState) -> dict[str, Any] | None:
    """Who acts next and what the next log line must be: ``action`` is deal, claim, place (or discard)."""
    if state.phase == "over":
        return None
    if state.phase == "deal":
        return {"player": None, "action": "deal", "expects": state.expected()}
    player = state.current_player()
    action = "claim" if state.phase == "first" or state.step == "claim" else "place"
    return {"player": None if player is None else state.players[player], "action": action,
            "expects": state.expected()}


def final_json(state: KingdominoState, out: Outcome | None = None) -> dict[str, Any]:
    """The game as it stands, as JSON (``out``: its outcome, if already known)."""
    rs = state.rs
    known = rs.derived.get("letters")  # letters(rs) made once, and the cell codes made from them
    if known is None or known[0] is not rs.terrains:
        known = rs.derived["letters"] = (rs.terrains, letters(rs), {})
    letter: dict[str, str] = known[1]
    codes: dict[str, dict[int, str]] = known[2]
    out = out or state.outcome()
    standings: tuple[Standing, ...] = out.standings  # typed: compiled, native attribute reads
    over = state.is_terminal()
    return {
        "finished": over,
        "players": [
            {
                "name": s.name, "score": s.score.total, "rank": s.rank, "bonuses": dict(s.score.bonuses),
                "base": s.score.base, "largest_property": s.score.largest_property, "crowns": s.score.crowns,
                "discards": s.discards,
                "properties": [{"terrain": p.terrain, "squares": p.squares, "crowns": p.crowns,
                                "points": p.squares * p.crowns}
                               for p in s.score.properties],
                "kingdom": _grid_rows(state.kingdoms[s.player], letter, codes),
                "kingdom_corner": corner_name(state.kingdoms[s.player], state.rs.kingdom_size),
            }
            for s in standings
        ],
        "winners": list(out.winners) if over else [],
        "current_line": _line_json(state, state.current, state.current_claims),
        "next_line": _line_json(state, state.next, state.next_claims),
        "next": next_json(state),
    }


def check_checkpoint(st: KingdominoState, p: Parsed) -> None:
    """Compare the checkpoint ``p`` (``expect score``, ``winner``, ``kingdom``) with the game ``st``;
    a disagreement raises the violation ``kd-checkpoint``, as ``kbg check`` reports it."""
    rs, players = st.rs, st.players
    name = players[p.player] if p.player is not None else ""
    if p.what == "score":
        assert p.player is not None
        actual = st.scores()[p.player].total
        if actual != p.values[0]:
            raise violation(rs, "kd-checkpoint", what=f"{name}'s score", stated=p.values[0], actual=actual)
    elif p.what == "winner":
        named = sorted(players[i] for i in p.values)
        if not st.is_terminal():
            raise violation(rs, "kd-checkpoint", what="the winner", stated=", ".join(named),
                            actual=f"no winner yet ({st.expected()} comes next)")
        winners = sorted(st.outcome().winners)
        if named != winners:
            raise violation(rs, "kd-checkpoint", what="the winners", stated=", ".join(named),
                            actual=", ".join(winners))
    elif p.what == "kingdom":
        assert p.player is not None and p.kingdom is not None
        mine = st.kingdoms[p.player]
        if not same_kingdom(mine, p.kingdom):
            diff = sorted({c for c, _ in set(mine.cells.items()) ^ set(p.kingdom.cells.items())})
            where = cell_name(diff[0], mine.size) if diff else "?"
            rows = " / ".join(" ".join(r) for r in mine.rows(letters(rs)))
            raise violation(rs, "kd-checkpoint", what=f"{name}'s kingdom",
                            stated=f"a different kingdom (first difference at {where})", actual=rows)


class Replay:
    def __init__(self, file: str, rs: KingdominoRuleset, players: tuple[str, ...], report: GameReport) -> None:
        self.file = file
        self.rs = rs
        self.players = players
        self.report = report
        self.state = KingdominoState(rs, players)
        self.position_lines: list[Parsed] = []


    def fail(self, ev: Event, item: Action | Parsed, exc: IllegalMoveError) -> None:
        self.report.stop(ev.line, _fail_col(ev, item, exc), ev.col, exc.code, exc.rule, exc.message)

    def checkpoint(self, p: Parsed) -> None:
        check_checkpoint(self.state, p)

    def apply_position(self, items: list[Parsed]) -> None:
        """Set up the stated position; an impossible one raises (statement, error)."""
        where = {p.what: p for p in items}
        try:
            self._apply_position(items)
        except IllegalMoveError as exc:
            stmt = where.get(str(exc.params.get("at", "")), items[-1])
            raise PositionError(stmt, exc) from None

    def _apply_position(self, items: list[Parsed]) -> None:
        st = self.state
        rs = self.rs
        out: list[int] = []
        claims: list[tuple[int, int]] = []
        for p in items:
            if p.what == "kingdom":
                assert p.player is not None and p.kingdom is not None
                k = p.kingdom
                if (0, 0) not in k.cells or k.width > k.size or k.height > k.size:
                    exc = violation(rs, "kd-position", problem=f"{self.players[p.player]}'s kingdom needs one "
                                                               f"castle and at most {k.size}x{k.size} squares")
                    raise PositionError(p, exc)
                k.discards = st.kingdoms[p.player].discards
                st.kingdoms[p.player] = k
            elif p.what == "discards":
                assert p.player is not None
                st.kingdoms[p.player].discards = p.values[0]
            elif p.what == "out":
                out.extend(p.values)
            elif p.what == "line":
                claims.extend(p.values)
        for n in out:
            if n not in st.dominoes:
                raise violation(rs, "kd-deal-unknown", domino=n, at="out")
        if len(set(out)) != len(out):
            dup = next(n for n in out if out.count(n) > 1)
            raise violation(rs, "kd-position", problem=f"domino {dup} is listed twice in 'out'", at="out")
        row = st.row
        if not out or len(out) % row.line_size or len(out) // row.line_size > row.rounds:
            raise violation(rs, "kd-position", problem=f"'out' must list the dominoes of whole lines of "
                                                       f"{row.line_size} (at most {row.dominoes_used})", at="out")
        numbers = [n for n, _ in claims]
        if sorted(set(numbers)) != sorted(numbers) or any(n not in out for n in numbers):
            raise violation(rs, "kd-position", problem="each claimed domino must be listed once in 'out'",
                            at="line")
        per_player = [sum(1 for _, q in claims if q == i) for i in range(len(self.players))]
        if any(c != row.kings_per_player for c in per_player):
            raise violation(rs, "kd-position", problem=f"'line' must give each player {row.kings_per_player} "
                                                       "claimed domino(es)", at="line")
        self._check_placed(items, out, numbers)
        st.dealt = {n: i // row.line_size for i, n in enumerate(out)}
        st.lines_dealt = len(out) // row.line_size
        used = [0] * len(self.players)
        st.current_claims = {}
        for n, q in sorted(claims):
            st.current_claims[n] = q * row.kings_per_player + used[q]
            used[q] += 1
        st.current = sorted(numbers)
        st.next, st.next_claims = [], {}
        if st.lines_dealt < row.rounds:
            st.phase = "deal"
        else:
            st._start_turns()

    def _check_placed(self, items: list[Parsed], out: list[int], current: list[int]) -> None:
        """Warn when a stated position could not arise in play: each kingdom holds the dominoes its player
        placed from the lines before the current one ((lines - 1) x kings each, less its discards), and
        all the kingdoms' squares come from those dominoes. A warning, not an error: positions may be
        made-up puzzles."""
        from collections import Counter

        st, row = self.state, self.state.row
        before = len(out) // row.line_size - 1
        stmts = {p.player: p for p in items if p.what == "kingdom"}

        def warn(i: int | None, message: str) -> None:
            p = stmts.get(i, items[-1]) if i is not None else items[-1]
            self.report.notes.append(Diagnostic(self.file, p.event.line, 1, "kd-position-unlikely", message,
                                                "warning"))

        for i, k in enumerate(st.kingdoms):
            squares = len(k.cells) - 1
            want = 2 * (before * row.kings_per_player - k.discards)
            if squares != want:
                warn(i, f"{self.players[i]}'s kingdom has {counted(squares, 'square')}; after "
                        f"{counted(before, 'line')} placed and {counted(k.discards, 'discard')} a game gives {want}")
        placed = Counter((h.terrain, h.crowns) for n in out if n not in current for h in st.dominoes[n].halves)
        seen = Counter((h.terrain, h.crowns) for k in st.kingdoms for c, h in k.cells.items() if c != (0, 0))
        names = {t.id: t.name for t in self.rs.terrains}
        for (terrain, crowns), n in sorted((seen - placed).items()):
            what = f"{names.get(terrain, terrain)} {plural(n, 'square')}" + (
                f" with {counted(crowns, 'crown')}" if crowns else "")
            who = next(i for i, k in enumerate(st.kingdoms) if any(
                (h.terrain, h.crowns) == (terrain, crowns) for c, h in k.cells.items() if c != (0, 0)))
            warn(who, f"the kingdoms hold {n} more {what} than the placed dominoes in 'out' have")

    def run(self, steps: list[Step], stop_line: int | None) -> None:
        if stop_line is not None:  # the steps before the first at or past that line
            end = 0
            for ev, _ in steps:
                if ev.line >= stop_line:
                    break
                end += 1
            steps = steps[:end]
        position: list[Parsed] = []  # the statements of a starting position: they come first
        for _, item in steps:
            if type(item) is not Parsed or item.kind != "position":
                break
            position.append(item)
        if position and not self.start_position(position):
            return
        apply = self.state.apply
        for ev, item in steps[len(position):] if position else steps:
            try:
                if type(item) is not Parsed:  # an action: the common case (an exact class: the quickest test)
                    apply(item)  # type: ignore[arg-type]
                elif item.kind == "position":
                    raise violation(self.rs, "kd-position",
                                    problem="position statements belong at the start of a log with '@start position'")
                else:
                    self.checkpoint(item)
            except IllegalMoveError as exc:
                self.fail(ev, item, exc)
                return

    def start_position(self, position: list[Parsed]) -> bool:
        """Set up the stated position; False (with the violation reported) if it is impossible."""
        try:
            self.apply_position(position)
        except PositionError as err:
            self.fail(err.statement.event, err.statement, err.error)
            return False
        return True


def timeline(state: KingdominoState) -> list[dict[str, Any]]:
    """``kbg show``'s round-by-round scores of a replayed game."""
    from kbgrules.kingdomino.kingdom import score

    return [{"round": r + 1,
             "players": [{"name": n, "score": score(k, state.rs, discards=k.discards).total,
                          "squares": len(k.cells) - 1, "discards": k.discards}
                         for n, k in zip(state.players, kingdoms, strict=True)]}
            for r, kingdoms in enumerate(state.round_ends)]


def check_kingdomino(file: str, g: GameText, rs: KingdominoRuleset, report: GameReport) -> KingdominoState:
    """Replay one Kingdomino game into ``report`` (the core's replay loop); the state where the replay stopped."""
    players = report.players
    if not players_ok(file, g, report, KEYWORDS):
        return KingdominoState(rs, players)
    start = g.tag("start")
    from_position = start is not None and start.values[0].text == "position"
    if start is not None and start.values[0].text not in ("setup", "position"):
        report.errors.append(Diagnostic(file, start.line, start.values[0].col, "log-header",
                                        "@start is 'setup' or 'position'"))
        return KingdominoState(rs, players)
    parser = Parser(file, rs, players)
    index, cells = parser.index, parser.cells
    shell, new, numbers = _PLACE_SHELL, object.__new__, _NUMBERS

    def other(ev: Event) -> Action | Parsed:
        """What an event that is no well-formed claim or placement says."""
        if ev.block and not (len(ev.tokens) >= 2 and "kingdom" in (ev.tokens[1].text, ev.tokens[0].text)):
            report.errors.append(Diagnostic(file, ev.block[0][0], 1, "log-syntax",
                                            "only a kingdom grid may be indented under an event"))
        p = parser.parse(ev)
        if not from_position and isinstance(p, Parsed) and p.kind == "position":
            raise LogSyntaxError("position statements need '@start position' in the headers", ev.col)
        return p

    # core.replay.parse_events, the common claims and placements read in its loop (no call for them)
    steps: list[Step] = []
    add = steps.append
    stop: int | None = None
    for ev in g.events:
        words = ev.words
        who = index.get(words[0])
        if who is not None and not ev.block:  # a well-formed claim or placement: Parser.fast_move, inlined
            n = len(words)
            num = numbers.get(words[2]) if n > 2 else None  # the usual numbers (others: Parser.fast_move)
            if num is None:
                pass
            elif n == 5:
                if words[1] == "place":
                    a, b = cells.get(words[3]), cells.get(words[4])
                    if a is not None and b is not None:
                        if shell is None:
                            add((ev, Place(who, num, a, b)))
                            continue
                        place: Any = new(shell)  # Place(...), at a quarter of the cost
                        place.player = who
                        place.number = num
                        place.first = a
                        place.second = b
                        place.__class__ = Place
                        add((ev, place))
                        continue
            elif n == 3 and words[1] == "claim":
                key = who * 1024 + num  # the same claims come back game after game: one (frozen) object each
                claim = _CLAIMS.get(key)
                if claim is None:
                    claim = _CLAIMS[key] = Claim(who, num)
                add((ev, claim))
                continue
        try:
            add((ev, other(ev)))
        except LogSyntaxError as exc:
            report.errors.append(Diagnostic(file, exc.line or ev.line, exc.col, exc.code, exc.message))
            if stop is None:
                stop = ev.line
    if g.stop is not None and (stop is None or g.stop < stop):
        stop = g.stop

    replay = Replay(file, rs, players, report)
    replay.run(steps, stop)
    stopped_note(file, report, stop)
    out = replay.state.outcome()
    report.result = kingdomino_result(replay.state, out, final_json(replay.state, out))
    report.timeline_builder = partial(timeline, replay.state)  # the state only: no cycle through the report
    return replay.state
