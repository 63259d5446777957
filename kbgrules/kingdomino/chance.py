"""Kingdomino's chance events as outcomes with their probabilities: the deal of a line (any
``line_size`` of the dominoes not dealt yet, all equally likely) and the draw of kings for the
first claims.

The dominoes a 2- or 3-player game returns to the box unseen are never known, so each line is, for
whoever watches, an even draw from every domino not dealt yet.

>>> import kbgrules
>>> game = kbgrules.new_game("kingdomino", ["Ann", "Bob"])
>>> deals = game.chance_outcomes()
>>> len(deals), deals[0], deals[-1][0]
(194580, (Deal(numbers=(1, 2, 3, 4)), 5.139274334463974e-06), Deal(numbers=(45, 46, 47, 48)))
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from kbgrules.core.chance import Subsets
from kbgrules.kingdomino.state import Deal, DrawKings, KingdominoState

if TYPE_CHECKING:
    import random



class Deals(Subsets[Deal]):
    """Every deal of ``size`` dominoes out of ``pool``, each with probability 1/C(n, size), in the
    lexicographic order of their sorted numbers. Nothing is listed in advance: ``deals[i]`` is
    computed, ``len``, ``in`` and ``index`` count."""

    noun = "deals"

    def _move(self, chosen: tuple[int, ...]) -> Deal:
        return Deal(chosen)

    def _chosen(self, move: object) -> tuple[int, ...] | None:
        return move.numbers if isinstance(move, Deal) else None  # sorted, as the rules lay a line out


def deals(state: KingdominoState) -> Deals:
    """Every deal of the next line."""
    return Deals(state.remaining_deck(), state.row.line_size)


def _snake(state: KingdominoState) -> bool:
    return state.rs.first_player_method == "snake" and len(state.players) == 2 and len(state.king_owner) == 4


def king_draws(state: KingdominoState) -> list[tuple[DrawKings, float]]:
    """Every order the kings can be drawn in (by owner: a player's kings are alike), each as likely;
    with the snake option, A, B, B, A for either player as A."""
    orders: list[tuple[int, ...]] = [(a, 1 - a, 1 - a, a) for a in (0, 1)] if _snake(state) \
        else sorted(set(permutations(state.king_owner)))
    return [(DrawKings(o), 1 / len(orders)) for o in orders]


def sample_kings(state: KingdominoState, rng: random.Random) -> DrawKings:
    if _snake(state):
        a = rng.randrange(2)
        return DrawKings((a, 1 - a, 1 - a, a))
    order = list(state.king_owner)
    rng.shuffle(order)
    return DrawKings(tuple(order))
