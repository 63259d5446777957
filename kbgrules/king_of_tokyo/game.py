"""A King of Tokyo game to play line by line from code (the :class:`kbgrules.Game` protocol).

King of Tokyo's chance is in its moves: a roll names its faces, a purchase the card revealed in
its place. So a game is its log: each move pushed is a log line, checked by replaying the game
with the same engine ``kbg check`` uses, and the set-up comes first as lines too (``first NAME``,
``market CARD CARD CARD``).

>>> import kbgrules
>>> game = kbgrules.new_game("king-of-tokyo", ["Ann", "Bob", "Cid"])
>>> game.push_text("first Ann")
>>> game.push_text("market heal tank energize")
>>> game.turn
'Ann'
>>> game.push_text("Ann roll 1 1 1 s s e")
Roll(faces=('1', '1', '1', 'smash', 'smash', 'energy'))
>>> [game.move_text(m) for m in game.legal_moves()]
['Ann keep']
>>> game.push_text("Ann keep")
Keep()
>>> game.state.monsters[0].location, game.state.monsters[0].vp
('city', 2)
>>> game.push_text("Bob roll 1 1 1 1 1 1")
Traceback (most recent call last):
...
kbgrules.errors.IllegalMoveError: it is Ann's turn, not Bob's
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from kbgrules.core.logfile import Event, GameText, Header, Token
from kbgrules.core.report import GameReport
from kbgrules.errors import IllegalMoveError, KbgError, LogSyntaxError
from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
from kbgrules.king_of_tokyo.monster import Outcome
from kbgrules.king_of_tokyo.moves import (
    SHORT,
    Action,
    Buy,
    Cure,
    Decide,
    EndTurn,
    Evolve,
    Keep,
    Play,
    Reroll,
    Roll,
    Sweep,
    Take,
    Tokens,
    Use,
)
from kbgrules.king_of_tokyo.state import KingOfTokyoState

Move = Action | None  # None: a set-up line (first, market, deck, tiles, evolutions, positions)


class KingOfTokyoGame:
    """A game in progress and its log lines; see the module docstring."""

    def __init__(self, rs: KingOfTokyoRuleset, players: Sequence[str], *, monsters: Sequence[str] = (),
                 tiles: str | None = None, lines: Sequence[str] = ()) -> None:
        self.rs = rs
        self._players = tuple(players)
        self.monsters = tuple(monsters)  # @monsters, for evolutions
        self.tiles = tiles  # @tiles, for the Dark Edition
        self.lines: list[str] = []  # the event lines pushed so far, set-up included
        self.moves: list[Move] = []  # what each line is (None for set-up lines)
        self._state: KingOfTokyoState | None = None
        for line in lines:
            self.push_text(line)

    # ---------------------------------------------------------------- reading the game

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def state(self) -> KingOfTokyoState:
        """The engine's state (read it; change the game only through :meth:`push` and :meth:`pop`).
        Before the set-up is complete (``first``, ``market``) it raises KbgError."""
        if self._state is None:
            raise KbgError("the game has not started: push its set-up first (first NAME, market CARD CARD CARD)",
                           code="not-started")
        return self._state

    @property
    def turn(self) -> str | None:
        """The monster to act (whose turn it is, or who must decide to yield); None before the set-up
        is complete and at the end."""
        st = self._state
        if st is None or st.over is not None:
            return None
        if st.phase == "decide" and st.pending:
            return self._players[st.pending[0]]
        return self._players[st.active]

    def is_over(self) -> bool:
        return self._state is not None and self._state.over is not None

    def outcome(self) -> Outcome | None:
        """Winners and why the game ended, once it is over; None before."""
        return self._state.over if self._state is not None else None

    def legal_moves(self) -> list[Action]:
        """The decisions open now (keep the dice, yield or stay, buy, sweep, end the turn). Rolls and
        the cards revealed are chance: push them with their outcome (``Ann roll 1 2 3 s s e``,
        ``Ann buy heal : tank``); a ``Buy`` or ``Sweep`` listed here names no card revealed yet."""
        return [] if self._state is None else self._state.legal_actions()

    def is_legal(self, move: Action | str) -> bool:
        """Whether :meth:`push` (or :meth:`push_text`, for a line) would accept ``move`` now."""
        try:
            self._checked([*self.lines, move if isinstance(move, str) else self.move_text(move)])
        except (IllegalMoveError, LogSyntaxError):
            return False
        return True

    # ---------------------------------------------------------------- moving

    def parse_move(self, text: str) -> Move:
        """The move a log line names; None for a set-up line. Raises LogSyntaxError."""
        from kbgrules.king_of_tokyo.parse import Parser

        words = text.split()
        if not words:
            raise LogSyntaxError("an empty move", 1)
        parsed = Parser(self.rs, self._players).parse(Event.from_text(1, " ".join(words)))
        if parsed.kind == "expect":
            raise LogSyntaxError(f"{text.strip()!r} is a checkpoint, not a move", 1)
        return parsed.action

    def push_text(self, text: str) -> Move:
        """Check one log line against the game so far and play it; returns its move (None for a set-up
        line). An illegal one raises IllegalMoveError and changes nothing."""
        line = " ".join(text.split())
        move = self.parse_move(line)
        lines = [*self.lines, line]
        state = self._checked(lines)
        self._state = state if self._started(lines) else None
        self.lines = lines
        self.moves.append(move)
        return move

    def push(self, move: Action) -> None:
        """Play ``move`` (written as :meth:`move_text` writes it)."""
        self.push_text(self.move_text(move))

    def move_text(self, move: Action) -> str:
        """``move`` as a log line."""
        st = self.state
        names = self._players

        def faces(fs: Sequence[str]) -> str:
            return " ".join(SHORT[f] for f in fs)

        def args(a: Sequence[str]) -> str:
            return "".join(f" {x}" for x in a)

        if isinstance(move, Roll):
            return f"{names[st.active]} roll {faces(move.faces)}".rstrip()
        if isinstance(move, Reroll):
            return f"{names[st.active]} reroll {faces(move.dice)} : {faces(move.faces)}"
        if isinstance(move, Keep):
            return f"{names[st.active]} keep"
        if isinstance(move, Decide):
            return f"{names[move.monster]} {'yield' if move.yields else 'stay'}"
        if isinstance(move, EndTurn):
            return f"{names[move.monster]} end"
        if isinstance(move, Buy):
            who = names[move.monster]
            if move.top:
                return f"{who} buy top {move.card}"
            if move.seller is not None:
                return f"{who} buy {move.card} from {names[move.seller]}"
            return f"{who} buy {move.card}" + (f" : {move.reveal}" if move.reveal else "")
        if isinstance(move, Sweep):
            return f"{names[move.monster]} sweep : " + " ".join(move.reveals)
        if isinstance(move, Use):
            return f"{names[move.monster]} use {move.card}{args(move.args)}"
        if isinstance(move, Play):
            return f"{names[move.monster]} play {move.card}{args(move.args)}"
        if isinstance(move, Cure):
            return f"{names[move.monster]} cure {move.token} {move.count}"
        if isinstance(move, Take):
            return f"{names[move.monster]} take {move.tile}"
        if isinstance(move, Tokens):
            return f"{names[move.monster]} tokens {move.count}"
        if isinstance(move, Evolve):
            drawn = " ".join(move.drawn)
            return f"{names[move.monster]} evolve {drawn}" + (
                f" keep {' '.join(move.kept)}" if len(move.drawn) > 1 and "?" not in move.drawn else "")
        raise TypeError(f"not a King of Tokyo move: {move!r}")

    def pop(self) -> Move:
        """Take back the last line pushed; returns its move."""
        if not self.lines:
            raise KbgError("no move to take back", code="no-move")
        lines = self.lines[:-1]
        self._state = self._checked(lines) if self._started(lines) else None
        self.lines = lines
        return self.moves.pop()

    def copy(self) -> KingOfTokyoGame:
        other = KingOfTokyoGame(self.rs, self._players, monsters=self.monsters, tiles=self.tiles)
        other.lines, other.moves, other._state = list(self.lines), list(self.moves), None
        if self._started(self.lines):
            other._state = other._checked(other.lines)
        return other

    # ---------------------------------------------------------------- positions

    def position_text(self) -> str:
        """A log that starts here: the headers, then each monster's state, the market and whose turn
        it is (docs/log-format.md, "Starting from a King of Tokyo position"). A King of Tokyo
        position is stated at the start of a turn, before the first roll, or in the buy phase."""
        head = ["@game king-of-tokyo", f"@edition {self.rs.edition.id}",
                *(f"@variant {v.id}" for v in self.rs.variants), "@players " + " ".join(self._players)]
        if self.monsters:
            head.append("@monsters " + " ".join(self.monsters))
        if self.tiles:
            head.append(f"@tiles {self.tiles}")
        st = self._state
        if st is None:
            return "\n".join([*head, *self.lines]) + "\n"
        at_start = st.phase == "roll" and st.rolls == 0 and not st.dice
        if not (at_start or st.phase == "buy") or st.over is not None:
            raise KbgError("a King of Tokyo position is stated at the start of a turn or in its buy phase; now: "
                           f"{st.expected()}", code="kot-position-moment")
        out = [_monster_line(m) for m in st.monsters]
        out.append("market " + " ".join(st.market))
        if st.discards:
            out.append("discard " + " ".join(c for c, n in sorted(st.discards.items()) for _ in range(n)))
        if st.deck_order:
            out.append("deck " + " ".join(st.deck_order))
        # the engine has given the start-of-turn effects already: `started` says so (`turn NAME` would repeat them)
        out.append(f"turn {self._players[st.active]} " + ("buy" if st.phase == "buy" else "started"))
        text = "\n".join([*head, *out]) + "\n"
        lost = unstated(st, KingOfTokyoGame._read_position(self.rs, self._players, self.monsters, self.tiles, out))
        if lost:
            raise KbgError("this King of Tokyo position holds what a position statement cannot say: "
                           + ", ".join(lost), code="kot-position-moment")
        return text

    @classmethod
    def _read_position(cls, rs: KingOfTokyoRuleset, players: Sequence[str], monsters: Sequence[str],
                       tiles: str | None, lines: Sequence[str]) -> KingOfTokyoState:
        game = cls(rs, players, monsters=monsters, tiles=tiles)
        return game._checked(lines)

    # ---------------------------------------------------------------- replay

    @staticmethod
    def _started(lines: Sequence[str]) -> bool:
        """Play can begin once the market is out (at the set-up, or in a stated position)."""
        return any(ln.split()[:1] == ["market"] for ln in lines)

    @classmethod
    def replayed(cls, rs: KingOfTokyoRuleset, players: Sequence[str], monsters: Sequence[str], tiles: str | None,
                 lines: Sequence[str], state: KingOfTokyoState | None) -> KingOfTokyoGame:
        """The game a checked log ended in: its event lines, and the state the checker reached."""
        from kbgrules.king_of_tokyo.parse import Parser

        game = cls(rs, players, monsters=monsters, tiles=tiles)
        parser = Parser(rs, game._players)
        for n, line in enumerate(lines, 1):
            parsed = parser.parse(Event.from_text(n, line))
            if parsed.kind != "expect":
                game.lines.append(line)
                game.moves.append(parsed.action)
        game._state = state if cls._started(game.lines) else None
        return game

    def _checked(self, lines: Sequence[str]) -> KingOfTokyoState:
        """Replay the log made of the headers and ``lines``; the state at its end, or the first
        problem raised (at its line)."""
        from kbgrules.king_of_tokyo.log import check_king_of_tokyo

        g = GameText(1, 1, [_header("game", "king-of-tokyo"), _header("players", *self._players)])
        if self.monsters:
            g.headers.append(_header("monsters", *self.monsters))
        if self.tiles:
            g.headers.append(_header("tiles", self.tiles))
        g.events = [Event.from_text(n, line) for n, line in enumerate(lines, 1)]
        report = GameReport("<game>", 1, 1)
        report.players = self._players
        state = check_king_of_tokyo("<game>", g, self.rs, report)
        for d in report.errors:
            raise LogSyntaxError(d.message, d.col, d.code).located("<game>", d.line, d.col)
        for v in report.violations:
            raise IllegalMoveError(v.code, v.rule, v.message)
        assert state is not None
        return state


# what a stated position does not restore, or restores by its own rules: the timeline, the turn count, the messages
_UNCOMPARED = frozenset(("turn_ends", "log", "turn_number"))


def unstated(st: KingOfTokyoState, back: KingOfTokyoState) -> list[str]:
    """What of ``st`` the position read back as ``back`` lost (state attribute names, and monster fields as
    ``NAME.field``): empty when the position says it all."""
    a, b = st._snapshot(), back._snapshot()
    lost = [k for k in a if k not in _UNCOMPARED and k != "monsters" and a[k] != b[k]]
    for m, n in zip(st.monsters, back.monsters, strict=True):
        for f in dataclasses.fields(m):
            x, y = getattr(m, f.name), getattr(n, f.name)
            if f.name == "shielded_turn":
                x, y = x == st.turn_number, y == back.turn_number
            if x != y:
                lost.append(f"{m.name}.{f.name}")
    if (st.enter_snapshot is not None and st.enter_snapshot[0] == st.turn_number) != (
            back.enter_snapshot is not None and back.enter_snapshot[0] == back.turn_number):
        lost.append("enter_snapshot")
    return lost


def _header(name: str, *values: str) -> Header:
    return Header(name, [Token(v, 1) for v in values], 1, 1)


def _monster_line(m: object) -> str:
    from kbgrules.king_of_tokyo.monster import Monster

    assert isinstance(m, Monster)
    parts = [f"{m.name} is", f"hp={m.hp}", f"vp={m.vp}", f"energy={m.energy}"]
    if m.location != "outside":
        parts.append(f"place={m.location}")
    if m.cards:
        parts.append("cards=" + ",".join(m.cards))
    parts += [f"{k}={v}" for k, v in m.tokens.items() if v and k in ("poison", "shrink", "smoke")]
    if m.wickedness:
        parts.append(f"wickedness={m.wickedness}")
    if m.tiles:
        parts.append("tiles=" + ",".join(m.tiles))
    if m.evolutions:
        parts.append("evolutions=" + ",".join(m.evolutions))
    if m.hand:
        parts.append("hand=" + ",".join(m.hand))
    if m.dice_tokens:
        parts.append(f"dicetokens={m.dice_tokens}")
    if m.eliminated:
        parts.append("eliminated")
    return " ".join(parts)
