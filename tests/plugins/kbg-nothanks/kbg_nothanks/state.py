"""The state of a No Thanks! game and its moves: what a log replays and the game object plays.

A game goes: the nine cards removed (chance; a log may leave them unstated, as a table never sees
them), then, 24 times, a card turned face up (chance) and decisions on it, each player in turn
paying a chip onto it (``Pass``) until one takes it with the chips (``Take``) and turns the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kbg_nothanks.model import NoThanksRuleset
from kbgrules.core.outcome import Outcome


@dataclass(frozen=True, slots=True)
class Remove:
    """Chance: the cards taken out of the game before play (``remove 4 9 ...``)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Reveal:
    """Chance: the card turned face up (``reveal 27``)."""

    card: int


@dataclass(frozen=True, slots=True)
class Take:
    """A player takes the face-up card and the chips on it (``Ann take``)."""

    player: int


@dataclass(frozen=True, slots=True)
class Pass:
    """A player pays a chip onto the face-up card instead of taking it (``Ann pass``)."""

    player: int


Move = Remove | Reveal | Take | Pass


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's result: the points of their cards (runs counted by their lowest card), their
    chips, the score (points less chips) and the rank (1: lowest score; tied players share it)."""

    player: int
    name: str
    cards: tuple[int, ...]
    card_points: int
    chips: int
    score: int
    rank: int


def runs(cards: Sequence[int]) -> list[tuple[int, int]]:
    """The runs of consecutive numbers among ``cards``: (lowest, highest), lowest first."""
    out: list[tuple[int, int]] = []
    for c in sorted(cards):
        if out and c == out[-1][1] + 1:
            out[-1] = (out[-1][0], c)
        else:
            out.append((c, c))
    return out


def runs_text(cards: Sequence[int]) -> str:
    """``3 10-13 20``: the cards, each run as lowest-highest."""
    return " ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs(cards)) or "-"


Undo = tuple[str, int, int]  # what a move changed: its kind and two numbers (see NoThanksState.undo_last)


class NoThanksState:
    """A game in progress: ``phase()``, ``legal_moves()``, ``apply(move)`` (checked; each move keeps a
    small undo record), ``undo_last()``, ``outcome()``. Players are seat indexes; ``names`` their names."""

    def __init__(self, rs: NoThanksRuleset, names: Sequence[str]) -> None:
        self.rs = rs
        self.names = tuple(names)
        start = rs.setup_table[len(self.names)].chips
        self.chips = [start] * len(self.names)
        self.hands: list[list[int]] = [[] for _ in self.names]
        self.removed: tuple[int, ...] | None = None  # None: not stated (unseen)
        self.turned: list[int] = []  # every card turned, in order; the last one may still be face up
        self.offer: int | None = None  # the face-up card
        self.pot = 0  # the chips on it
        self.to_act = 0  # who decides next (after a take: who turns the next card, then decides)
        # (card, taker, chips taken, every player's chips after) per card taken, in order: kbg show
        self.takes: list[tuple[int, int, int, tuple[int, ...]]] = []
        self.done: list[tuple[Move, Undo]] = []  # every move applied, with what taking it back needs
        self.start_lines: list[str] = []  # the position statements it started from (none: the set-up)

    # ---------------------------------------------------------------- reading the state

    def phase(self) -> str:
        """``remove`` (the removal is due), ``reveal`` (a card is to be turned), ``decide``, ``over``."""
        if len(self.takes) >= self.rs.deck_size:
            return "over"
        if self.offer is not None:
            return "decide"
        return "reveal" if self.removed is not None or self.turned else "remove"

    def is_chance(self) -> bool:
        return self.phase() in ("remove", "reveal")

    def is_terminal(self) -> bool:
        return self.phase() == "over"

    def expected(self) -> str:
        """What the next log line must be, in words."""
        phase = self.phase()
        if phase == "over":
            return "nothing (the game is over)"
        if phase == "decide":
            name = self.names[self.to_act]
            return f"{name} take or {name} pass"
        if phase == "reveal":
            return "reveal N (the next card turned)"
        return f"remove N ... (the {self.rs.removed} cards out of the game) or reveal N (the first card turned)"

    def unseen(self) -> list[int]:
        """The cards that may be turned next: not turned yet, and not known to be out of the game."""
        out = set(self.removed if self.removed is not None else self.rs.always_removed)
        out.update(self.turned)
        return [c for c in self.rs.card_numbers if c not in out]

    def legal_moves(self) -> list[Move]:
        """The decisions open to the player to move (none at a chance event or at the end)."""
        if self.phase() != "decide":
            return []
        p = self.to_act
        return [Take(p), Pass(p)] if self.chips[p] > 0 else [Take(p)]

    def card_points(self, player: int) -> int:
        return self.points_of(self.hands[player])

    def points_of(self, cards: Sequence[int]) -> int:
        """What ``cards`` cost: each run its lowest card (every card, were runs not counted)."""
        return sum(low for low, _ in runs(cards)) if self.rs.runs_count_lowest else sum(cards)

    def score_of(self, cards: Sequence[int], chips: int) -> int:
        return self.points_of(cards) + self.rs.chip_points * chips

    def score(self, player: int) -> int:
        """The score as the game stands: card points (runs by their lowest card) plus chip points."""
        return self.score_of(self.hands[player], self.chips[player])

    def outcome(self) -> Outcome:
        """The standings best first (lowest score; ties share a rank) and, once over, the winners."""
        scores = [self.score(i) for i in range(len(self.names))]
        order = sorted(range(len(self.names)), key=lambda i: (scores[i], i))
        standings = tuple(Standing(i, self.names[i], tuple(sorted(self.hands[i])), self.card_points(i),
                                   self.chips[i], scores[i], 1 + sum(s < scores[i] for s in scores))
                          for i in order)
        over = self.is_terminal()
        winners = tuple(s.name for s in standings if s.rank == 1) if over else ()
        best = min(scores)
        reason = None
        if over:
            reason = f"{best} points" if len(winners) == 1 else f"tied on {best} points"
        return Outcome(over, winners, reason, standings)

    # ---------------------------------------------------------------- moves

    def check(self, move: Move) -> None:
        """Raise the violation ``move`` would be now (IllegalMoveError, from the rule data's codes)."""
        rs, phase = self.rs, self.phase()
        if phase == "over":
            raise rs.violation("nt-after-end", deck=rs.deck_size)
        if isinstance(move, Remove):
            if phase != "remove":
                raise rs.violation("nt-unexpected", expected=self.expected(), got="remove")
            for c in move.cards:
                self._known_card(c)
            if len(set(move.cards)) != len(move.cards):
                twice = next(c for c in move.cards if move.cards.count(c) > 1)
                raise rs.violation("nt-card-seen", card=twice, where="removed", at=twice)
            if len(move.cards) != rs.removed:
                raise rs.violation("nt-removed-count", expected=rs.removed, got=len(move.cards))
            if not set(rs.always_removed) <= set(move.cards):
                raise rs.violation("nt-removed-fixed", cards=", ".join(map(str, rs.always_removed)))
        elif isinstance(move, Reveal):
            if phase == "decide":
                raise rs.violation("nt-unexpected", expected=self.expected(), got=f"reveal {move.card}")
            self._known_card(move.card)
            if move.card in self.turned:
                raise rs.violation("nt-card-seen", card=move.card, where="turned", at=move.card)
            if move.card in (self.removed if self.removed is not None else rs.always_removed):
                raise rs.violation("nt-card-seen", card=move.card, where="removed from the game", at=move.card)
        else:
            word = "take" if isinstance(move, Take) else "pass"
            if phase != "decide":
                raise rs.violation("nt-unexpected", expected=self.expected(),
                                   got=f"{self._name(move.player)} {word}")
            if move.player != self.to_act:
                raise rs.violation("nt-wrong-player", expected=self.names[self.to_act],
                                   actor=self._name(move.player))
            if isinstance(move, Pass) and self.chips[move.player] == 0:
                raise rs.violation("nt-no-chips", actor=self.names[move.player])

    def _known_card(self, card: int) -> None:
        if not self.rs.lowest <= card <= self.rs.highest:
            raise self.rs.violation("nt-card-unknown", card=card, lowest=self.rs.lowest, highest=self.rs.highest,
                                    at=card)

    def _name(self, player: int) -> str:
        return self.names[player] if 0 <= player < len(self.names) else f"player {player + 1}"

    def apply(self, move: Move) -> None:
        """Play ``move``; an IllegalMoveError changes nothing."""
        self.check(move)
        self.done.append((move, self._apply(move)))

    def _apply(self, move: Move) -> Undo:
        if isinstance(move, Remove):
            self.removed = tuple(sorted(move.cards))
            return ("remove", 0, 0)
        if isinstance(move, Reveal):
            self.turned.append(move.card)
            self.offer = move.card
            return ("reveal", 0, 0)
        p = move.player
        if isinstance(move, Pass):
            self.chips[p] -= 1
            self.pot += 1
            self.to_act = (p + 1) % len(self.names)
            return ("pass", p, 0)
        assert self.offer is not None
        self.hands[p].append(self.offer)
        self.chips[p] += self.pot
        self.takes.append((self.offer, p, self.pot, tuple(self.chips)))
        pot, self.pot, self.offer = self.pot, 0, None
        return ("take", p, pot)

    def undo_last(self) -> Move:
        """Take back the last move applied; returns it."""
        move, (kind, p, pot) = self.done.pop()
        if kind == "remove":
            self.removed = None
        elif kind == "reveal":
            self.turned.pop()
            self.offer = None
        elif kind == "pass":
            self.chips[p] += 1
            self.pot -= 1
            self.to_act = p
        else:
            card = self.takes.pop()[0]
            self.hands[p].pop()
            self.chips[p] -= pot
            self.pot, self.offer, self.to_act = pot, card, p
        return move

    def copy(self) -> NoThanksState:
        other = NoThanksState.__new__(NoThanksState)
        other.rs, other.names = self.rs, self.names
        other.chips, other.hands = list(self.chips), [list(h) for h in self.hands]
        other.removed, other.turned, other.offer = self.removed, list(self.turned), self.offer
        other.pot, other.to_act, other.takes = self.pot, self.to_act, list(self.takes)
        other.done, other.start_lines = list(self.done), list(self.start_lines)
        return other
