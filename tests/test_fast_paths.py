"""The short paths taken for speed give what the general ones give: the log reader's lines and
events, Kingdomino's inlined parsing of claims, placements and deals, a placement checked and made
in one pass, a kingdom's grid rows."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kbgrules
from kbgrules.core.check import replay_game
from kbgrules.core.logfile import iter_games, iter_lines, lines
from kbgrules.kingdomino.kingdom import CASTLE, Kingdom
from kbgrules.kingdomino.log import Parsed, Parser
from kbgrules.kingdomino.model import Domino, Half
from kbgrules.kingdomino.simulate import simulate_kingdomino


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab #\t\r\n", max_size=200), st.integers(0, 3))
def test_iter_lines_gives_the_lines(text: str, repeat: int) -> None:
    text = text * (1 + repeat * (9000 // (len(text) + 1)))  # long enough, often, to be split in pieces
    assert list(iter_lines(text)) == lines(text)
    assert list(iter_lines("ab\r\n" * 3000 + "c")) == lines("ab\r\n" * 3000 + "c")


def _events(text: str) -> list[tuple[int, list[str], list[tuple[int, str]]]]:
    return [(ev.line, ev.words, ev.block) for g, _ in iter_games("a.log", text) if g is not None for ev in g.events]


def test_events_of_a_long_log_keep_their_lines() -> None:
    """A log of many games (read a few KB at a time), with comments, blank and indented lines: each
    event is the text of its own line, with any line ending."""
    games = [simulate_kingdomino(2, seed) for seed in range(20)]
    text = "\n".join(g.replace("deal", "deal ", 3).replace("claim", "claim  # c\n\n", 2) for g in games)
    text += "Ann kingdom\n    C W\n  \tF1 .\n"
    assert len(text) > 5 * 4096
    events = _events(text)
    last = len(lines(text))
    assert len(events) > 20 * 40 and events[-1][2] == [(last - 1, "    C W"), (last, "  \tF1 .")]
    all_lines = lines(text)
    for n, words, _ in events:
        assert all_lines[n - 1].split("#")[0].split() == words
    assert _events(text.replace("\n", "\r\n")) == events
    assert _events(text.replace("\n", "\r")) == events


@pytest.mark.parametrize("setup", [("first", (), 2), ("first", (), 4), ("second", (), 3),
                                   ("first", ("mighty-duel",), 2)])
def test_a_checked_log_replays_what_the_parser_reads(setup: tuple[str, tuple[str, ...], int]) -> None:
    """The claims, placements and deals that ``kbg check`` reads itself are those Parser.parse reads."""
    edition, variants, players = setup
    rs = kbgrules.load("kingdomino", edition=edition, variants=variants, players=players)
    for seed in range(3):
        text = simulate_kingdomino(players, seed, edition, variants)
        for g, _ in iter_games("a.log", text):
            assert g is not None
            report, state = replay_game("a.log", g)
            assert report.valid
            names = report.players
            parser = Parser("a.log", rs, names)
            read = [parser.parse(ev) for ev in g.events]
            assert state.history == [x for x in read if not isinstance(x, Parsed)]


def _problem_by_count(k: Kingdom, d: Domino, a: tuple[int, int],
                      b: tuple[int, int]) -> tuple[str, dict[str, Any]] | None:
    """Kingdom.problem as it was: every matching edge of both halves counted."""
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        return "kd-cells-apart", {}
    for c in (a, b):
        if c in k.cells:
            return "kd-overlap", {"cell": c}
    w = max(k.maxx, a[0], b[0]) - min(k.minx, a[0], b[0]) + 1
    h = max(k.maxy, a[1], b[1]) - min(k.miny, a[1], b[1]) + 1
    if w > k.size or h > k.size:
        return "kd-too-big", {"w": w, "h": h}
    around = [(1, 0), (0, 1), (-1, 0), (0, -1)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if k.diagonal else [])
    edges = 0
    for half, (x, y) in ((d.first, a), (d.second, b)):
        for dx, dy in around:
            sq = k.cells.get((x + dx, y + dy))
            if sq is not None and ((sq is CASTLE and k.castle_wild) or sq.terrain == half.terrain):
                edges += 1
    return None if edges >= max(1, k.min_edges) else ("kd-no-connection", {})


def _rules() -> list[tuple[str, Kingdom]]:
    return [("plain", Kingdom(5)), ("big", Kingdom(7)), ("castle not wild", Kingdom(5, castle_wild=False)),
            ("two edges", Kingdom(5, min_edges=2)), ("diagonals", Kingdom(5, diagonal=True))]


@pytest.mark.parametrize("name", [name for name, _ in _rules()])
def test_place_if_legal_is_problem_then_place(name: str) -> None:
    """On random kingdoms, problem() and place_if_legal say what counting every matching edge says,
    and place_if_legal places exactly as place() does when there is no problem (nothing otherwise)."""
    kingdom = dict(_rules())[name]
    dominoes = kbgrules.load("kingdomino").dominoes
    rng = random.Random(name)
    for _ in range(40):
        k = kingdom.copy()
        for _ in range(rng.randrange(60)):
            d = rng.choice(dominoes)
            a = (rng.randrange(-5, 6), rng.randrange(-5, 6))
            b = rng.choice([(a[0] + 1, a[1]), (a[0], a[1] - 1), (a[0] + 2, a[1]), a])
            if rng.random() < 0.5:
                legal = k.legal_placements(d)
                if legal:
                    a, b = rng.choice(legal)
            expected = k.copy()
            problem = _problem_by_count(expected, d, a, b)
            assert k.problem(d, a, b) == problem
            found = k.placement_problems(d, a, b)
            assert (problem is None) == (not found) and (problem is None or problem == found[0])
            if problem is None:
                expected.place(d, a, b)
            assert k.place_if_legal(d, a, b) == problem
            assert (k.cells, k.placed, k.discards, (k.minx, k.maxx, k.miny, k.maxy)) == (
                expected.cells, expected.placed, expected.discards,
                (expected.minx, expected.maxx, expected.miny, expected.maxy))
            assert list(k.cells) == list(expected.cells)  # in the same order too


def _rows_by_cell(k: Kingdom, letters: dict[str, str]) -> list[list[str]]:
    """The grid rows as they were computed before (one look-up per cell of the box)."""
    out = []
    for y in range(k.maxy, k.miny - 1, -1):
        row = []
        for x in range(k.minx, k.maxx + 1):
            sq = k.cells.get((x, y))
            row.append("." if sq is None else "C" if sq is CASTLE else
                       f"{letters[sq.terrain]}{sq.crowns}" if sq.crowns else letters[sq.terrain])
        out.append(row)
    return out


def test_rows_of_random_kingdoms() -> None:
    rs = kbgrules.load("kingdomino")
    letters = {t.id: t.letter for t in rs.terrains}
    rng = random.Random(7)
    for _ in range(200):
        k = Kingdom.for_rules(rs)
        for _ in range(rng.randrange(30)):
            d = rng.choice(rs.dominoes)
            legal = k.legal_placements(d)
            if legal:
                k.place(d, *rng.choice(legal))
        assert k.rows() == _rows_by_cell(k, letters)
        k.place(Domino(0, Half("lake", 2), Half("mine", 0)), (9, 9), (9, 10))  # unchecked, far away
        assert k.rows() == _rows_by_cell(k, letters)
        k.minx += 1  # a box changed by hand: the cells outside it are left out, as before
        assert k.rows() == _rows_by_cell(k, letters)


def test_outcome_kept_from_call_to_call_follows_pushes_pops_and_copies() -> None:
    """outcome() gives back its last answer only while the game has not changed since."""
    rng = random.Random(3)
    game = kbgrules.new_game("kingdomino", ["Ann", "Bob", "Cid"])

    def fresh() -> object:
        again = kbgrules.new_game("kingdomino", ["Ann", "Bob", "Cid"])
        for move in game.moves:
            again.push(move)
        return again.state.outcome()

    while not game.is_over():
        game.push(game.sample_chance(rng) if game.is_chance() else rng.choice(game.legal_moves()))
        assert game.state.outcome() == fresh()
        if rng.random() < 0.3:
            game.pop()
            assert game.state.outcome() == fresh()
        if rng.random() < 0.1:
            other = game.copy()
            assert other.state.outcome() == game.state.outcome() == fresh()
    assert game.outcome() == fresh() and game.outcome() is game.outcome()


def _properties_by_search(k: Kingdom) -> list[tuple[str, int, int, tuple[tuple[int, int], ...]]]:
    """The properties as they were found before: a search from each square, sorted by a key function."""
    left = {c: sq for c, sq in k.cells.items() if sq is not CASTLE}
    out = []
    for start, sq in k.cells.items():
        if start not in left:
            continue
        del left[start]
        group, crowns = [start], sq.crowns
        for x, y in group:
            for n in ((x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1)):
                other = left.get(n)
                if other is not None and other.terrain == sq.terrain:
                    del left[n]
                    group.append(n)
                    crowns += other.crowns
        out.append((sq.terrain, len(group), crowns, tuple(sorted(group))))
    out.sort(key=lambda p: (-p[1] * p[2], -p[1], -p[2], p[0]))
    return out


@pytest.mark.parametrize("name", [name for name, _ in _rules()])
def test_properties_and_can_place_of_random_kingdoms(name: str) -> None:
    """properties() (Property objects made without their __init__) and can_place() (from the holes of
    a kingdom that fills its window) agree with the general ways, on random kingdoms."""
    rs = kbgrules.load("kingdomino")
    rng = random.Random(name)
    for _ in range(60):
        k = dict(_rules())[name].copy()
        for _ in range(rng.randrange(40)):
            d = rng.choice(rs.dominoes)
            assert k.can_place(d) == (next(k._placements(d), None) is not None) == bool(k.legal_placements(d))
            legal = k.legal_placements(d)
            if legal:
                k.place(d, *rng.choice(legal))
        if rng.random() < 0.3:  # squares put down by hand, away from the rest
            k.cells[(7, 7)], k.cells[(7, 8)] = Half("wheat", 1), Half("wheat", 2)
        props = k.properties()
        assert [(p.terrain, p.squares, p.crowns, p.cells) for p in props] == _properties_by_search(k)
        assert props == [type(p)(p.terrain, p.squares, p.crowns, p.cells) for p in props]
        assert [hash(p) for p in props] == [hash(type(p)(p.terrain, p.squares, p.crowns, p.cells)) for p in props]
        assert all(repr(p).startswith("Property(terrain=") for p in props)


def _same_parse(parser: Any, ev: Any) -> None:
    """``Parser.parse`` (its short paths) reads what ``Parser._parse`` (the general reader) does, or raises
    where it raises."""
    from kbgrules.errors import LogSyntaxError

    try:
        general = parser._parse(ev)
    except LogSyntaxError:
        with pytest.raises(LogSyntaxError):
            parser.parse(ev)
        return
    assert parser.parse(ev) == general


@pytest.mark.parametrize("setup", [(None, ()), ("dark", ()), ("2016", ("power-up",))])
def test_king_of_tokyo_short_paths_read_what_the_general_reader_does(setup: tuple[Any, tuple[str, ...]]) -> None:
    """Rolls, rerolls, one-word actions, buying, sweeping, expectations, ``first`` and ``market``, as logged
    and changed (faces in capitals or misspelt, a missing or doubled ``:``, unknown names, words added)."""
    from kbgrules.core.logfile import Event
    from kbgrules.king_of_tokyo.parse import Parser
    from kbgrules.king_of_tokyo.simulate import simulate_king_of_tokyo

    edition, variants = setup
    rng = random.Random(7)
    for seed in range(3):
        text = simulate_king_of_tokyo(4, seed, edition, variants)
        for g, _ in iter_games("a.log", text):
            assert g is not None
            report, _ = replay_game("a.log", g)
            rs = kbgrules.load("king-of-tokyo", edition=edition, variants=variants, players=4)
            parser = Parser(rs, report.players)
            for ev in g.events:
                words = ev.words
                _same_parse(parser, ev)
                changed = [
                    [w.upper() if len(w) == 1 else w for w in words],
                    [w for w in words if w != ":"],
                    [*words, ":"],
                    [*words, "x"],
                    [*words[:2], "bolt", "Claw", "HEAL", *words[2:]],
                    [w if rng.random() < 0.8 else "zz" for w in words],
                    words[:2],
                    [*words[:2], "none"],
                    [w.replace("winner", "winners").replace("1", "\u0661") for w in words],
                    [w if w not in report.players else "market" for w in words],
                ]
                for other in changed:
                    if other:
                        _same_parse(parser, Event.from_text(ev.line, " ".join(other)))


@pytest.mark.parametrize("headers", [
    "@game kingdomino\n@variants mighty-duel harmony\n@variant middle-kingdom\n@players Ann Bob\n",
    "@game kingdomino\n@variant harmony\n@variants mighty-duel\n@players Ann Bob\n",
    "@game kingdomino\n@variant nope\n@players Ann Bob\n",
    "@game kingdomino\n@edition nope\n@players Ann Bob\n",
    "@game kingdomino\n@players Ann, Bob\n",
    "@game kingdomino\n@players Ann\n",
    "@game king-of-tokyo\n@edition dark\n@players Ann Bob Cid\n",
    "@game nope\n@players Ann Bob\n",
])
def test_a_game_loaded_without_rule_folders_is_the_one_load_gives(headers: str) -> None:
    """``replay_game`` loads the shipped rules itself when no folder of rules is given: the same
    report as through ``kbgrules.load``'s checks (a list of no folders takes that way)."""
    (g, _), = [x for x in iter_games("a.log", headers + "Ann end\n") if x[0] is not None]
    short, _ = replay_game("a.log", g, ())
    general, _ = replay_game("a.log", g, [])
    assert short.to_json() == general.to_json()
    assert (short.game, short.edition, short.variants) == (general.game, general.edition, general.variants)
