"""Kingdomino placement and scoring rules, one test per rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kbgrules
from kbgrules import KingdominoRuleset
from kbgrules.kingdomino.kingdom import Kingdom, bonus_applies, cell_name, parse_cell, rank, score, tiebreak_key
from kbgrules.kingdomino.positions import read_grid, tiling

KD: KingdominoRuleset = kbgrules.load("kingdomino")


def d(n: int):  # type: ignore[no-untyped-def]
    return KD.domino(n)


def grid(text: str, rs: KingdominoRuleset = KD) -> Kingdom:
    k, _ = read_grid("t.grid", text, rs)
    return k


# ---------------------------------------------------------------- cells


def test_cell_names() -> None:
    assert cell_name((0, 0), 5) == "e5" and cell_name((0, 0), 7) == "g7"
    assert parse_cell("e6", 5) == (0, 1) and parse_cell("a1", 5) == (-4, -4) and parse_cell("i9", 5) == (4, 4)
    assert parse_cell("m13", 7) == (6, 6)
    assert parse_cell("j1", 5) == (5, -4) and parse_cell("a10", 5) == (-4, 5)  # beyond the board: still cells
    assert parse_cell("E6", 5) == (0, 1) and parse_cell("e", 5) is None and parse_cell("55", 5) is None
    assert parse_cell("e0", 5) is None and parse_cell("e100", 5) is None and parse_cell("é5", 5) is None


# ---------------------------------------------------------------- placement: kd.place.*


def test_castle_is_wild() -> None:  # kd.place.castle
    for n in (1, 10, 16, 48):
        assert Kingdom().is_legal(d(n), (1, 0), (2, 0))
        assert Kingdom().is_legal(d(n), (0, -2), (0, -1))


def test_one_matching_edge_is_enough() -> None:  # kd.place.connect, kd.place.one-match
    k = Kingdom()
    k.place(d(20), (1, 0), (2, 0))  # wheat(1) lake
    assert k.is_legal(d(17), (2, 1), (3, 1)) is False  # forest/lake: (3,1) lake touches nothing lake
    assert k.is_legal(d(17), (3, 1), (2, 1))  # lake half on (2,1) touches the lake at (2,0)
    assert k.problem(d(10), (2, 1), (3, 1)) == ("kd-no-connection", {})  # swamp/mine far from the castle


def test_halves_do_not_match_each_other() -> None:  # kd.place.connect
    k = Kingdom()
    k.place(d(20), (1, 0), (2, 0))
    assert k.problem(d(1), (3, 0), (4, 0)) == ("kd-no-connection", {})  # wheat/wheat next to a lake


def test_diagonal_contact_does_not_connect() -> None:  # kd.score.diagonal
    k = Kingdom()
    k.place(d(20), (1, 0), (2, 0))  # wheat at (1,0)
    assert not k.is_legal(d(1), (2, 1), (3, 1))  # wheat diagonal to wheat


def test_no_overlap() -> None:  # kd.place.overlap
    k = Kingdom()
    k.place(d(1), (1, 0), (2, 0))
    assert k.problem(d(2), (2, 0), (3, 0)) == ("kd-overlap", {"cell": (2, 0)})
    assert k.problem(d(2), (0, 0), (0, 1))[0] == "kd-overlap"  # the castle cannot be covered


def test_cells_must_touch() -> None:  # kd.place.orientation
    assert Kingdom().problem(d(1), (1, 0), (3, 0)) == ("kd-cells-apart", {})
    assert Kingdom().problem(d(1), (1, 0), (2, 1)) == ("kd-cells-apart", {})


def test_any_orientation() -> None:  # kd.place.orientation
    legal = Kingdom().legal_placements(d(1))
    assert ((1, 0), (2, 0)) in legal and ((2, 0), (1, 0)) in legal and ((0, 1), (0, 2)) in legal


def test_size_limit_is_a_bounding_box() -> None:  # kd.place.size, kd.place.off-center
    k = Kingdom()
    k.place(d(1), (1, 0), (2, 0))
    k.place(d(2), (3, 0), (4, 0))  # lopsided: 5 wide with the castle at the edge is fine
    assert k.width == 5
    assert k.problem(d(3), (-1, 0), (-1, 1))[0] == "kd-too-big"
    assert k.problem(d(3), (0, 1), (0, 2)) is None  # height is still free


def test_mighty_duel_allows_seven() -> None:
    duel = kbgrules.load("kd", variants=["mighty-duel"])
    k = Kingdom(duel.kingdom_size)
    k.place(d(1), (1, 0), (2, 0))
    k.place(d(2), (3, 0), (4, 0))
    assert k.problem(d(3), (-1, 0), (-2, 0)) is None
    assert k.problem(d(2), (5, 0), (6, 0)) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 48), min_size=1, max_size=14, unique=True), st.integers(0, 10_000),
       st.sampled_from([5, 7]))
def test_legal_placements_match_brute_force(numbers: list[int], pick: int, size: int) -> None:
    k = Kingdom(size)
    for n in numbers[:-1]:
        legal = k.legal_placements(d(n))
        if legal:
            k.place(d(n), *legal[pick % len(legal)])
    last = d(numbers[-1])
    span = range(-size, size + 1)
    brute = sorted((a, b) for a in [(x, y) for x in span for y in span]
                   for b in [(a[0] + 1, a[1]), (a[0] - 1, a[1]), (a[0], a[1] + 1), (a[0], a[1] - 1)]
                   if k.problem(last, a, b) is None)
    assert k.legal_placements(last) == brute
    assert k.can_place(last) == bool(brute)


# ---------------------------------------------------------------- scoring: kd.score.*


def test_property_is_squares_times_crowns() -> None:  # kd.score.property
    s = score(grid("W W W .\nF1 F1 F1 L\nC F F F\n"), KD)
    assert [(p.terrain, p.squares, p.crowns, p.points) for p in s.properties] == [
        ("forest", 6, 3, 18), ("wheat", 3, 0, 0), ("lake", 1, 0, 0)]
    assert s.total == 18 and s.largest_property == 6 and s.crowns == 3


def test_no_crowns_no_points() -> None:  # kd.score.no-crowns
    assert score(grid("L L L\nL C L\nL L L\n"), KD).total == 0


def test_separate_groups_score_separately() -> None:  # kd.score.separate
    s = score(grid("F1 F F1\nW C W\n"), KD)
    forests = [p for p in s.properties if p.terrain == "forest"]
    assert [(p.squares, p.crowns) for p in forests] == [(3, 2)]
    s = score(grid("F1 W F1\nF C F\n"), KD)
    assert sorted((p.squares, p.crowns) for p in s.properties if p.terrain == "forest") == [(2, 1), (2, 1)]
    assert s.total == 4


def test_castle_is_not_a_terrain() -> None:  # kd.score.castle
    s = score(grid("W1 C W1\n"), KD)
    assert [(p.squares, p.points) for p in s.properties] == [(1, 1), (1, 1)]


def test_diagonals_do_not_join_properties() -> None:  # kd.score.diagonal
    s = score(grid("W1 L\nL W1\nC .\n"), KD)
    assert s.total == 2 and len([p for p in s.properties if p.terrain == "wheat"]) == 2


# ---------------------------------------------------------------- bonuses


MK = kbgrules.load("kd", variants=["middle-kingdom", "harmony"])
MK2 = kbgrules.load("kd", edition="second", variants=["middle-kingdom", "harmony"])


def test_middle_kingdom_reads_the_bounding_box() -> None:
    centred = grid(". W .\nW C W\n. W .\n")
    assert bonus_applies(MK, "middle-kingdom", centred, None)
    assert score(centred, MK).bonuses == {"middle-kingdom": 10}
    off = grid("W C W W\n")
    assert not bonus_applies(MK, "middle-kingdom", off, None)


def test_harmony_readings() -> None:
    full = grid("\n".join(" ".join("W" if (r, c) != (2, 2) else "C" for c in range(5)) for r in range(5)))
    holey = grid("W C W\n")
    assert bonus_applies(MK, "harmony", full, None) and not bonus_applies(MK, "harmony", holey, None)
    assert bonus_applies(MK, "harmony", holey, 0)  # first edition: no discard, holes or not
    assert not bonus_applies(MK, "harmony", full, 1)
    assert not bonus_applies(MK2, "harmony", holey, 0)  # second edition: a complete grid
    assert bonus_applies(MK2, "harmony", full, 1)


def test_bonuses_only_with_their_variant() -> None:
    centred = grid(". W .\nW C W\n. W .\n")
    assert score(centred, KD).bonuses == {}


# ---------------------------------------------------------------- tie-breaks: kd.score.tiebreak


def test_largest_property_breaks_ties() -> None:
    a = score(grid("F1 F F F\nC . . .\n"), KD)          # 4 points, largest 4, 1 crown
    b = score(grid("W1 W . S1 S\nC . . . .\n"), KD)     # 2 + 2 points, largest 2, 2 crowns
    c = score(grid("W1 W1\nC .\n"), KD)                  # 4 points, largest 2, 2 crowns
    assert (a.total, b.total, c.total) == (4, 4, 4)
    assert rank([tiebreak_key(KD, s) for s in (a, b, c)]) == [1, 2, 2]  # b and c share
    worse = score(grid("W1 W W\nC . .\n"), KD)
    assert rank([tiebreak_key(KD, s) for s in (worse, a)]) == [2, 1]


def test_crowns_break_ties_only_in_first_edition() -> None:
    h = score(grid("W1 W W W\nC L L L\n"), KD)          # 4 points, largest 4, 1 crown
    i = score(grid("W2 W . . .\nC L L L L\n"), KD)      # 4 points, largest 4, 2 crowns
    assert (h.total, h.largest_property, h.crowns) == (4, 4, 1)
    assert (i.total, i.largest_property, i.crowns) == (4, 4, 2)
    assert rank([tiebreak_key(KD, s) for s in (h, i)]) == [2, 1]
    second = kbgrules.load("kd", edition="second")
    assert rank([tiebreak_key(second, s) for s in (h, i)]) == [1, 1]  # shared victory


# ---------------------------------------------------------------- grids


def test_grid_forms_and_warnings() -> None:
    k, warnings = read_grid("t", "  W0 CC .. F2  # comment\n", KD)
    assert k.cells[(-1, 0)].terrain == "wheat" and k.cells[(2, 0)].crowns == 2
    assert [w.code for w in warnings] == ["grid-inventory"]  # no forest square holds 2 crowns
    _, warnings = read_grid("t", "M M M M M M M\nC . . . . . .\n", KD)
    assert {w.code for w in warnings} == {"grid-too-big", "grid-inventory"}
    _, warnings = read_grid("t", "W W\nW W\n", KD)
    assert next(w.code for w in warnings) == "grid-no-castle"
    _, warnings = read_grid("t", "C W C\n", KD)
    assert "grid-castles" in [w.code for w in warnings]


def test_tiling_check() -> None:
    assert tiling(grid("W W L\nC . .\n"), KD) is False        # odd number of squares
    assert tiling(grid("W W L\nC . F\n"), KD) is True         # 1 or 2, and 17
    assert tiling(grid("W W F1 W\nC . . .\n"), KD) is True     # 1 (or 2) and 24
    assert tiling(grid("M3 M3\nC .\n"), KD) is False           # one domino has M3


def test_unreadable_grid() -> None:
    from kbgrules.kingdomino.positions import GridError

    with pytest.raises(GridError) as info:
        read_grid("t", "W1 Q7\nC Z\n", KD)
    assert [(x.line, x.col) for x in info.value.diagnostics] == [(1, 4), (2, 3)]
    with pytest.raises(GridError):
        read_grid("t", "# nothing\n", KD)
    with pytest.raises(GridError):
        read_grid("t", "W9\n", KD)


def test_placement_parameters_come_from_the_data() -> None:
    assert Kingdom(5, castle_wild=False).legal_placements(d(1)) == []  # nothing can touch a plain castle
    k = Kingdom(5, min_edges=2)
    k.place(d(1), (1, 0), (2, 0))
    assert not k.is_legal(d(2), (3, 0), (4, 0))  # one matching edge is not enough now
    assert k.is_legal(d(2), (1, 1), (2, 1))      # two matching edges
    diag = Kingdom(5, diagonal=True)
    diag.place(d(1), (1, 0), (2, 0))
    assert diag.is_legal(d(2), (3, 1), (4, 1))   # touches wheat at a corner
    assert not Kingdom.for_rules(KD).diagonal and Kingdom.for_rules(KD).castle_wild


# ---------------------------------------------------------------- placement queries


def test_placement_problems_lists_every_reason() -> None:
    from kbgrules.kingdomino.kingdom import square

    k = grid("C W1\n")
    squares = (square(KD, "W"), square(KD, "F2"))
    assert k.placement_problems(squares, (2, 0), (3, 0)) == []
    assert [c for c, _ in k.placement_problems(squares, (1, 0), (4, 0))] == [
        "kd-cells-apart", "kd-overlap", "kd-no-connection"]
    assert grid("C W1 W W W\n").placement_problems(squares, (5, 0), (5, 1)) == [("kd-too-big", {"w": 6, "h": 2})]
    assert [c for c, _ in k.placement_problems(KD.domino(1), (0, 0), (4, 0))] == [
        "kd-cells-apart", "kd-overlap", "kd-no-connection"]
    wheat_forest = (square(KD, "W"), square(KD, "F"))
    assert k.legal_placements(wheat_forest) == k.legal_placements(KD.domino(13)) == k.legal_placements(
        (square(KD, "wheat"), square(KD, "forest")))  # domino 13: wheat, forest (no crowns)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(-5, 5), st.integers(-5, 5), st.sampled_from([(1, 0), (0, 1), (2, 0)]),
       st.integers(1, 48))
def test_the_checker_reports_the_first_of_the_placement_problems(seed: int, x: int, y: int, d: tuple[int, int],
                                                                  number: int) -> None:
    import random

    import kbgrules

    rng = random.Random(seed)
    game = kbgrules.new_game("kingdomino", ["Ann", "Bob"])
    for _ in range(rng.randrange(40)):
        if game.is_over():
            break
        game.push(game.sample_chance(rng) if game.is_chance() else rng.choice(game.legal_moves()))
    k = game.kingdom("Ann")
    a, b = (x, y), (x + d[0], y + d[1])
    problems = k.placement_problems(KD.domino(number), a, b)
    first = k.problem(KD.domino(number), a, b)
    assert (first is None) == (problems == []) and (first is None or first == problems[0])
    assert ((a, b) in k.legal_placements(KD.domino(number))) == (problems == [])
