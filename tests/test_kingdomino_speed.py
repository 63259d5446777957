"""Kingdomino's short paths give what the general ones give: properties found on coded cells, the
replay's placements and claims, the end-of-game figures."""

from __future__ import annotations

import random

import kbgrules
from kbgrules.kingdomino.groups import REACH, Found, property_groups
from kbgrules.kingdomino.kingdom import CASTLE, Kingdom
from kbgrules.kingdomino.model import Half


def _random_kingdom(rng: random.Random, size: int = 5) -> Kingdom:
    rs = kbgrules.load("kingdomino")
    k = Kingdom(size)
    for _ in range(rng.randrange(50)):
        d = rng.choice(rs.dominoes)
        legal = k.legal_placements(d)
        if legal:
            k.place(d, *rng.choice(legal))
    return k


def _odd_squares() -> list[Half]:
    return [Half("wheat", 1), Half("wheat", 0), Half("lake", 2), Half("castle", 0), CASTLE, Half("wheat", 7)]


def _without_order(found: list[Found] | None) -> list[tuple[object, ...]]:
    """The properties found, without the rank each search gives them among its own finds."""
    assert found is not None
    return [(*f[:4], f[5]) for f in found]


def test_properties_on_coded_cells_are_the_general_search() -> None:
    """property_groups (cells within REACH of the castle) finds what Kingdom._groups does, in the same
    order, ties included; beyond REACH it gives None and properties() takes the general search."""
    rng = random.Random(11)
    for n in range(400):
        k = _random_kingdom(rng, 7 if n % 4 == 0 else 5)
        if n % 3 == 0:  # squares changed by hand: odd terrains, a second castle, the castle gone, far cells
            for _ in range(rng.randrange(1, 12)):
                cell = (rng.randrange(-REACH, REACH + 1), rng.randrange(-REACH, REACH + 1))
                k.cells[cell] = rng.choice(_odd_squares())
            if rng.random() < 0.2:
                del k.cells[(0, 0)]
        assert _without_order(property_groups(k.cells, CASTLE)) == _without_order(k._groups())
        if rng.random() < 0.2:
            k.cells[(REACH + 1, rng.randrange(-3, 4))] = Half("wheat", 1)
            assert property_groups(k.cells, CASTLE) is None
        props = [(p.terrain, p.squares, p.crowns, p.cells) for p in k.properties()]
        assert props == [(t, -s, -c, cells) for _, s, c, t, _, cells in k._groups()]


def test_ties_keep_the_order_of_the_squares() -> None:
    """Properties equal in everything but their cells come in the order of their first squares."""
    k = Kingdom(5)
    wheat = Half("wheat", 0)
    for cell in [(2, 0), (-2, 0), (0, 2), (0, -2), (1, 1)]:
        k.cells[cell] = wheat
    found = property_groups(k.cells, CASTLE)
    assert found is not None and _without_order(found) == _without_order(k._groups())
    assert [cells for *_, cells in found] == [((2, 0),), ((-2, 0),), ((0, 2),), ((0, -2),), ((1, 1),)]
