"""Kingdomino facts: the 48 dominoes and the setup per player count and edition (numbers from the reference)."""

from __future__ import annotations

from collections import Counter

import pytest
import yaml

import kbgrules
from kbgrules import KingdominoRuleset

from .conftest import REFERENCE

KD: KingdominoRuleset = kbgrules.load("kingdomino")


def test_48_dominoes_in_printed_order() -> None:
    assert [d.number for d in KD.dominoes] == list(range(1, 49))


def test_square_and_crown_checksums() -> None:
    squares = Counter(h.terrain for d in KD.dominoes for h in d.halves)
    crowns = Counter()
    for d in KD.dominoes:
        for h in d.halves:
            crowns[h.terrain] += h.crowns
    assert dict(squares) == {"wheat": 26, "forest": 22, "lake": 18, "grassland": 14, "swamp": 10, "mine": 6}
    assert dict(crowns) == {"wheat": 5, "forest": 6, "lake": 6, "grassland": 6, "swamp": 6, "mine": 10}
    assert sum(crowns.values()) == 39


def test_crown_bands_by_number() -> None:
    for d in KD.dominoes:
        assert not (d.first.crowns and d.second.crowns), d.number
        expected = 0 if d.number <= 18 else 1 if d.number <= 40 else 2 if d.number <= 47 else 3
        assert max(d.first.crowns, d.second.crowns) == expected, d.number


@pytest.mark.parametrize("number,first,second", [
    (1, ("wheat", 0), ("wheat", 0)),
    (2, ("wheat", 0), ("wheat", 0)),       # the Korean seed's "#2 wheat 1 crown / lake" is really #20
    (6, ("forest", 0), ("forest", 0)),     # a course file has lake/lake here: wrong
    (19, ("wheat", 1), ("forest", 0)),
    (20, ("wheat", 1), ("lake", 0)),
    (21, ("wheat", 1), ("grassland", 0)),
    (35, ("lake", 1), ("forest", 0)),
    (37, ("lake", 0), ("grassland", 1)),
    (39, ("grassland", 0), ("swamp", 1)),  # one peer drops this crown: a typo
    (48, ("wheat", 0), ("mine", 3)),
])
def test_spot_checks(number: int, first: tuple[str, int], second: tuple[str, int]) -> None:
    d = KD.domino(number)
    assert (d.first.terrain, d.first.crowns) == first
    assert (d.second.terrain, d.second.crowns) == second


def test_every_domino_matches_the_reference_list() -> None:
    """The shipped dominoes against the project's reference list (tests/reference: facts checked against
    five independent implementations)."""
    ref = yaml.safe_load((REFERENCE / "kingdomino_dominoes.yaml").read_text(encoding="utf-8"))["dominoes"]
    assert sorted(ref) == list(range(1, 49)) == [d.number for d in KD.dominoes]
    for d in KD.dominoes:
        a, crowns_a, b, crowns_b = ref[d.number]
        assert [(a, crowns_a), (b, crowns_b)] == [(h.terrain, h.crowns) for h in d.halves], d.number


# players, edition, variants -> kings each, used, removed, per line, rounds, leftover, kingdom size
SETUP = [
    (2, "first", (), 2, 24, 24, 4, 6, 0, 5),
    (3, "first", (), 1, 36, 12, 3, 12, 0, 5),
    (4, "first", (), 1, 48, 0, 4, 12, 0, 5),
    (2, "second", (), 2, 24, 24, 4, 6, 0, 5),
    (3, "second", (), 1, 48, 0, 4, 12, 1, 5),
    (4, "second", (), 1, 48, 0, 4, 12, 0, 5),
    (2, "first", ("mighty-duel",), 2, 48, 0, 4, 12, 0, 7),
    (2, "second", ("mighty-duel",), 2, 48, 0, 4, 12, 0, 7),
]


@pytest.mark.parametrize("players,edition,variants,kings,used,removed,line,rounds,leftover,size", SETUP)
def test_setup_rows(players: int, edition: str, variants: tuple[str, ...], kings: int, used: int,
                    removed: int, line: int, rounds: int, leftover: int, size: int) -> None:
    rs = kbgrules.load("kingdomino", edition=edition, variants=variants, players=players)
    row = rs.setup
    assert (row.kings_per_player, row.dominoes_used, row.dominoes_removed, row.line_size, row.rounds,
            row.leftover_per_line, rs.kingdom_size) == (kings, used, removed, line, rounds, leftover, size)
    # the rows agree with themselves and with the box
    assert row.dominoes_used + row.dominoes_removed == len(rs.dominoes)
    assert row.line_size * row.rounds == row.dominoes_used
    assert row.line_size == row.kings_in_play + row.leftover_per_line
    squares = row.dominoes_per_player * 2 + 1
    assert squares == rs.kingdom_size ** 2


def test_tiebreaks_per_edition() -> None:
    assert KD.tiebreak == ("largest-property", "crowns", "shared")
    assert kbgrules.load("kd", edition="second").tiebreak == ("largest-property", "shared")


def test_bonuses_are_off_until_their_variant() -> None:
    assert not any(b.active for b in KD.bonuses.values())
    rs = kbgrules.load("kd", variants=["middle-kingdom", "harmony"])
    assert {k: (b.points, b.active) for k, b in rs.bonuses.items()} == {
        "middle-kingdom": (10, True), "harmony": (5, True)}
    assert rs.bonuses["harmony"].reading == "no-discard"
    assert kbgrules.load("kd", edition="2nd", variants=["harmony"]).bonuses["harmony"].reading == "complete-grid"


def test_placement_parameters() -> None:
    assert (KD.kingdom_size, KD.castle_wild, KD.min_matching_edges, KD.diagonal_connects) == (5, True, 1, False)
    assert KD.discard == "only-when-unplaceable"
    assert kbgrules.load("kd", variants=["voluntary-discard"]).discard == "any-time"


def test_dynasty_is_three_games() -> None:
    assert KD.games_per_match == 1
    assert kbgrules.load("kd", variants=["dynasty"]).games_per_match == 3


def test_terrains_and_lookup() -> None:
    assert [t.letter for t in KD.terrains] == ["W", "F", "L", "G", "S", "M"]
    assert KD.terrain("mountain").id == "mine" and KD.terrain("w").id == "wheat"
    with pytest.raises(kbgrules.KbgError):
        KD.terrain("volcano")


def test_components() -> None:
    counts = {c.id: c.count for c in KD.components}
    assert counts == {"domino": 48, "starting-tile": 4, "castle": 4, "king": 8}
