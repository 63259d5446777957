"""Kingdomino's short paths give what the general ones give: properties found on coded cells, the
replay's placements and claims, the end-of-game figures."""

from __future__ import annotations

import random
from typing import Any

import pytest

import kbgrules
from kbgrules.kingdomino.groups import REACH, Found, property_groups, search_groups
from kbgrules.kingdomino.kingdom import CASTLE, Kingdom, cell_name, corner_name, rank
from kbgrules.kingdomino.model import Half
from kbgrules.kingdomino.state import Action, Claim, Discard, IllegalMoveError, KingdominoState, Place

from .test_fast_paths import _rows_by_cell


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
    """property_groups (cells within REACH of the castle) finds what search_groups does, in the same
    order, ties included; beyond REACH it gives None and properties() takes the general search (search_groups)."""
    rng = random.Random(11)
    for n in range(400):
        k = _random_kingdom(rng, 7 if n % 4 == 0 else 5)
        if n % 3 == 0:  # squares changed by hand: odd terrains, a second castle, the castle gone, far cells
            for _ in range(rng.randrange(1, 12)):
                cell = (rng.randrange(-REACH, REACH + 1), rng.randrange(-REACH, REACH + 1))
                k.cells[cell] = rng.choice(_odd_squares())
            if rng.random() < 0.2:
                del k.cells[(0, 0)]
        assert _without_order(property_groups(k.cells, CASTLE)) == _without_order(search_groups(k.cells, CASTLE))
        if rng.random() < 0.2:
            k.cells[(REACH + 1, rng.randrange(-3, 4))] = Half("wheat", 1)
            assert property_groups(k.cells, CASTLE) is None
        props = [(p.terrain, p.squares, p.crowns, p.cells) for p in k.properties()]
        assert props == [(t, -s, -c, cells) for _, s, c, t, _, cells in search_groups(k.cells, CASTLE)]


def test_ties_keep_the_order_of_the_squares() -> None:
    """Properties equal in everything but their cells come in the order of their first squares."""
    k = Kingdom(5)
    wheat = Half("wheat", 0)
    for cell in [(2, 0), (-2, 0), (0, 2), (0, -2), (1, 1)]:
        k.cells[cell] = wheat
    found = property_groups(k.cells, CASTLE)
    assert found is not None and _without_order(found) == _without_order(search_groups(k.cells, CASTLE))
    assert [cells for *_, cells in found] == [((2, 0),), ((-2, 0),), ((0, 2),), ((0, -2),), ((1, 1),)]


def _general_apply(st: KingdominoState, action: Action) -> None:
    """apply() as it was: every move through _place and _claim."""
    if st.phase == "over":
        raise st._fail("kd-after-end")
    if isinstance(action, Claim):
        st._claim(action, True)
    elif isinstance(action, Place | Discard):
        st._place(action, True)
    else:
        st.apply(action)
        return
    st.history.append(action)


def _snapshot(st: KingdominoState) -> tuple[object, ...]:
    return (st.phase, st.step, st.turn, st.order, st.current, st.current_claims, st.next, st.next_claims,
            st.discarded, st.history, [(k.cells, k.placed, k.discards, k.minx, k.maxx, k.miny, k.maxy)
                                       for k in st.kingdoms], [[m[1:] for m in marks] for marks in st._round_marks])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turn_moves_played_in_one_go_are_the_general_ones(players: int) -> None:
    """apply()'s short path for the placements and claims of the turns plays and refuses them as _place
    and _claim do: legal moves, and moves by the wrong player, of the wrong domino, at the wrong step, to
    illegal cells."""
    rs = kbgrules.load("kingdomino", players=players)
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    rng = random.Random(players)
    for _ in range(6):
        fast, general = KingdominoState(rs, names), KingdominoState(rs, names)
        game = kbgrules.new_game("kingdomino", names)
        while not fast.is_terminal():
            if fast.is_chance() or fast.kings_due():
                move = game.sample_chance(rng)
            else:
                legal = fast.legal_actions()
                move = rng.choice(legal)
                if rng.random() < 0.4:  # something odd, most often illegal
                    p, n = rng.randrange(players), rng.choice([*rs.dominoes, *rs.dominoes[:1]]).number
                    cell = (rng.randrange(-3, 4), rng.randrange(-3, 4))
                    move = rng.choice([Claim(p, n), Place(p, n, cell, (cell[0] + 1, cell[1])),
                                       Place(move.player, getattr(move, "number", n), cell, (cell[0], cell[1] - 1)),
                                       Claim(move.player, n), Discard(p, n)])
            errors = []
            for st, play in ((fast, KingdominoState.apply), (general, _general_apply)):
                try:
                    play(st, move)
                    errors.append(None)
                except IllegalMoveError as exc:
                    errors.append((exc.code, exc.message))
            assert errors[0] == errors[1]
            assert _snapshot(fast) == _snapshot(general)
            if errors[0] is None:
                game.push(move)


def test_tables_kept_with_the_ruleset_follow_it() -> None:
    """The domino table and empty kingdom a state takes from its ruleset's ``derived`` are those of its
    own dominoes and placement rules, also for a ruleset changed with dataclasses.replace (which shares
    ``derived``)."""
    import dataclasses

    rs = kbgrules.load("kingdomino", players=2)
    other = dataclasses.replace(rs, dominoes=rs.dominoes[:10], kingdom_size=7, castle_wild=False)
    for ruleset in (rs, other, rs):
        st = KingdominoState(ruleset, ["Ann", "Bob"])
        assert st.dominoes == {d.number: d for d in ruleset.dominoes}
        assert [(k.size, k.castle_wild, k.cells) for k in st.kingdoms] == [
            (ruleset.kingdom_size, ruleset.castle_wild, {(0, 0): CASTLE})] * 2
        assert st.kingdoms[0] is not st.kingdoms[1]


def test_corner_names_and_ranks_are_the_general_ones() -> None:
    """corner_name (looked up by cell) is cell_name of the corner, on the board or off it (or raises as it
    does); rank (counted by map) is the competition rank."""
    rng = random.Random(5)
    for size in (5, 7):
        k = Kingdom(size)
        for _ in range(300):
            k.minx, k.maxy = rng.randrange(-30, 30), rng.randrange(-30, 30)
            try:
                expected: object = cell_name((k.minx, k.maxy), size)
            except ValueError:
                with pytest.raises(ValueError):
                    corner_name(k, size)
                continue
            assert corner_name(k, size) == expected
    for _ in range(300):
        keys = [tuple(rng.randrange(3) for _ in range(rng.randrange(1, 4))) for _ in range(rng.randrange(1, 6))]
        assert rank(keys) == [1 + sum(1 for other in keys if other > k) for k in keys]


def test_grid_codes_kept_from_kingdom_to_kingdom_are_the_general_ones() -> None:
    """Kingdom._rows with one memo of codes shared by many kingdoms (final_json's) gives the rows cell by
    cell: odd squares, cells outside the box, boxes changed by hand (empty or upside down) included."""
    from kbgrules.kingdomino.kingdom import letters

    rs = kbgrules.load("kingdomino")
    codes_of = letters(rs) | {"castle": "K"}
    memo: dict[str, dict[int, str]] = {}
    rng = random.Random(17)
    for n in range(300):
        k = _random_kingdom(rng, 7 if n % 5 == 0 else 5)
        if n % 3 == 0:
            for _ in range(rng.randrange(1, 6)):
                cell = (rng.randrange(-9, 10), rng.randrange(-9, 10))
                k.cells[cell] = rng.choice(_odd_squares())
        if n % 4 == 0:
            k.minx, k.maxx = k.minx + rng.randrange(-2, 4), k.maxx + rng.randrange(-4, 2)
            k.miny, k.maxy = k.miny + rng.randrange(-2, 4), k.maxy + rng.randrange(-4, 2)
        expected = _rows_by_cell(k, codes_of)
        assert k._rows(codes_of, memo) == expected == k.rows(codes_of)


def test_numbers_written_otherwise_are_read_as_the_parser_reads_them() -> None:
    """The replay's own reading of claims and placements (numbers looked up as logs write them) gives
    what Parser.parse gives when the numbers are written otherwise: 007, 0, past 1023, not digits."""
    from kbgrules.core.check import replay_game
    from kbgrules.core.logfile import iter_games
    from kbgrules.kingdomino.log import Parsed, Parser
    from kbgrules.kingdomino.simulate import simulate_kingdomino

    rs = kbgrules.load("kingdomino", players=3)
    rng = random.Random(23)
    for seed in range(4):
        lines = simulate_kingdomino(3, seed, "first", ()).splitlines()
        for i, line in enumerate(lines):
            words = line.split()
            if len(words) in (3, 5) and words[1] in ("claim", "place") and rng.random() < 0.5:
                words[2] = rng.choice(["0" + words[2], "0", "1024", "9999", words[2] + "x", "٣"])
                lines[i] = " ".join(words)
        for g, _ in iter_games("a.log", "\n".join(lines) + "\n"):
            assert g is not None
            report, state = replay_game("a.log", g)
            parser = Parser("a.log", rs, report.players)
            read = []
            for ev in g.events:
                try:
                    read.append(parser.parse(ev))
                except Exception:  # where the replay stopped too
                    break
            actions = [x for x in read if not isinstance(x, Parsed)]
            assert state.history == actions[:len(state.history)]
            assert len(state.history) == len(actions) or not report.valid


def test_cells_near_the_castle_are_shared_tuples() -> None:
    """The board's cells, the coded cells, the side neighbours and the grid's boxes hand out one tuple per
    cell (equal to the cell): kingdoms find their squares by identity; far cells are plain new tuples."""
    from kbgrules.kingdomino.board import board_cells, same_cell
    from kbgrules.kingdomino.grid import window_cells
    from kbgrules.kingdomino.groups import CELL_AT, sides

    for size in (5, 7, 13):
        for name, cell in board_cells(size).items():
            assert same_cell(*cell) is cell and cell == (ord(name[0]) - 97 - size + 1, int(name[1:]) - size)
    assert all(same_cell(*c) is c for c in CELL_AT if c is not None)
    assert all(n is same_cell(*n) for n in sides((3, -4)))
    assert all(c is same_cell(*c) for c in window_cells((-4, 0, -2, 2)))
    assert Kingdom(5).cells.popitem()[0] is same_cell(0, 0)
    far = same_cell(17, 0)
    assert far == (17, 0) and same_cell(17, 0) is not far
    rs = kbgrules.load("kingdomino", players=3)
    from kbgrules.kingdomino.game import KingdominoGame as Game

    st = Game(rs, ["Ann", "Bob", "Cid"]).state
    rng = random.Random(5)
    game = kbgrules.new_game("kingdomino", ["Ann", "Bob", "Cid"])
    while not st.is_terminal():  # placements of the board's cells, checked by apply: the kingdoms keep them
        move = game.sample_chance(rng) if st.is_chance() or st.kings_due() else rng.choice(st.legal_actions())
        if isinstance(move, Place):  # as the log reader makes them (compiled, the cells are passed as ints)
            move = Place(move.player, move.number, same_cell(*move.first), same_cell(*move.second))
        st.apply(move)
        game.push(move)
    assert all(c is same_cell(*c) for k in st.kingdoms for c in k.cells) and len(st.kingdoms[0].cells) > 20


def test_written_out_inits_are_the_dataclass_ones() -> None:
    """Score and Standing write their __init__ out (compiled, dataclasses' would run interpreted): the same
    fields, by position or by name, equality, hashing, repr and dataclasses.replace as before."""
    import dataclasses

    from kbgrules.kingdomino.kingdom import Property, Score
    from kbgrules.kingdomino.state import Standing

    props = (Property("wheat", 2, 1, ((1, 0), (2, 0))),)
    s = Score(7, 5, props, {"harmony": 2}, 2, 1)
    same = Score(total=7, base=5, properties=props, bonuses={"harmony": 2}, largest_property=2, crowns=1)
    assert (s.total, s.base, s.properties, s.bonuses, s.largest_property, s.crowns) == (7, 5, props, {"harmony": 2},
                                                                                          2, 1)
    assert s == same and repr(s) == repr(same) and repr(s).startswith("Score(total=7, base=5, properties=(")
    assert dataclasses.replace(s, total=9) == Score(9, 5, props, {"harmony": 2}, 2, 1)
    with pytest.raises(TypeError):
        Score(7, 5, props, {}, 2)  # type: ignore[call-arg]
    st = Standing(1, "Bob", s, 2, 0)
    assert st == Standing(player=1, name="Bob", score=same, rank=2, discards=0)
    assert repr(st) == f"Standing(player=1, name='Bob', score={s!r}, rank=2, discards=0)"
    assert dataclasses.replace(st, rank=1).rank == 1 and st.rank == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        st.rank = 3  # type: ignore[misc]


def test_claims_and_placements_read_in_the_loop_are_the_parsers() -> None:
    """check_kingdomino reads the common claims and placements in its own loop: spoiled logs (words changed,
    lines dropped or doubled, an indented line, a @stop) get the report they get with every line read by
    Parser.parse (the loop's table of numbers emptied for the second run)."""
    from kbgrules.core.check import check_text
    from kbgrules.kingdomino.log import _NUMBERS
    from kbgrules.kingdomino.simulate import simulate_kingdomino

    rng = random.Random(23)
    texts = []
    for seed in range(12):
        lines = simulate_kingdomino(2 + seed % 3, seed).splitlines()
        for _ in range(3):
            i = rng.randrange(6, len(lines))
            words = lines[i].split()
            op = rng.randrange(5)
            if op == 0:
                words[rng.randrange(len(words))] = rng.choice(["x", "99", "claim", "place", "z9", "-1", "e5"])
                lines[i] = " ".join(words)
            elif op == 1:
                del lines[i]
            elif op == 2:
                lines.insert(i, lines[rng.randrange(6, len(lines))])
            elif op == 3:
                lines.insert(i, "   indented words")
            else:
                lines.insert(i, "@stop")
        texts.append("\n".join(lines) + "\n")
    fast = [check_text("a.log", t).to_json(turns=True) for t in texts]
    kept = dict(_NUMBERS)
    _NUMBERS.clear()
    try:
        general = [check_text("a.log", t).to_json(turns=True) for t in texts]
    finally:
        _NUMBERS.update(kept)
    assert fast == general
    games = [g for r in fast for g in r["games"]]
    assert any(not g["valid"] for g in games) and any(g["valid"] for g in games)


def test_objects_made_in_a_shell_are_the_dataclass_ones() -> None:
    """slot_shell's short way (plain slots filled, then the class set) gives the objects __init__ gives: the
    replay's placements and the properties; a class without slots has no shell."""
    import dataclasses

    from kbgrules.kingdomino.kingdom import Property
    from kbgrules.kingdomino.log import _PLACE_SHELL
    from kbgrules.kingdomino.model import slot_shell

    shell = slot_shell(Place)
    if shell is None:  # compiled: the classes are native, made by their __init__
        assert _PLACE_SHELL is None
        return
    from kbgrules.kingdomino.kingdom import Score, score

    k = _random_kingdom(random.Random(4))
    made = score(k, kbgrules.load("kingdomino"))  # through the shell
    assert type(made) is Score and made == Score(*(getattr(made, f.name) for f in dataclasses.fields(Score)))
    for cls, values in ((Place, (1, 7, (0, 1), (1, 1))), (Property, ("lake", 3, 2, ((0, 1), (1, 1), (2, 1)))),
                        (Score, (9, 7, (), {"x": 2}, 3, 1))):
        made = slot_shell(cls)
        assert made is not None
        obj: Any = object.__new__(made)
        for f, v in zip(dataclasses.fields(cls), values, strict=True):
            setattr(obj, f.name, v)
        obj.__class__ = cls
        expected = cls(*values)
        assert type(obj) is cls and obj == expected and repr(obj) == repr(expected)
        assert cls is Score or hash(obj) == hash(expected)  # a Score's bonuses are a dict: no hash
        for frozen in (obj, expected):
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(frozen, dataclasses.fields(cls)[1].name, 3)
    assert slot_shell(type("Plain", (), {})) is None and slot_shell(Half) is not None


def test_holes_fit_is_the_general_search() -> None:
    """holes_fit (can_place when few holes are left, compiled, on cell codes) says whether the general
    search of one-edge placements finds one: wild castle or not, odd squares put down by hand; None
    beyond REACH."""
    from kbgrules.kingdomino.groups import holes_fit

    rs = kbgrules.load("kingdomino")
    terrains = [t.id for t in rs.terrains]
    rng = random.Random(29)
    checked = 0
    for n in range(300):
        k = _random_kingdom(rng, 7 if n % 4 == 0 else 5)
        k.castle_wild = rng.random() < 0.8
        if n % 3 == 0:
            for _ in range(rng.randrange(1, 4)):
                k.cells[(rng.randrange(-REACH, REACH + 1), rng.randrange(-REACH, REACH + 1))] = rng.choice(
                    _odd_squares())
        window = k._window()
        if window is None:
            continue
        for _ in range(6):
            t1, t2 = rng.choice(terrains), rng.choice(terrains)
            fits = holes_fit(k.cells, window, t1, t2, k.castle_wild, CASTLE)
            assert fits == (next(k._one_edge_placements(t1, t2), None) is not None)
            checked += fits is False
        k.cells[(REACH + 1, 0)] = Half("wheat", 0)
        assert holes_fit(k.cells, window, "wheat", "lake", True, CASTLE) is None
    assert checked > 50  # nowhere to go, often
    for window in ((-REACH - 1, 0, 0, 0), (0, REACH + 1, 0, 0), (0, 0, -REACH - 1, 0), (0, 0, 0, REACH + 1)):
        assert holes_fit({(0, 0): CASTLE}, window, "wheat", "lake", True, CASTLE) is None
