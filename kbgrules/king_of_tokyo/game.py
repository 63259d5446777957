"""A King of Tokyo game to play move by move from code (the :class:`kbgrules.Game` protocol).

Each move pushed is applied to the engine's state at once (the same engine ``kbg check`` replays logs
with), with an undo record, so a push or a pop costs one move. Chance is in the API: where a roll, a
card revealed or a set-up draw comes next, :meth:`KingOfTokyoGame.is_chance` is true and
:meth:`~KingOfTokyoGame.chance_outcomes` lists what can happen. A decision whose log line carries its
chance part (``Ann reroll h : s``, ``Ann buy heal : tank``) is pushed first without it, then its outcome.

>>> import kbgrules
>>> game = kbgrules.new_game("king-of-tokyo", ["Ann", "Bob", "Cid"])
>>> game.is_chance(), game.turn
(True, None)
>>> game.push_text("first Ann")
Setup(what='first', text='first Ann', monster=0, values=())
>>> _ = game.push_text("market heal tank energize")
>>> len(game.chance_outcomes())  # Ann's roll: the multisets of 6 dice
462
>>> game.push_text("Ann roll 1 1 1 s s e")
Roll(faces=('1', '1', '1', 'smash', 'smash', 'energy'))
>>> game.turn, [game.move_text(m) for m in game.legal_moves()][:3]
('Ann', ['Ann keep', 'Ann reroll s :', 'Ann reroll s s :'])
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

import itertools
import random
from collections.abc import Sequence
from typing import Any, cast, get_args

import kbgrules.core.args as args  # compiled, `from kbgrules.core import args` gave None before its first import
from kbgrules.core.logfile import Event
from kbgrules.core.report import GameReport
from kbgrules.core.words import counted
from kbgrules.errors import IllegalMoveError, KbgError, LogSyntaxError
from kbgrules.king_of_tokyo.chance import (
    Choices,
    Multisets,
    completes,
    draw,
    is_decision,
    keep_count,
    outcomes,
    reveals,
    setup_outcomes,
    sweep_count,
    swept,
)
from kbgrules.king_of_tokyo.hooks import supported, usable
from kbgrules.king_of_tokyo.log import Replay
from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
from kbgrules.king_of_tokyo.monster import Outcome
from kbgrules.king_of_tokyo.moves import (
    Action,
    Camouflage,
    ChanceNeeded,
    Decide,
    EndTurn,
    Evolve,
    Keep,
    Play,
    Setup,
    Sweep,
    Take,
    Use,
    move_line,
    violation,
)
from kbgrules.king_of_tokyo.parse import Parsed, Parser
from kbgrules.king_of_tokyo.positions import position_lines, unstated
from kbgrules.king_of_tokyo.state import KingOfTokyoState

Move = Action | Camouflage | Setup
MOVES: tuple[type, ...] = (*get_args(Action), Camouflage, Setup)  # for isinstance at the API's boundary


class _Undo:
    """What :meth:`KingOfTokyoGame.pop` puts back for one line: the state before its move (None for a set-up
    line), and the move waiting for Camouflage dice before it, if any."""

    __slots__ = ("camo", "decided", "enter", "history", "must_end", "pending", "snapshot")

    def __init__(self, snapshot: dict[str, Any] | None, history: int, enter: Any, must_end: bool,
                 pending: Action | None = None, camo: tuple[Camouflage, ...] = (),
                 decided: Action | None = None) -> None:
        self.snapshot = snapshot
        self.history = history
        self.enter = enter
        self.must_end = must_end
        self.pending = pending
        self.camo = camo
        self.decided = decided  # the decision pushed alone before the chance part that completed it


class KingOfTokyoGame:
    """A game in progress and its log lines; see the module docstring."""

    def __init__(self, rs: KingOfTokyoRuleset, players: Sequence[str], *, monsters: Sequence[str] = (),
                 tiles: str | None = None, lines: Sequence[str] = ()) -> None:
        self.rs = rs
        self._players = tuple(players)
        self.monsters = tuple(monsters)  # @monsters, for evolutions
        self.tiles = tiles  # @tiles, for the Dark Edition
        self.lines: list[str] = []  # the event lines pushed so far, set-up included (not the checkpoints)
        self.moves: list[Move] = []  # what each line is
        self._parser = Parser(rs, self._players)
        self._replay = self._new_replay()
        self._state: KingOfTokyoState | None = None
        self._began = False  # a turn event came: the set-up is over
        self._undo: list[_Undo | None] = []
        self._pending: Action | None = None  # a decision waiting for its chance part, or a move for Camouflage dice
        self._camo: list[Camouflage] = []  # the Camouflage dice given for the pending move
        self._need: ChanceNeeded | None = None  # the Camouflage dice the pending move waits for
        for line in lines:
            self.push_text(line)

    def _new_replay(self) -> Replay:
        report = GameReport("<game>", 1, 1)
        report.players = self._players
        return Replay("<game>", self.rs, self._players, report, self.monsters, self.tiles or "")

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
        """The monster to decide (whose turn it is, or who must decide to yield); None at a chance node
        (a roll, a card revealed, the set-up) and at the end."""
        st = self._state
        if st is None or st.over is not None or self.is_chance():
            return None
        if isinstance(self._pending, Evolve):
            return self._players[self._pending.monster]
        if st.phase == "decide" and st.pending:
            return self._players[st.pending[0]]
        return self._players[st.active]

    def is_over(self) -> bool:
        return self._state is not None and self._state.over is not None

    def outcome(self) -> Outcome | None:
        """Winners and why the game ended, once it is over; None before."""
        return self._state.over if self._state is not None else None

    def legal_moves(self) -> list[Action]:
        """The decisions open now: keep the dice or pick some to re-roll (``Reroll(dice, ())``), yield or stay,
        buy (``Buy(monster, card, None)``), sweep (``Sweep(monster, ())``), take a wickedness tile, keep
        evolutions drawn, end the turn. A decision that reveals cards or rolls dice makes the game a chance
        node until its outcome is pushed; none at a chance node."""
        st = self._state
        if st is None or st.over is not None or self.is_chance():
            return []
        pending = self._pending
        if isinstance(pending, Evolve):
            keep = keep_count(st, pending)
            return [Evolve(pending.monster, pending.drawn, k) for k in
                    dict.fromkeys(tuple(sorted(c)) for c in itertools.combinations(pending.drawn, keep))]
        if st.phase == "roll":
            return [Keep(), *st.open_rerolls(), *self._extras(st)]
        if st.phase == "decide":
            return [d for d in st.legal_actions() if isinstance(d, Decide) and (not d.yields or self._may_yield(st, d))]
        me = st.me
        owed = [lv for lv in me.owed if st.tiles_left(lv)] if not me.eliminated else []
        out: list[Action] = []
        for a in st.legal_actions():
            if isinstance(a, EndTurn) and owed:
                continue
            if isinstance(a, Sweep) and len(reveals(st, sweep_count(st), swept(st))) == 0:
                continue
            out.append(a)
        if owed:
            out += [Take(st.active, t) for t in st.tiles_left(owed[0]) if supported(st.cards, f"tile:{t}")]
        return out + self._extras(st)

    def _extras(self, st: KingOfTokyoState) -> list[Action]:
        """What the monster whose turn it is may also do now: use a card or play an evolution that
        takes no argument; each tried first. (Cures are not offered: whether one stands is only known
        when the dice are resolved, so a cure could leave no legal move.)"""
        me, m = st.active, st.me
        if m.eliminated or not (m.cards or m.hand):
            return []
        moves: list[Action] = [Use(me, c, ()) for c in dict.fromkeys(m.cards) if usable(st.cards, c)]
        moves += [Play(me, c, ()) for c in dict.fromkeys(m.hand) if c != "?" and supported(st.cards, f"evolution:{c}")]
        return [a for a in moves if self._try(a)]

    def _may_yield(self, st: KingOfTokyoState, d: Decide) -> bool:
        try:
            for k in st.alive():
                if k != d.monster:
                    for hook in st.hooks_at(st.monsters[k], "may_yield"):
                        hook.may_yield(st, k, d.monster)
        except IllegalMoveError:
            return False
        return True

    def is_legal(self, move: Move | str) -> bool:
        """Whether :meth:`push` (or :meth:`push_text`, for a line) would accept ``move`` now. Costs one move:
        the move is tried and taken back."""
        if not isinstance(move, str):
            args.move(move, MOVES)
        other = self.copy() if isinstance(move, Setup) or (isinstance(move, str) and self._is_setup(move)) \
            else None
        try:
            if other is not None:
                other.push_text(move) if isinstance(move, str) else other.push(move)
                return True
            n = len(self.lines)
            pending, camo = self._pending, len(self._camo)
            self.push_text(move) if isinstance(move, str) else self.push(move)
        except (IllegalMoveError, LogSyntaxError):
            return False
        if len(self.lines) > n:
            while len(self.lines) > n:
                self.pop()
        elif self._pending is not pending or len(self._camo) != camo:
            self.pop()
        return True

    def _is_setup(self, text: str) -> bool:
        return isinstance(self.parse_move(text), Setup)

    # ---------------------------------------------------------------- chance (kbgrules.king_of_tokyo.chance)

    def is_chance(self) -> bool:
        """Whether chance comes next: a set-up draw (the first player, the market, the tile sides, drafted
        evolution decks), a roll, the dice of a re-roll picked, the cards a buy or a sweep reveals, an
        evolution draw, Camouflage dice."""
        return self._chance() is not None

    def chance_outcomes(self) -> Sequence[tuple[Move, float]]:
        """Every chance outcome now, a move to push, with its probability (a lazy sequence); empty at a
        decision. Dice are multisets (faces in the order 1 2 3 e h s), cards too (sorted ids)."""
        found = self._chance()
        return cast("Sequence[tuple[Move, float]]", found) if found is not None else ()

    def sample_chance(self, rng: random.Random) -> Move:
        """A chance outcome drawn by its probability."""
        from kbgrules.core.args import random_source

        random_source(rng)
        move: Move = draw(self._chance(), rng)
        return move

    def _chance(self) -> Multisets | Choices | None:
        if not self._began:
            setup = setup_outcomes(self.rs, self._players, self._replay.setup_lines, self._state)
            if setup is not None:
                return setup
        st = self._state
        if st is None or st.over is not None:
            return None
        return outcomes(st, self._pending, self._need)

    # ---------------------------------------------------------------- moving

    def parse_move(self, text: str) -> Move:
        """The move a log line names (a ``Setup`` for a set-up or position line). Raises LogSyntaxError,
        for a checkpoint too."""
        parsed = self._parse(text)
        if parsed.kind == "expect":
            raise LogSyntaxError(f"{text.strip()!r} is a checkpoint, not a move", 1)
        return self._move(parsed)

    def _parse(self, text: str) -> Parsed:
        args.text(text, "text")
        words = text.split()
        if not words:
            raise LogSyntaxError("an empty move", 1)
        return self._parser.parse(Event.from_text(1, " ".join(words)))

    @staticmethod
    def _move(parsed: Parsed) -> Move:
        if parsed.kind == "setup":
            values = (tuple(parsed.event.words[2:]) if parsed.what == "first"  # the moment, as the line says it
                      else tuple(str(v) for v in parsed.values) if parsed.what != "monster" else ())
            return Setup(parsed.what, " ".join(parsed.event.words), parsed.monster, values)
        if parsed.kind == "camouflage":
            assert parsed.monster is not None
            return Camouflage(parsed.monster, tuple(parsed.values))
        assert parsed.action is not None
        return parsed.action

    def push_text(self, text: str) -> Move | None:
        """Check one log line against the game so far and play it; returns its move. An illegal one raises
        IllegalMoveError and changes nothing. A checkpoint (``expect ...``, or ``turn NAME`` once play has
        begun) is checked as ``kbg check`` checks it: a failed one raises the checker's IllegalMoveError, a
        passing one returns None and is neither a move nor a line."""
        parsed = self._parse(text)
        if parsed.kind == "expect" or (parsed.kind == "setup" and parsed.what == "first" and self._began):
            st = self._begin()
            try:
                if parsed.kind == "expect":
                    self._replay.checkpoint(st, parsed)
                else:
                    self._replay.turn_marker(st, parsed)
            except IllegalMoveError as exc:
                raise IllegalMoveError(exc.code, exc.rule, exc.message, exc.params) from None
            return None
        move = self._move(parsed)
        self._push(move, parsed.monster, parsed)
        return move

    def push(self, move: Move) -> None:
        """Play ``move``: a decision from :meth:`legal_moves`, a chance outcome, or any move a log line names."""
        args.move(move, MOVES)
        if isinstance(move, Setup):
            self._push(move, move.monster, self._parse(move.text))
        else:
            self._push(move, getattr(move, "monster", None), None)

    def _push(self, move: Move, actor: int | None, parsed: Parsed | None) -> None:
        if isinstance(move, Setup):
            assert parsed is not None
            self._push_setup(move, parsed)
            return
        st = self._begin()
        pending = self._pending
        if isinstance(move, Camouflage):
            if self._need is None or pending is None:
                raise violation(self.rs, "kot-camouflage",
                                problem=f"no Camouflage dice are needed here: {self._players[move.monster]} "
                                        "has just lost no life that Camouflage could cancel")
            self._camo.append(move)
            try:
                self._apply(st, pending, getattr(pending, "monster", None))
            except IllegalMoveError:
                self._camo.pop()
                raise
            return
        if self._need is not None:
            need = self._need
            raise violation(self.rs, "kot-camouflage",
                            problem=f"{self._players[need.monster]} holds Camouflage and loses {need.count} life "
                                    f"here: the next move must give {counted(need.count, 'die', 'dice')}")
        if pending is not None and not completes(pending, move):
            raise violation(self.rs, "kot-unexpected", expected=f"the outcome of {self.move_text(pending)}",
                            got=self._text_of(move))
        if isinstance(move, Evolve) and not move.kept and len(move.drawn) > keep_count(st, move) \
                and len(set(move.drawn)) > 1:
            self._check_draw(st, move)
            self._pending = move  # the draw is known: the monster chooses what it keeps
            return
        if pending is None and is_decision(st, move):
            if move not in self.legal_moves():
                raise violation(self.rs, "kot-unexpected", expected=st.expected(), got=self._text_of(move))
            self._pending = move
            return
        self._apply(st, move, actor)

    def _text_of(self, move: Move) -> str:
        try:
            return self.move_text(move)
        except (KbgError, TypeError):
            return repr(move)

    def _check_draw(self, st: KingOfTokyoState, move: Evolve) -> None:
        """A draw whose keep is still to choose must be legal with some choice."""
        full = Evolve(move.monster, move.drawn, move.drawn[:keep_count(st, move)])
        if not self._try(full):
            self._apply(st, full, move.monster)  # raises the checker's error

    def _try(self, move: Action) -> bool:
        st = self.state
        rec = self._record(st)
        try:
            self._replay.check_actor(st, move, getattr(move, "monster", None))
            st.apply(move)
        except (IllegalMoveError, ChanceNeeded, KbgError):
            self._restore(st, rec)
            return False
        self._restore(st, rec)
        return True

    def _record(self, st: KingOfTokyoState, move: Action | None = None) -> _Undo:
        snapshot = st._snapshot() if move is None or self._camo else st._snapshot_before(move)
        return _Undo(snapshot, len(st.history), st.enter_snapshot, self._replay.must_end, None, tuple(self._camo))

    def _restore(self, st: KingOfTokyoState, rec: _Undo) -> None:
        assert rec.snapshot is not None
        st._restore(rec.snapshot)
        del st.history[rec.history:]
        st.enter_snapshot = rec.enter
        self._replay.must_end = rec.must_end

    def _apply(self, st: KingOfTokyoState, move: Action, actor: int | None) -> None:
        """Apply ``move`` with the Camouflage dice given so far; wait for more if it needs them."""
        rec = self._record(st, move)
        try:
            for c in self._camo:
                st.camouflage_roll(c.monster, c.faces)
            self._replay.check_actor(st, move, actor)
            st.apply(move)
        except ChanceNeeded as need:
            self._restore(st, rec)
            self._pending, self._need = move, need
            return
        except BaseException:
            self._restore(st, rec)
            raise
        self._began = True
        text = self.move_text(move, before=rec)
        camo = self._camo
        decided = self._pending if self._pending is not None and self._pending is not move else None
        start = _Undo(rec.snapshot, rec.history, rec.enter, rec.must_end, decided=decided)
        self._undo.append(start)
        self.lines.append(text)
        self.moves.append(move)
        for j, c in enumerate(camo):
            self._undo.append(_Undo(rec.snapshot, rec.history, rec.enter, rec.must_end, move, tuple(camo[:j])))
            self.lines.append(move_line(c, self._players, self.state.active))
            self.moves.append(c)
        self._pending, self._camo, self._need = None, [], None

    def _push_setup(self, move: Setup, parsed: Parsed) -> None:
        if self._began:
            raise LogSyntaxError(f"'{parsed.event.tokens[0].text}' belongs before the first turn", 1)
        self._replay.setup_lines.append(parsed)
        self._rebuild()
        self._undo.append(None)
        self.lines.append(move.text)
        self.moves.append(move)

    def _rebuild(self) -> None:
        """The state the set-up lines give, once play can begin (the market is out, the drafted decks dealt)."""
        rp = self._replay
        self._state = rp.state = None
        if not any(p.what == "market" for p in rp.setup_lines):
            return
        if rp.drafting():
            return
        try:
            self._state = rp.begin()
        except IllegalMoveError:  # more set-up lines may come: the first turn event raises it (as the checker does)
            self._state = rp.state = None

    def _begin(self) -> KingOfTokyoState:
        """The state, made from the set-up lines at the first turn event if it is not made yet."""
        if self._state is None:
            try:
                self._state = self._replay.begin()
            except IllegalMoveError as exc:
                raise IllegalMoveError(exc.code, exc.rule, exc.message, exc.params) from None
        return self._state

    def move_text(self, move: Move, before: _Undo | None = None) -> str:
        """``move`` as a log line."""
        args.move(move, MOVES)
        st = self.state
        active = st.active if before is None else int(before.snapshot["active"]) if before.snapshot else st.active
        return move_line(move, self._players, active)

    def pop(self) -> Move:
        """Take back the last move pushed (a decision waiting for its chance part, or a line); returns it."""
        if self._camo:
            camo = self._camo.pop()  # the pending move waits for these dice again
            self._retry_need()
            return camo
        if self._pending is not None:
            waiting: Move = self._pending
            self._pending, self._need = None, None
            return waiting
        if not self.lines:
            raise KbgError("no move to take back", code="no-move")
        rec = self._undo.pop()
        self.lines.pop()
        move = self.moves.pop()
        if rec is None:
            self._replay.setup_lines.pop()
            self._rebuild()
            return move
        st = self.state
        self._restore(st, rec)
        if isinstance(move, Camouflage):  # the move it answered waits for it again, with the dice before it
            k = len(rec.camo)
            del self.lines[-(k + 1):], self.moves[-(k + 1):], self._undo[-(k + 1):]
            self._pending, self._camo, self._need = rec.pending, list(rec.camo), None
            self._retry_need()
        elif rec.decided is not None:  # the decision waits for its chance part again
            self._pending = rec.decided
        self._began = any(u is not None for u in self._undo)
        return move

    def _retry_need(self) -> None:
        """The Camouflage dice the pending move waits for, found by trying it."""
        st = self.state
        pending = self._pending
        assert pending is not None
        rec = self._record(st)
        try:
            for c in self._camo:
                st.camouflage_roll(c.monster, c.faces)
            st.apply(pending)
        except ChanceNeeded as need:
            self._need = need
        finally:
            self._restore(st, rec)

    def __copy__(self) -> KingOfTokyoGame:  # copy.copy and copy.deepcopy: copy(), the ruleset shared
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> KingOfTokyoGame:
        return self.copy()

    def __reduce__(self) -> tuple[object, ...]:  # pickled as its lines, pushed again (the ruleset as its load)
        waiting = [] if self._pending is None else [self.move_text(m) for m in (self._pending, *self._camo)]
        return _unpickled, (self.rs, self._players, self.monsters, self.tiles, (*self.lines, *waiting))

    def copy(self) -> KingOfTokyoGame:
        other = KingOfTokyoGame(self.rs, self._players, monsters=self.monsters, tiles=self.tiles)
        for move in self.moves:
            other.push(move)
        if self._pending is not None:
            other.push(self._pending)
            for c in self._camo:
                other.push(c)
        return other

    # ---------------------------------------------------------------- positions

    def _headers(self) -> list[str]:
        head = [f"@game {self.rs.game.id}", f"@edition {self.rs.edition.id}",
                *(f"@variant {v.id}" for v in self.rs.variants), "@players " + " ".join(self._players)]
        if self.monsters:
            head.append("@monsters " + " ".join(self.monsters))
        if self.tiles:
            head.append(f"@tiles {self.tiles}")
        return head

    def log_text(self) -> str:
        """The game so far as a log: its headers and the line of every move pushed, set-up included
        (a move whose chance part is still to come is not written yet)."""
        return "\n".join([*self._headers(), *self.lines]) + "\n"

    def position_text(self) -> str:
        """A log that starts here: the headers, then each monster's state, the market and whose turn
        it is and where in it (docs/log-format.md, "Starting from a King of Tokyo position"). Any moment
        of a game in progress whose position reads back the same (it is read back to make sure): not
        where a card holds what no statement says (a take-back of Tokyo pending, a use counted in this
        turn), nor while a move waits for its chance outcome, nor once the game is over."""
        head = self._headers()
        st = self._state
        if st is None:
            return "\n".join([*head, *self.lines]) + "\n"
        if self._pending is not None or self._need is not None:
            waiting = self._pending if self._pending is not None else "a loss of life"
            raise KbgError(f"{self._text_of(waiting) if isinstance(waiting, Action) else waiting} waits for its "
                           "chance outcome (chance_outcomes()): push one first", code="kot-position-moment")
        out = position_lines(st, self._replay.must_end)
        back = KingOfTokyoGame(self.rs, self._players, monsters=self.monsters, tiles=self.tiles)
        try:
            for line in out:
                back.push_text(line)
            lost = unstated(st, back._begin())
        except KbgError as exc:
            lost = [str(exc)]
        if lost:
            raise KbgError("this King of Tokyo position holds what a position statement cannot say: "
                           + ", ".join(lost), code="kot-position-moment")
        return "\n".join([*head, *out]) + "\n"

    # ---------------------------------------------------------------- replay

    @classmethod
    def replayed(cls, rs: KingOfTokyoRuleset, players: Sequence[str], monsters: Sequence[str], tiles: str | None,
                 lines: Sequence[str], state: KingOfTokyoState | None) -> KingOfTokyoGame:
        """The game a checked log ended in, its lines pushed one by one (so that :meth:`pop` can take them
        back); ``state`` is the checker's, which it ends in the same as."""
        game = cls(rs, players, monsters=monsters, tiles=tiles)
        for line in lines:
            game.push_text(line)
        return game


def _unpickled(rs: KingOfTokyoRuleset, players: tuple[str, ...], monsters: tuple[str, ...], tiles: str | None,
               lines: tuple[str, ...]) -> KingOfTokyoGame:
    return KingOfTokyoGame(rs, players, monsters=monsters, tiles=tiles, lines=lines)
