"""Kingdomino from code with no log: chance events, bots, push/pop, positions at any moment, checkpoints
in push_text, and kingdoms printed as grids (issue 23)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from math import comb, isclose
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kbgrules
from kbgrules import IllegalMoveError, KbgError, LogSyntaxError
from kbgrules.core.check import check_text
from kbgrules.kingdomino.chance import Deals
from kbgrules.kingdomino.game import KingdominoGame, Move
from kbgrules.kingdomino.kingdom import Kingdom
from kbgrules.kingdomino.state import Deal, DrawKings

NAMES = ("Ann", "Bob", "Cid", "Dee")
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "kingdomino"

# every edition and player count, and every variant (the 2-player ones with 2 players)
SETUPS = [
    (edition, players, variants)
    for edition in ("first", "second")
    for players in (2, 3, 4)
    for variants in ((), ("middle-kingdom", "harmony"), ("voluntary-discard",), ("dynasty",))
] + [
    (edition, 2, variants)
    for edition in ("first", "second")
    for variants in (("mighty-duel",), ("snake-draft",), ("mighty-duel", "snake-draft", "harmony", "voluntary-discard"))
]


def new(edition: str, players: int, variants: tuple[str, ...] = ()) -> KingdominoGame:
    game = kbgrules.new_game("kingdomino", NAMES[:players], edition=edition, variants=variants)
    assert isinstance(game, KingdominoGame)
    return game


def bot_move(game: KingdominoGame, rng: random.Random) -> Move:
    return game.sample_chance(rng) if game.is_chance() else rng.choice(game.legal_moves())


def play(game: KingdominoGame, rng: random.Random, moves: int = 10**6) -> list[str]:
    """Play ``moves`` bot moves (or to the end); the log lines of the moves."""
    lines = []
    for _ in range(moves):
        if game.is_over():
            break
        move = bot_move(game, rng)
        lines.append(game.move_text(move))
        game.push(move)
    return lines


def standings(game: kbgrules.Game) -> list[tuple[str, int, int, int]]:
    out = game.outcome()
    return [(s.name, s.score.total, s.rank, s.discards) for s in out.standings]


# --------------------------------------------------------------------------- chance outcomes


def test_a_new_game_starts_with_the_deal_of_any_line() -> None:
    game = new("first", 2)
    assert game.is_chance() and game.turn is None and game.legal_moves() == []
    deals = game.chance_outcomes()
    assert isinstance(deals, Deals) and len(deals) == comb(48, 4) == 194_580
    assert deals[0] == (Deal((1, 2, 3, 4)), 1 / 194_580) and deals[-1][0] == Deal((45, 46, 47, 48))
    assert deals[1][0] == Deal((1, 2, 3, 5)) and deals[45][0] == Deal((1, 2, 4, 5))
    game.push(deals[12_345][0])
    assert game.is_chance() and len(game.chance_outcomes()) == 6  # the draw of kings: AABB, ABAB, ... BBAA
    game.push_text("kings Ann Bob Bob Ann")
    assert not game.is_chance() and game.chance_outcomes() == [] and game.turn == "Ann"
    with pytest.raises(KbgError) as exc:
        game.sample_chance(random.Random(1))
    assert exc.value.code == "no-chance" and "Ann's first claim" in exc.value.message


@pytest.mark.parametrize(("players", "variants", "orders"), [
    (2, (), 6), (3, (), 6), (4, (), 24), (2, ("mighty-duel",), 6), (2, ("snake-draft",), 2)])
def test_the_draw_of_kings_gives_every_order_of_the_kings_by_owner(players: int, variants: tuple[str, ...],
                                                                   orders: int) -> None:
    game = new("first", players, variants)
    game.push(game.sample_chance(random.Random(3)))
    outcomes = game.chance_outcomes()
    assert len(outcomes) == orders and isclose(sum(p for _, p in outcomes), 1)
    kings = sorted(game.state.king_owner)
    for draw, p in outcomes:
        assert isinstance(draw, DrawKings) and sorted(draw.order) == kings and p == 1 / orders
        assert game.is_legal(draw)
    assert len({d for d, _ in outcomes}) == orders
    rng = random.Random(5)
    seen = Counter(game.sample_chance(rng) for _ in range(300 * orders))
    assert set(seen) == {d for d, _ in outcomes}
    assert all(200 <= n <= 400 for n in seen.values()), seen


def test_deals_are_a_lazy_sequence_of_every_combination() -> None:
    deals = Deals([9, 3, 5, 1, 7, 8, 2], 3)
    listed = list(combinations([1, 2, 3, 5, 7, 8, 9], 3))
    assert len(deals) == len(listed) == 35
    assert [d.numbers for d, _ in deals] == listed == [deals[i][0].numbers for i in range(35)]
    assert deals[-35] == deals[0] and deals[2:5] == list(deals)[2:5]
    assert isclose(sum(p for _, p in deals), 1)
    assert all(deals.index(x) == i for i, x in enumerate(deals))
    assert (Deal((1, 2, 3)), 1 / 35) in deals
    for absent in (Deal((3, 2, 1)), Deal((1, 2, 4)), Deal((1, 2)), Deal((1, 2, 3, 5))):
        assert (absent, 1 / 35) not in deals
    assert (Deal((1, 2, 3)), 0.5) not in deals and "1 2 3" not in deals
    for bad in (35, -36):
        with pytest.raises(IndexError):
            deals[bad]
    with pytest.raises(ValueError):
        deals.index((Deal((1, 2, 4)), 1 / 35))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 194_579))
def test_any_deal_of_a_new_game_is_legal_and_found_again(seed: int, i: int) -> None:
    game = new("first", 2)
    deals = game.chance_outcomes()
    deal, _ = deals[i]
    assert isinstance(deal, Deal) and game.is_legal(deal) and deals.index(deals[i]) == i
    drawn = game.sample_chance(random.Random(seed))
    assert (drawn, 1 / 194_580) in deals and game.is_legal(drawn)


def test_a_deal_is_drawn_evenly_from_the_dominoes_left() -> None:
    game = new("first", 4)
    rng = random.Random(2)
    while game.state.lines_dealt < 10 or not game.is_chance():
        game.push(bot_move(game, rng))
    deals = game.chance_outcomes()
    assert len(deals) == comb(8, 4) == 70
    assert {d.numbers for d, _ in deals} == set(combinations(sorted(game.state.remaining_deck()), 4))
    seen = Counter(game.sample_chance(rng) for _ in range(70 * 200))
    assert set(seen) == {d for d, _ in deals}
    assert all(130 <= n <= 270 for n in seen.values()), seen.most_common(3)


# --------------------------------------------------------------------------- bots play whole games


@pytest.mark.parametrize(("edition", "players", "variants"), SETUPS)
def test_a_bot_plays_whole_games_whose_logs_check_clean(edition: str, players: int, variants: tuple[str, ...]) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        game = new(edition, players, variants)
        lines = play(game, rng)
        assert game.is_over() and game.outcome() is not None and game.outcome().winners
        row = game.state.row
        assert sum(1 for line in lines if line.startswith("deal ")) == row.rounds
        assert len(lines) == row.rounds + 1 + row.kings_in_play * (2 * row.rounds)
        for s in game.outcome().standings:  # a passing checkpoint changes nothing
            assert game.push_text(f"expect score {s.name} {s.score.total}") is None
        assert game.push_text("expect winner " + " ".join(game.outcome().winners)) is None
        assert len(game.moves) == len(lines)
        log = game.position_text().split("\n")[:-1]  # the headers: at the end, the position is a whole round
        head = [h for h in log if h.startswith("@") and not h.startswith("@start")]
        text = "\n".join([*head, *lines, "expect winner " + " ".join(game.outcome().winners)]) + "\n"
        report = check_text("bot.log", text)
        assert report.exit_code == 0 and report.games[0].valid, report.to_json()
        assert report.games[0].final["finished"] and report.games[0].final["winners"] == list(game.outcome().winners)
        [logged] = kbgrules.read_games(text)
        again = logged.replay()
        assert standings(again) == standings(game) and again.position_text() == game.position_text()


# --------------------------------------------------------------------------- push and pop


def test_push_and_pop_change_the_state_in_place() -> None:
    game = new("first", 2)
    rng = random.Random(4)
    play(game, rng, moves=30)
    state, kingdoms = game.state, list(game.state.kingdoms)
    before = (game.position_text(), [game.move_text(m) for m in game.legal_moves()])
    move = rng.choice(game.legal_moves())
    assert game.is_legal(move) and game.state is state
    game.push(move)
    assert game.pop() == move
    assert game.state is state and game.state.kingdoms == kingdoms  # no copy of the state was made
    assert (game.position_text(), [game.move_text(m) for m in game.legal_moves()]) == before


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from(SETUPS), st.integers(0, 200))
def test_pop_gives_back_every_earlier_moment(seed: int, setup: tuple[str, int, tuple[str, ...]], length: int) -> None:
    game = new(*setup)
    rng = random.Random(seed)
    seen = []
    for _ in range(length):
        if game.is_over():
            break
        seen.append((game.position_text(), game.state.scores(), game.is_chance()))
        game.push(bot_move(game, rng))
    while seen:
        text, scores, chance = seen.pop()
        game.pop()
        assert (game.position_text(), game.state.scores(), game.is_chance()) == (text, scores, chance)


# --------------------------------------------------------------------------- positions at any moment


def assert_round_trip(game: kbgrules.Game) -> kbgrules.Game:
    """``position_text`` read back is a game at the same moment: same text, legal moves and chance."""
    text = game.position_text()
    [logged] = kbgrules.read_games(text)
    back = logged.replay()
    assert back.position_text() == text
    assert [back.move_text(m) for m in back.legal_moves()] == [game.move_text(m) for m in game.legal_moves()]
    assert (back.is_chance(), back.turn, back.is_over()) == (game.is_chance(), game.turn, game.is_over())
    if game.is_chance():
        assert len(back.chance_outcomes()) == len(game.chance_outcomes())
    return back


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from(SETUPS))
def test_position_text_round_trips_at_every_move(seed: int, setup: tuple[str, int, tuple[str, ...]]) -> None:
    game = new(*setup)
    rng = random.Random(seed)
    while True:
        back = assert_round_trip(game)
        if game.is_over():
            break
        game.push(bot_move(game, rng))
    assert standings(back) == standings(game) and back.outcome().winners == game.outcome().winners


def test_position_text_mid_round_is_the_round_start_and_its_moves() -> None:
    game = new("first", 2, ("voluntary-discard",))
    for line in ("deal 4 22 28 46", "kings Ann Bob Bob Ann", "Ann claim 46", "Bob claim 4", "Bob claim 28",
                 "Ann claim 22", "deal 2 9 13 30", "Bob place 4 f5 g5", "Bob claim 2", "Ann discard 22"):
        game.push_text(line)
    assert game.position_text() == """@game kingdomino
@edition first
@variant voluntary-discard
@players Ann Bob
@start position
Ann kingdom
    C
Bob kingdom
    C
out 4 22 28 46
line 4:Bob 22:Ann 28:Bob 46:Ann
deal 2 9 13 30
Bob place 4 f5 g5
Bob claim 2
Ann discard 22
"""
    assert_round_trip(game)


def test_position_text_with_free_first_claims_and_from_a_stated_position() -> None:
    game = new("first", 3)
    for line in ("deal 7 8 9", "Cid claim 8", "Ann claim 9"):
        game.push_text(line)
        assert_round_trip(game)
    assert game.position_text().endswith("deal 7 8 9\nCid claim 8\nAnn claim 9\n")
    text = (EXAMPLES / "from-position.log").read_text()
    [logged] = kbgrules.read_games(text)
    moves = [e for e in logged.events if e.text.split()[0] == "deal" or e.text.split()[1] in ("claim", "place",
                                                                                                "discard")]
    position = "\n".join(text.splitlines()[:moves[0].line - 1]) + "\n"
    for i in range(len(moves) + 1):
        [part] = kbgrules.read_games(position + "\n".join(e.text for e in moves[:i]) + "\n")
        game = part.replay()
        assert_round_trip(game)
    assert game.is_over()


# --------------------------------------------------------------------------- checkpoints in push_text


def test_push_text_checks_checkpoints_as_the_checker_does() -> None:
    log = (EXAMPLES / "two-players.log").read_text()
    [logged] = kbgrules.read_games(log)
    game = logged.replay()
    assert game.push_text("expect score Ann 12") is None and game.push_text("expect winners Bob") is None
    grid = "expect kingdom Bob\n" + "\n".join("    " + r for r in game.kingdom("Bob").grid_text().splitlines())
    assert game.push_text(grid) is None
    moves = list(game.moves)
    for wrong in ("expect score Ann 13", "expect winner Ann", "expect kingdom Bob\n    C W"):
        with pytest.raises(IllegalMoveError) as exc:
            game.push_text(wrong)
        report = check_text("t.log", log + wrong + "\n")
        [violation] = report.games[0].violations
        assert (exc.value.code, exc.value.rule, exc.value.message) == (violation.code, violation.rule,
                                                                       violation.message)
        assert exc.value.code == "kd-checkpoint"
    assert game.moves == moves and game.is_over()
    early = new("first", 2)
    with pytest.raises(IllegalMoveError, match="no winner yet"):
        early.push_text("expect winner Ann")
    assert early.push_text("expect score Bob 0") is None and early.moves == []
    with pytest.raises(LogSyntaxError):
        early.parse_move("expect score Bob 0")  # a checkpoint is not a move
    with pytest.raises(LogSyntaxError):
        early.push_text("out 1 2 3 4")  # a position statement is not either
    with pytest.raises(LogSyntaxError):
        early.push_text("expect kingdom Ann")  # no grid under it


# --------------------------------------------------------------------------- kingdoms as text

ANNOTATED = """@game kingdomino
@players Ann Bob
deal 18 5 25 14
kings Ann Ann Bob Bob
Ann claim 25
Ann claim 18
Bob claim 5
Bob claim 14
deal 47 23 11 9
Bob place 5 e4 e3
Bob claim 11
Bob place 14 f6 f5
Bob claim 23
Ann place 18 c5 d5
Ann claim 9
Ann place 25 e7 e6
Ann claim 47
"""  # game 1 of the annotated example of docs/log-format.md, whose kingdoms kbg check prints there


def test_a_kingdom_prints_as_kbg_check_draws_it() -> None:
    [logged] = kbgrules.read_games(ANNOTATED)
    game = logged.replay()
    assert str(game.kingdom("Ann")) == "     c  d  e\n  7  .  .  F1\n  6  .  .  W\n  5  F  G  C"
    assert str(game.kingdom("Bob")) == "     e  f\n  6  .  W\n  5  C  L\n  4  F  .\n  3  F  ."
    bare = Kingdom(5)
    bare.place(game.rs.domino(20), (0, 1), (1, 1))
    assert str(bare) == "     e  f\n  6  W1 L\n  5  C  ."  # no ruleset: the terrains' initials


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from([(), ("mighty-duel",)]), st.integers(5, 60))
def test_str_of_a_kingdom_is_the_cli_drawing(seed: int, variants: tuple[str, ...], moves: int) -> None:
    from kbg_cli.render import Doc
    from kbgrules.core.views import Grid
    from kbgrules.kingdomino.kingdom import corner_name

    game = new("first", 2, variants)
    play(game, random.Random(seed), moves)
    for name in game.players:
        k = game.kingdom(name)
        doc = Doc()
        doc.grid(Grid(name, tuple(" ".join(r) for r in k.rows()), (), (), corner_name(k, k.size)), title=False)
        assert doc.plain() == str(k) + "\n"


def test_a_kingdom_knows_its_letters() -> None:
    game = new("first", 2)
    k = game.kingdom("Ann")
    assert k.letters == {t.id: t.letter for t in game.rs.terrains} and k.grid_text() == "C"
