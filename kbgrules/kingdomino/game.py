"""A Kingdomino game to play move by move from code, as python-chess plays chess.

>>> import kbgrules
>>> game = kbgrules.new_game("kingdomino", ["Ann", "Bob"])
>>> game.push_text("deal 4 22 28 46")
Deal(numbers=(4, 22, 28, 46))
>>> game.push_text("kings Ann Bob Bob Ann")
DrawKings(order=(0, 1, 1, 0))
>>> game.turn
'Ann'
>>> [game.move_text(m) for m in game.legal_moves()]
['Ann claim 4', 'Ann claim 22', 'Ann claim 28', 'Ann claim 46']
>>> move = game.push_text("Ann claim 46")
>>> game.is_legal(game.parse_move("Bob claim 46"))
False
>>> game.pop() == move
True

Chance moves are moves too: :meth:`KingdominoGame.is_chance` says one comes next,
:meth:`~KingdominoGame.chance_outcomes` lists them with their probabilities and
:meth:`~KingdominoGame.sample_chance` draws one. A bot plays a whole game from the set-up:

>>> import random
>>> rng = random.Random(1)
>>> game = kbgrules.new_game("kingdomino", ["Ann", "Bob"])
>>> while not game.is_over():
...     game.push(game.sample_chance(rng) if game.is_chance() else rng.choice(game.legal_moves()))
>>> len(game.moves), game.outcome().winners
(55, ('Bob',))
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import TYPE_CHECKING

import kbgrules.core.args as args  # compiled, `from kbgrules.core import args` gave None before its first import
from kbgrules.core.logfile import Event, LogSyntaxError, lines
from kbgrules.errors import AmbiguousMoveError, IllegalMoveError, KbgError
from kbgrules.kingdomino.kingdom import Cell, Kingdom, cell_name
from kbgrules.kingdomino.model import Domino, Half, KingdominoRuleset
from kbgrules.kingdomino.state import (
    Action,
    Claim,
    Deal,
    Discard,
    DrawKings,
    KingdominoState,
    Outcome,
    Place,
    Undo,
)

if TYPE_CHECKING:
    import random

    from kbgrules.kingdomino.log import Parsed

Move = Action
MOVES = (Deal, DrawKings, Claim, Place, Discard)  # the Action union, for isinstance at the API's boundary


def move_line(players: Sequence[str], size: int, move: Move) -> str:
    """``move`` as a log line, the players named from ``players``, cells on the board of ``size``."""
    if isinstance(move, Deal):
        return "deal " + " ".join(map(str, move.numbers))
    if isinstance(move, DrawKings):
        return "kings " + " ".join(players[p] for p in move.order)
    if isinstance(move, Claim):
        return f"{players[move.player]} claim {move.number}"
    if isinstance(move, Place):
        return f"{players[move.player]} place {move.number} {cell_name(move.first, size)} " \
               f"{cell_name(move.second, size)}"
    if isinstance(move, Discard):
        return f"{players[move.player]} discard {move.number}"
    raise TypeError(f"not a Kingdomino move: {move!r}")


class KingdominoGame:
    """A game in progress, with its moves: :meth:`legal_moves`, :meth:`is_legal`, :meth:`push`,
    :meth:`push_text`, :meth:`move_text`, :meth:`pop`, :meth:`copy`, :meth:`outcome` and
    :meth:`position_text`. Players are named; moves are the values of
    :mod:`kbgrules.kingdomino.state` (``Claim``, ``Place`` with castle-relative cells...), written
    and read in the log notation (``Ann place 20 f5 g5``). Chance events (a ``deal``, the draw of
    ``kings``) are moves too, pushed by whoever runs the game: :meth:`is_chance`,
    :meth:`chance_outcomes`, :meth:`sample_chance`."""

    def __init__(self, rs: KingdominoRuleset, players: Sequence[str], *, state: KingdominoState | None = None,
                 moves: Sequence[Move] = (), from_position: bool = False) -> None:
        self.rs = rs
        self._state = state if state is not None else KingdominoState(rs, players)
        self._undo: list[Undo] = []  # one record per move pushed here (not those of a replayed log)
        self.moves: list[Move] = list(moves)  # the moves pushed so far (a replayed log's, too)
        self._from_position = from_position  # replayed from a stated position: ``moves`` start there

    # ---------------------------------------------------------------- reading the game

    @property
    def players(self) -> tuple[str, ...]:
        return self._state.players

    @property
    def state(self) -> KingdominoState:
        """The engine's state (read it; change the game only through :meth:`push` and :meth:`pop`)."""
        return self._state

    @property
    def turn(self) -> str | None:
        """The name of the player to move, or None at a chance event (a deal, the draw of kings),
        during free first claims, and at the end."""
        p = self._state.current_player()
        return None if p is None else self.players[p]

    def kingdom(self, player: str) -> Kingdom:
        """``player``'s kingdom (a copy)."""
        return self._state.kingdoms[self._player(player)].copy()

    def is_over(self) -> bool:
        return self._state.is_terminal()

    def outcome(self) -> Outcome | None:
        """Scores, ranks and winners once the game is over; None before."""
        return self._state.outcome() if self._state.is_terminal() else None

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move (none at a chance event: push a chance outcome)."""
        st = self._state
        return [] if st.kings_due() else st.legal_actions()

    def is_chance(self) -> bool:
        """Whether chance moves next: the deal of a line, or the draw of kings after the first deal.
        (A log may leave the draw out; then the first claims come in any order, and :meth:`push`
        takes them here too.)"""
        st = self._state
        return st.is_chance() or st.kings_due()

    def chance_outcomes(self) -> Sequence[tuple[Move, float]]:
        """At a chance event every outcome with its probability; empty elsewhere. A deal is any
        ``line_size`` of the dominoes not dealt yet, each deal 1/C(n, line_size): a lazy sequence
        (:class:`kbgrules.kingdomino.chance.Deals`), not a list of 194,580 deals. The draw of
        kings is every order of the kings by owner, all as likely (A, B, B, A with the snake option)."""
        from kbgrules.kingdomino.chance import deals, king_draws

        st = self._state
        if st.is_chance():
            return deals(st)
        if st.kings_due():
            return king_draws(st)
        return []

    def sample_chance(self, rng: random.Random) -> Move:
        """One chance outcome, drawn by its probability (a deal without listing them all)."""
        from kbgrules.core.args import random_source
        from kbgrules.kingdomino.chance import deals, sample_kings

        random_source(rng)
        st = self._state
        if st.is_chance():
            return deals(st).sample(rng)
        if st.kings_due():
            return sample_kings(st, rng)
        raise KbgError(f"no chance event now: {st.expected()} comes next", code="no-chance")

    def is_legal(self, move: Move) -> bool:
        """Whether :meth:`push` would accept ``move`` now."""
        args.move(move, MOVES)
        try:
            record = self._state.apply_undoable(move)
        except IllegalMoveError:
            return False
        self._state.undo(record)
        return True

    def placement_problems(self, player: str, domino: int | Domino | tuple[Half, Half] | tuple[str, str],
                           first: Cell | str, second: Cell | str) -> list[IllegalMoveError]:
        """Every rule that placing ``domino`` on ``player``'s kingdom, its first half on ``first``
        and its second on ``second``, would break, as errors (not raised) with code, rule id and
        message; empty when it is legal. ``domino`` is a number, a domino, or two squares (``Half``
        values, or grid codes like ``("W1", "F")``); cells are names (``e6``) or offsets from the
        castle. Whose turn it is does not matter.

        >>> import kbgrules
        >>> game = kbgrules.new_game("kingdomino", ["Ann", "Bob"])
        >>> [e.code for e in game.placement_problems("Ann", ("W1", "F"), "e6", "j6")]
        ['kd-cells-apart', 'kd-too-big']
        """
        from kbgrules.kingdomino.kingdom import letters, parse_cell, square, violation

        args.text(player, "player")
        if not (isinstance(domino, (int, Domino)) and not isinstance(domino, bool)) and not (
                isinstance(domino, tuple) and len(domino) == 2 and all(isinstance(x, (str, Half)) for x in domino)):
            raise TypeError(f"domino must be a number, a Domino or two squares, not {type(domino).__name__}")
        args.cell(first, "first")
        args.cell(second, "second")
        size = self.rs.kingdom_size
        if isinstance(domino, int):
            d = self.rs.domino(domino)
        elif isinstance(domino, Domino):
            d = domino
        else:
            h1, h2 = (square(self.rs, x) if isinstance(x, str) else x for x in domino)
            d = Domino(0, h1, h2)
        cells = []
        for c in (first, second):
            cell = parse_cell(c, size) if isinstance(c, str) else c
            if cell is None:
                raise LogSyntaxError(f"{c!r} is not a cell", 1, "log-cell")
            cells.append(cell)
        a, b = cells
        k = self._state.kingdoms[self._player(player)]
        codes = letters(self.rs)
        name = d.number or "-".join(codes[h.terrain] + (str(h.crowns) if h.crowns else "") for h in d.halves)
        return [violation(self.rs, code, domino=name, a=cell_name(a, size), b=cell_name(b, size),
                          actor=player, size=size, cell=cell_name(info["cell"], size) if "cell" in info else "",
                          w=info.get("w"), h=info.get("h"))
                for code, info in k.placement_problems(d, a, b)]

    # ---------------------------------------------------------------- moving

    def push(self, move: Move) -> None:
        """Play ``move``; an illegal one raises :class:`~kbgrules.errors.IllegalMoveError` (with its
        code, rule id and message) and changes nothing."""
        args.move(move, MOVES)
        self._undo.append(self._state.apply_undoable(move))
        self.moves.append(move)

    def parse_move(self, text: str) -> Move:
        """The move a log line names (``Ann place 20 f5 g5``, ``deal 1 2 3 4``). ``Ann place 20 f5``,
        with one cell, is the placement with its first half there, when only one is legal
        (:class:`~kbgrules.errors.AmbiguousMoveError` otherwise)."""
        from kbgrules.kingdomino.log import Parsed

        item = self._read(text)
        if isinstance(item, Parsed):
            raise LogSyntaxError(f"{text.strip()!r} is a {item.kind} statement, not a move", 1)
        return item

    def push_text(self, text: str) -> Move | None:
        """Read one log line and play it; returns the move. A checkpoint (``expect score Ann 12``,
        ``expect winner Bob``, ``expect kingdom Ann`` with the grid on the next, indented lines) is
        checked instead, as ``kbg check`` checks it: one that fails raises its
        :class:`~kbgrules.errors.IllegalMoveError` (``kd-checkpoint``); one that holds returns None
        and changes nothing (it is not a move: :attr:`moves` and :meth:`pop` do not see it)."""
        from kbgrules.kingdomino.log import Parsed, check_checkpoint

        item = self._read(text)
        if isinstance(item, Parsed):
            if item.kind != "expect":
                raise LogSyntaxError(f"{text.strip()!r} is a {item.kind} statement, not a move", 1)
            check_checkpoint(self._state, item)
            return None
        self.push(item)
        return item

    def _read(self, text: str) -> Move | Parsed:
        """A move or a statement from one log line (and the indented grid rows under it)."""
        from kbgrules.kingdomino.log import Parser

        args.text(text, "text")
        first, *rest = lines(text.strip("\r\n")) or [""]
        block = [(i, row) for i, row in enumerate(rest, 2) if row.strip()]
        words = first.split()
        if len(words) == 4 and words[1] == "place" and words[0] in self.players and not block:
            return self._short_place(words)
        if not words:
            raise LogSyntaxError("an empty move", 1)
        event = Event.from_text(1, " ".join(words))
        if block:
            if "kingdom" not in words[:2]:
                raise LogSyntaxError("only a kingdom grid may be indented under an event", 1)
            event.block = block
        return Parser("<move>", self.rs, self.players).parse(event)

    def move_text(self, move: Move) -> str:
        """``move`` in the log notation."""
        args.move(move, MOVES)
        return move_line(self.players, self.rs.kingdom_size, move)

    def pop(self) -> Move:
        """Take back the last move pushed; returns it."""
        if not self._undo:
            raise KbgError("no move to take back", code="no-move")
        self._state.undo(self._undo.pop())
        return self.moves.pop()

    def __copy__(self) -> KingdominoGame:  # copy.copy and copy.deepcopy: copy(), the ruleset shared
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> KingdominoGame:
        return self.copy()

    def __reduce__(self) -> tuple[object, ...]:  # pickled as its moves, pushed again (the ruleset as its load)
        if self._from_position:
            raise TypeError("a Kingdomino game replayed from a stated position cannot be pickled (its start is not "
                            "kept): pickle its position_text(); kbgrules.read_games(text)[0].replay() gives it back")
        return _unpickled, (self.rs, self.players, tuple(map(self.move_text, self.moves)), len(self._undo))

    def copy(self) -> KingdominoGame:
        """An independent copy (its moves can be taken back too)."""
        other = KingdominoGame(self.rs, self.players, state=self._state.copy(), moves=self.moves,
                               from_position=self._from_position)
        other._undo = self._undo.copy()  # the records are never changed: they can be shared
        return other

    # ---------------------------------------------------------------- positions

    def _headers(self) -> list[str]:
        rs = self.rs
        return [f"@game {rs.game.id}", f"@edition {rs.edition.id}", *(f"@variant {v.id}" for v in rs.variants),
                "@players " + " ".join(self.players)]

    def log_text(self) -> str:
        """The game so far as a log: its headers and the line of every move (of a game started at its
        set-up; a game replayed from a stated position gives the moves after it)."""
        return "\n".join([*self._headers(), *(self.move_text(m) for m in self.moves)]) + "\n"

    def position_text(self) -> str:
        """A log that starts here (docs/log-format.md): the headers, then, past the first round, a
        ``@start position`` block stating the game as the current round began (the kingdoms, the
        dominoes dealt, who stands on the line to place), then the moves of the round so far. So
        any moment can be stated: between two rounds there are no moves after the position; in the
        first round there is no position, only the first deal, the draw of kings and the claims."""
        from kbgrules.kingdomino.kingdom import letters

        st, rs, names = self._state, self.rs, self.players
        head = self._headers()
        kingdoms, moves = self._round_so_far()
        lines = [self.move_text(m) for m in moves]
        if kingdoms is None:
            return "\n".join([*head, *lines]) + "\n"
        codes = letters(rs)
        out = [f"{name} kingdom\n" + "\n".join("    " + row for row in k.grid_text(codes).splitlines())
               for name, k in zip(names, kingdoms, strict=True)]
        out += [f"{name} discards {k.discards}" for name, k in zip(names, kingdoms, strict=True) if k.discards]
        dealt = sorted((n for n in st.dealt if n not in st.next), key=lambda n: (st.dealt[n], n))
        out.append("out " + " ".join(map(str, dealt)))
        owner = st.king_owner
        out.append("line " + " ".join(f"{n}:{names[owner[st.current_claims[n]]]}" for n in st.current))
        return "\n".join([*head, "@start position", *out, *lines]) + "\n"

    def _round_so_far(self) -> tuple[list[Kingdom] | None, list[Move]]:
        """The kingdoms as the current round began (None: the game began with it, at the set-up),
        and the moves made since."""
        st = self._state
        if st.phase == "deal":
            return (st.kingdoms if st.lines_dealt else None), []
        if st.phase == "first":
            moves: list[Move] = [Deal(tuple(st.next))]
            if st.first_order is not None:
                moves.append(DrawKings(tuple(st.king_owner[k] for k in st.first_order)))
            moves += [Claim(st.king_owner[k], n) for n, k in st.next_claims.items()]
            return None, moves
        acted = st.order[:st.turn + (st.phase == "turn" and st.step == "claim")]
        moves = [Deal(tuple(st.next))] if st.next else []
        claimed = {k: n for n, k in st.next_claims.items()}
        placed = [0] * len(self.players)
        discarded = [0] * len(self.players)
        for king in acted:
            p = st.king_owner[king]
            n = st.king_domino(king)
            k = st.kingdoms[p]
            if n in k.placed:
                at = len(k.cells) - 2 * (len(k.placed) - k.placed.index(n))  # placed squares come in pairs, in order
                first, second = islice(k.cells, at, at + 2)
                moves.append(Place(p, n, first, second))
                placed[p] += 1
            else:
                moves.append(Discard(p, n))
                discarded[p] += 1
            if king in claimed:
                moves.append(Claim(p, claimed[king]))
        kingdoms = []
        for k, m, d in zip(st.kingdoms, placed, discarded, strict=True):
            cells = dict(islice(k.cells.items(), len(k.cells) - 2 * m))
            xs, ys = [x for x, _ in cells], [y for _, y in cells]
            kingdoms.append(k._copy(cells, k.placed[:len(k.placed) - m], (min(xs), max(xs), min(ys), max(ys)),
                                    k.discards - d))
        return kingdoms, moves

    # ---------------------------------------------------------------- helpers

    def _player(self, name: str) -> int:
        try:
            return self.players.index(name)
        except ValueError:
            raise KbgError(f"{name!r} is not a player of this game ({', '.join(self.players)})",
                           code="log-player") from None

    def _short_place(self, words: list[str]) -> Move:
        from kbgrules.kingdomino.kingdom import parse_cell

        p = self._player(words[0])
        first = parse_cell(words[3], self.rs.kingdom_size)
        if first is None or not (words[2].isascii() and words[2].isdigit()):
            raise LogSyntaxError(f"expected: {words[0]} place N CELL [CELL]", 1)
        number = int(words[2])
        fits = [m for m in self.legal_moves()
                if isinstance(m, Place) and m.player == p and m.number == number and m.first == first]
        if len(fits) == 1:
            return fits[0]
        if not fits:  # the engine says why, for the first orientation
            self._state.copy().apply(Place(p, number, first, (first[0] + 1, first[1])))
        raise AmbiguousMoveError(
            f"{' '.join(words)} could be " + " or ".join(self.move_text(m) for m in fits) + ": name both cells",
            [self.move_text(m) for m in fits])


def _unpickled(rs: KingdominoRuleset, players: tuple[str, ...], moves: tuple[str, ...], undo: int) -> KingdominoGame:
    game = KingdominoGame(rs, players)
    for text in moves:
        game.push_text(text)
    del game._undo[:len(game._undo) - undo]  # as many moves to take back as the game pickled had
    return game
