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
"""

from __future__ import annotations

from collections.abc import Sequence

from kbgrules.core.logfile import Event, LogSyntaxError
from kbgrules.errors import AmbiguousMoveError, IllegalMoveError, KbgError
from kbgrules.kingdomino.kingdom import Cell, Kingdom, cell_name
from kbgrules.kingdomino.model import Domino, Half, KingdominoRuleset
from kbgrules.kingdomino.state import Action, Claim, Deal, Discard, DrawKings, KingdominoState, Outcome, Place

Move = Action


class KingdominoGame:
    """A game in progress, with its moves: :meth:`legal_moves`, :meth:`is_legal`, :meth:`push`,
    :meth:`push_text`, :meth:`move_text`, :meth:`pop`, :meth:`copy`, :meth:`outcome` and
    :meth:`position_text`. Players are named; moves are the values of
    :mod:`kbgrules.kingdomino.state` (``Claim``, ``Place`` with castle-relative cells...), written
    and read in the log notation (``Ann place 20 f5 g5``). Chance events (a ``deal``, the draw of
    ``kings``) are moves too, pushed by whoever runs the game."""

    def __init__(self, rs: KingdominoRuleset, players: Sequence[str], *, state: KingdominoState | None = None,
                 moves: Sequence[Move] = ()) -> None:
        self.rs = rs
        self._state = state if state is not None else KingdominoState(rs, players)
        self._stack: list[KingdominoState] = []
        self.moves: list[Move] = list(moves)  # the moves pushed so far (a replayed log's, too)

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
        """Every legal move of the player to move (none at a chance event: push the deal)."""
        return self._state.legal_actions()

    def is_legal(self, move: Move) -> bool:
        """Whether :meth:`push` would accept ``move`` now."""
        try:
            self._state.copy().apply(move)
        except IllegalMoveError:
            return False
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
        before = self._state.copy()
        self._state.apply(move)
        self._stack.append(before)
        self.moves.append(move)

    def parse_move(self, text: str) -> Move:
        """The move a log line names (``Ann place 20 f5 g5``, ``deal 1 2 3 4``). ``Ann place 20 f5``,
        with one cell, is the placement with its first half there, when only one is legal
        (:class:`~kbgrules.errors.AmbiguousMoveError` otherwise)."""
        from kbgrules.kingdomino.log import Parsed, Parser

        words = text.split()
        if len(words) == 4 and words[1] == "place" and words[0] in self.players:
            return self._short_place(words)
        try:
            item = Parser("<move>", self.rs, self.players).parse(Event.from_text(1, " ".join(words)))
        except IndexError:
            raise LogSyntaxError("an empty move", 1) from None
        if isinstance(item, Parsed):
            raise LogSyntaxError(f"{text.strip()!r} is a {item.kind} statement, not a move", 1)
        return item

    def push_text(self, text: str) -> Move:
        """Read one log line and play it; returns the move."""
        move = self.parse_move(text)
        self.push(move)
        return move

    def move_text(self, move: Move) -> str:
        """``move`` in the log notation."""
        names, size = self.players, self.rs.kingdom_size
        if isinstance(move, Deal):
            return "deal " + " ".join(map(str, move.numbers))
        if isinstance(move, DrawKings):
            return "kings " + " ".join(names[p] for p in move.order)
        if isinstance(move, Claim):
            return f"{names[move.player]} claim {move.number}"
        if isinstance(move, Place):
            return f"{names[move.player]} place {move.number} {cell_name(move.first, size)} " \
                   f"{cell_name(move.second, size)}"
        if isinstance(move, Discard):
            return f"{names[move.player]} discard {move.number}"
        raise TypeError(f"not a Kingdomino move: {move!r}")

    def pop(self) -> Move:
        """Take back the last move pushed; returns it."""
        if not self._stack:
            raise KbgError("no move to take back", code="no-move")
        self._state = self._stack.pop()
        return self.moves.pop()

    def copy(self) -> KingdominoGame:
        """An independent copy (its moves can be taken back too)."""
        other = KingdominoGame(self.rs, self.players, state=self._state.copy(), moves=self.moves)
        other._stack = [s.copy() for s in self._stack]
        return other

    # ---------------------------------------------------------------- positions

    def position_text(self) -> str:
        """A log that starts here: the headers and, past the start, a ``@start position`` block
        (docs/log-format.md). Kingdomino positions are stated between two rounds: after every king
        has claimed a domino of the latest line, before the next deal."""
        from kbgrules.kingdomino.kingdom import letters

        st, rs = self._state, self.rs
        head = ["@game kingdomino", f"@edition {rs.edition.id}", *(f"@variant {v.id}" for v in rs.variants),
                "@players " + " ".join(self.players)]
        if st.lines_dealt == 0:
            return "\n".join(head) + "\n"
        between = st.phase == "deal" or (st.phase == "turn" and st.turn == 0 and st.step == "place"
                                         and not st.next)
        if not between or st.phase == "first":
            raise KbgError("a Kingdomino position is stated between two rounds (every king on a domino of the "
                           f"latest line, before the next deal); now: {st.expected()}", code="kd-position-moment")
        out = [f"{name} kingdom\n" + "\n".join("    " + row for row in k.grid_text(letters(rs)).splitlines())
               for name, k in zip(self.players, st.kingdoms, strict=True)]
        out += [f"{name} discards {k.discards}" for name, k in zip(self.players, st.kingdoms, strict=True)
                if k.discards]
        dealt = sorted(st.dealt, key=lambda n: (st.dealt[n], n))
        out.append("out " + " ".join(map(str, dealt)))
        owner = st.king_owner
        out.append("line " + " ".join(f"{n}:{self.players[owner[st.current_claims[n]]]}" for n in st.current))
        return "\n".join([*head, "@start position", *out]) + "\n"

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

