"""No Thanks!'s chance events as outcomes with their probabilities: the cards removed before play
(any ``removed`` of the cards, those the rules always remove included, all equally likely) and each
card turned (any card not seen yet, all equally likely: for whoever watches, a card removed unseen
and a card still in the pile are alike).

>>> import kbgrules
>>> game = kbgrules.new_game("nothanks", ["Ann", "Bob", "Cid"])
>>> removals = game.chance_outcomes()
>>> len(removals), removals[0][0], removals[-1][0].cards[0]
(38567100, Remove(cards=(3, 4, 5, 6, 7, 8, 9, 10, 11)), 27)
"""

from __future__ import annotations

from collections.abc import Sequence

from kbg_nothanks.state import NoThanksState, Remove, Reveal
from kbgrules.core.chance import Subsets


class Removals(Subsets[Remove]):
    """Every removal: ``fixed`` plus ``size`` of ``pool``, each with probability 1/C(n, size), in the
    lexicographic order of the chosen cards. Nothing is listed in advance: ``removals[i]`` is
    computed, ``len``, ``in`` and ``index`` count (kbgrules.core.chance.Subsets)."""

    noun = "removals"

    def __init__(self, pool: Sequence[int], size: int, fixed: Sequence[int] = ()) -> None:
        super().__init__(pool, size)
        self.fixed = tuple(fixed)

    def _move(self, chosen: tuple[int, ...]) -> Remove:
        return Remove(tuple(sorted((*self.fixed, *chosen))))

    def _chosen(self, move: object) -> tuple[int, ...] | None:
        if not isinstance(move, Remove) or list(move.cards) != sorted(set(move.cards)) \
                or not set(self.fixed) <= set(move.cards):
            return None
        return tuple(c for c in move.cards if c not in self.fixed)


def removals(state: NoThanksState) -> Removals:
    """Every removal the rules allow before play."""
    rs = state.rs
    fixed = rs.always_removed
    return Removals([c for c in rs.card_numbers if c not in fixed], rs.removed - len(fixed), fixed)


def reveals(state: NoThanksState) -> list[tuple[Reveal, float]]:
    """Every card that may be turned next, each as likely."""
    pool = state.unseen()
    return [(Reveal(c), 1 / len(pool)) for c in pool]
