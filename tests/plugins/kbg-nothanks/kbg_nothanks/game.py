"""A No Thanks! game to play move by move from code: a :class:`kbgrules.core.protocols.Game`.

>>> import kbgrules
>>> game = kbgrules.new_game("nothanks", ["Ann", "Bob", "Cid"])
>>> game.is_chance(), game.turn
(True, None)
>>> game.push_text("reveal 27")
Reveal(card=27)
>>> [game.move_text(m) for m in game.legal_moves()]
['Ann take', 'Ann pass']
>>> game.push_text("Ann pass")
Pass(player=0)
>>> game.push_text("Bob take")
Take(player=1)
>>> game.state.chips, game.turn, game.is_chance()
([10, 12, 11], None, True)
>>> print(game.position_text())
@game nothanks
@edition standard
@players Ann Bob Cid
@start position
Ann has chips 10
Bob has chips 12 cards 27
Cid has chips 11
next Bob
<BLANKLINE>
>>> game.pop()
Take(player=1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kbg_nothanks.log import Parsed, Parser, check_checkpoint, position_lines
from kbg_nothanks.model import NoThanksRuleset
from kbg_nothanks.state import Move, NoThanksState, Pass, Remove, Reveal, Take
from kbgrules.core.logfile import Event, LogSyntaxError
from kbgrules.core.outcome import Outcome
from kbgrules.errors import KbgError

if TYPE_CHECKING:
    import random

MOVES = (Remove, Reveal, Take, Pass)


def move_line(names: Sequence[str], move: Move) -> str:
    """``move`` as a log line."""
    if isinstance(move, Remove):
        return "remove " + " ".join(map(str, move.cards))
    if isinstance(move, Reveal):
        return f"reveal {move.card}"
    if isinstance(move, Take):
        return f"{names[move.player]} take"
    if isinstance(move, Pass):
        return f"{names[move.player]} pass"
    raise TypeError(f"not a No Thanks! move: {move!r}")


class NoThanksGame:
    """A game in progress. Moves are :mod:`kbg_nothanks.state`'s ``Take`` and ``Pass`` (decisions) and
    ``Remove`` and ``Reveal`` (chance: :meth:`is_chance`, :meth:`chance_outcomes`,
    :meth:`sample_chance`), written and read in the log notation (``Ann pass``, ``reveal 27``).
    ``push`` and ``pop`` cost one move: the state keeps an undo record per move, a replayed log's too."""

    def __init__(self, rs: NoThanksRuleset, players: Sequence[str], *, state: NoThanksState | None = None) -> None:
        self.rs = rs
        self._state = state if state is not None else NoThanksState(rs, players)

    # ---------------------------------------------------------------- reading the game

    @property
    def players(self) -> tuple[str, ...]:
        return self._state.names

    @property
    def state(self) -> NoThanksState:
        """The engine's state (read it; change the game only through :meth:`push` and :meth:`pop`)."""
        return self._state

    @property
    def turn(self) -> str | None:
        """The player to decide; None at a chance event (a removal, a card to turn) and at the end."""
        st = self._state
        return st.names[st.to_act] if st.phase() == "decide" else None

    @property
    def moves(self) -> list[Move]:
        """The moves pushed so far (a replayed log's too; a stated position's moves are not known)."""
        return [m for m, _ in self._state.done]

    def is_over(self) -> bool:
        return self._state.is_terminal()

    def outcome(self) -> Outcome | None:
        """The standings and winners once the game is over; None before."""
        return self._state.outcome() if self._state.is_terminal() else None

    def legal_moves(self) -> list[Move]:
        return self._state.legal_moves()

    def is_chance(self) -> bool:
        """Whether chance moves next: the cards removed before play (a log may leave them out: then the
        first ``reveal`` is pushed here), or a card to turn."""
        return self._state.is_chance()

    def chance_outcomes(self) -> Sequence[tuple[Move, float]]:
        """At a chance event every outcome with its probability; empty elsewhere. The removal is any
        nine cards, those the rules always remove among them (a lazy sequence of the 38,567,100
        removals); a card turned is any card not seen yet, all as likely."""
        from kbg_nothanks.chance import removals, reveals

        phase = self._state.phase()
        if phase == "remove":
            return removals(self._state)
        return reveals(self._state) if phase == "reveal" else []

    def sample_chance(self, rng: random.Random) -> Move:
        """One chance outcome, drawn by its probability."""
        from kbg_nothanks.chance import removals
        from kbgrules.core.args import random_source

        random_source(rng)
        st = self._state
        phase = st.phase()
        if phase == "remove":
            return removals(st).sample(rng)
        if phase == "reveal":
            return Reveal(rng.choice(st.unseen()))
        raise KbgError(f"no chance event now: {st.expected()} comes next", code="no-chance")

    def is_legal(self, move: Move) -> bool:
        if not isinstance(move, MOVES):
            return False
        try:
            self._state.check(move)
        except KbgError:
            return False
        return True

    # ---------------------------------------------------------------- moving

    def push(self, move: Move) -> None:
        """Play ``move``; an illegal one raises :class:`~kbgrules.errors.IllegalMoveError` (code, rule
        id, message) and changes nothing."""
        if not isinstance(move, MOVES):
            raise TypeError(f"not a No Thanks! move: {move!r}")
        self._state.apply(move)

    def parse_move(self, text: str) -> Move:
        """The move a log line names (``Ann take``, ``reveal 27``, ``remove 3 4 ...``)."""
        item = self._read(text)
        if isinstance(item, Parsed):
            raise LogSyntaxError(f"{text.strip()!r} is a {item.kind} statement, not a move", 1)
        return item

    def push_text(self, text: str) -> Move | None:
        """Read one log line and play it; returns the move. A checkpoint (``expect score Ann 12``,
        ``expect chips Ann 3``, ``expect winner Bob``) is checked instead, as ``kbg check`` checks it: one
        that fails raises ``nt-checkpoint``; one that holds returns None and changes nothing."""
        item = self._read(text)
        if isinstance(item, Parsed):
            if item.kind != "expect":
                raise LogSyntaxError(f"{text.strip()!r} is a {item.kind} statement, not a move", 1)
            check_checkpoint(self._state, item)
            return None
        self.push(item)
        return item

    def _read(self, text: str) -> Move | Parsed:
        line = text.split("#", 1)[0].strip()
        if not line:
            raise LogSyntaxError("an empty move", 1)
        return Parser(self.players).parse(Event.from_text(1, line))

    def move_text(self, move: Move) -> str:
        return move_line(self.players, move)

    def pop(self) -> Move:
        """Take back the last move; returns it."""
        if not self._state.done:
            raise KbgError("no move to take back", code="no-move")
        return self._state.undo_last()

    def copy(self) -> NoThanksGame:
        """An independent copy (its moves can be taken back too)."""
        return NoThanksGame(self.rs, self.players, state=self._state.copy())

    def __copy__(self) -> NoThanksGame:  # copy.copy and copy.deepcopy: copy(), the ruleset shared
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> NoThanksGame:
        return self.copy()

    # ---------------------------------------------------------------- logs and positions

    def _headers(self) -> list[str]:
        rs = self.rs
        return [f"@game {rs.game.id}", f"@edition {rs.edition.id}", *(f"@variant {v.id}" for v in rs.variants),
                "@players " + " ".join(self.players)]

    def log_text(self) -> str:
        """The game so far as a log: the headers, the position it started from (if it did), every move."""
        start = self._state.start_lines
        head = [*self._headers(), *(["@start position", *start] if start else [])]
        return "\n".join([*head, *(self.move_text(m) for m in self.moves)]) + "\n"

    def position_text(self) -> str:
        """A log that starts here, at any moment: the headers, then (once the game has begun) a
        ``@start position`` block with every player's chips and cards, the removed cards if known, the
        face-up card and its chips, and who is next."""
        lines = position_lines(self._state)
        return "\n".join([*self._headers(), *(["@start position", *lines] if lines else [])]) + "\n"
