"""King of Tokyo games from code: positions that read back to themselves, chance, bots."""

from __future__ import annotations

import random

import pytest

import kbgrules
from kbgrules import KbgError
from kbgrules.core.check import check_text
from kbgrules.king_of_tokyo.game import KingOfTokyoGame
from kbgrules.king_of_tokyo.simulate import simulate_king_of_tokyo

# (players, edition, variants): what the simulator plays
SETTINGS = [(2, None, ()), (3, None, ()), (4, None, ()), (5, None, ()), (6, None, ()), (2, None, ("two-player",)),
            (4, "2011", ()), (5, "dark", ()), (3, "dark", ()), (4, None, ("power-up",)), (2, None, ("power-up",)),
            (6, "2011", ())]


def _events(log: str) -> tuple[list[str], list[str]]:
    """A log's header lines and event lines."""
    lines = [ln for ln in log.splitlines() if ln and not ln.startswith("#")]
    return [ln for ln in lines if ln.startswith("@")], [ln for ln in lines if not ln.startswith("@")]


def _state_row(game: kbgrules.Game) -> list[tuple[object, ...]]:
    return [(m.hp, m.vp, m.energy, m.location, m.eliminated, sorted(m.cards)) for m in game.state.monsters]


def _round_trips(game: kbgrules.Game, rest: list[str]) -> bool:
    """``game.position_text()`` reads back to the same position, legal moves and end; False where a
    position cannot be stated now."""
    try:
        text = game.position_text()
    except KbgError as exc:
        assert exc.code == "kot-position-moment"
        return False
    [back] = kbgrules.read_games(text)
    resumed = back.replay()
    assert resumed.position_text() == text
    assert [resumed.move_text(m) for m in resumed.legal_moves()] == [game.move_text(m) for m in game.legal_moves()]
    [whole] = kbgrules.read_games(text + "".join(f"{ln}\n" for ln in rest))
    end = whole.replay()
    assert end.outcome() == _end(game, rest).outcome()
    assert _state_row(end) == _state_row(_end(game, rest))
    return True


_ENDS: dict[int, kbgrules.Game] = {}


def _end(game: kbgrules.Game, rest: list[str]) -> kbgrules.Game:
    key = id(rest)
    if key not in _ENDS:
        other = game.copy()
        for ln in rest:
            if not ln.startswith("expect"):
                other.push_text(ln)
        _ENDS[key] = other
    return _ENDS[key]


def test_a_position_at_the_start_of_a_turn_in_tokyo_scores_once() -> None:
    """The issue's case: a position before the turn of a monster in Tokyo City says its start-of-turn VP
    are already counted (``turn NAME started``), so reading it back does not count them again."""
    log = simulate_king_of_tokyo(4, 5)
    lines = log.splitlines()
    cuts = [k for k, ln in enumerate(lines) if ln.startswith("Bob roll")]
    seen = 0
    for k in cuts:
        game = kbgrules.read_games("\n".join(lines[:k]) + "\n")[0].replay()
        if game.state.monsters[1].location != "city":
            continue
        text = game.position_text()
        assert "turn Bob started" in text
        back = kbgrules.read_games(text)[0].replay()
        assert back.state.monsters[1].vp == game.state.monsters[1].vp
        seen += 1
    assert seen


@pytest.mark.parametrize(("players", "edition", "variants", "seed"),
                         [(*s, 1) for s in SETTINGS] + [(4, None, (), 5), (5, "dark", (), 7)])
def test_position_text_reads_back_to_the_same_position(players: int, edition: str | None,
                                                       variants: tuple[str, ...], seed: int) -> None:
    log = simulate_king_of_tokyo(players, seed, edition, variants)
    head, events = _events(log)
    [logged] = kbgrules.read_games("\n".join(head) + "\n")
    game = logged.replay()
    stated = 0
    for k, line in enumerate(events):
        if line.startswith("expect"):
            continue
        if not game.lines or game.lines[-1].split()[:1] not in (["first"], ["market"]):
            rest = events[k:]
            _ENDS.clear()
            stated += _round_trips(game, rest)
        game.push_text(line)
    assert stated >= 3


BOTS = [(2, None, (), None), (3, None, (), None), (4, None, (), None), (5, None, (), None), (6, None, (), None),
        (2, None, ("two-player",), None), (4, "2011", (), None), (6, "2011", (), None), (4, "dark", (), "red"),
        (3, "dark", (), "mixed"), (4, None, ("power-up",), None), (2, None, ("power-up", "evolution-draft"), None)]


def _bot_game(players: int, edition: str | None, variants: tuple[str, ...], tiles: str | None,
              seed: int) -> tuple[KingOfTokyoGame, str]:
    """A whole game from ``new_game``, chance sampled and decisions random; the game and its log."""
    rng = random.Random(seed)
    rs = kbgrules.load("kot", edition=edition, variants=variants, players=players)
    monsters: list[str] = []
    if rs.evolution is not None and not rs.evolution.draft:
        monsters = rng.sample(sorted({c.monster for c in rs.evolutions}), players)
    game = KingOfTokyoGame(rs, ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:players], monsters=monsters, tiles=tiles)
    for _ in range(5000):
        if game.is_over():
            break
        if game.is_chance():
            game.push(game.sample_chance(rng))
        else:
            moves = game.legal_moves()
            assert moves, game.state.expected()
            game.push(rng.choice(moves))
    head = [f"@game king-of-tokyo\n@edition {rs.edition.id}\n", *(f"@variant {v.id}\n" for v in rs.variants),
            f"@players {' '.join(game.players)}\n"]
    if monsters:
        head.append(f"@monsters {' '.join(monsters)}\n")
    if tiles:
        head.append(f"@tiles {tiles}\n")
    return game, "".join(head) + "".join(f"{ln}\n" for ln in game.lines)


@pytest.mark.parametrize(("players", "edition", "variants", "tiles"), BOTS)
@pytest.mark.parametrize("seed", range(4))
def test_a_bot_plays_a_whole_game_from_new_game(players: int, edition: str | None, variants: tuple[str, ...],
                                                tiles: str | None, seed: int) -> None:
    game, log = _bot_game(players, edition, variants, tiles, seed)
    assert game.is_over()
    report = check_text("bot.log", log)
    assert report.exit_code == 0, report.text() if hasattr(report, "text") else log
    [logged] = kbgrules.read_games(log)
    assert logged.replay().outcome() == game.outcome()
    n = len(game.lines)  # pop takes every line back, and pushing them again ends the same
    moves = list(game.moves)
    while len(game.lines) > n - n // 2:  # a line pushed as a decision, then its chance part, pops in two
        game.pop()
    for m in moves[n - n // 2:]:
        game.push(m)
    assert game.lines == log.splitlines()[-n:] and game.outcome() == logged.replay().outcome()


def test_chance_outcomes_are_every_multiset_once_with_probabilities_summing_to_one() -> None:
    game = kbgrules.new_game("kot", ["Ann", "Bob", "Cid"])
    for line in ("first Ann", "market heal tank energize"):
        game.push_text(line)
    roll = game.chance_outcomes()
    assert len(roll) == 462 and len({m for m, _ in roll}) == 462  # 6 dice, 6 faces: C(11, 5)
    assert abs(sum(p for _, p in roll) - 1) < 1e-9
    assert dict(roll)[game.parse_move("Ann roll 1 1 1 1 1 1")] == pytest.approx(6 ** -6)
    game.push_text("Ann roll 1 1 1 s s e")
    game.push_text("Ann keep")
    game.state.monsters[0].energy = 2
    sweep = next(m for m in game.legal_moves() if game.move_text(m) == "Ann sweep :")
    game.push(sweep)
    outcomes = game.chance_outcomes()
    deck = sum(game.state.deck.values())
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and len(outcomes) < deck ** 3
    rng = random.Random(3)
    drawn = {game.sample_chance(rng) for _ in range(50)}
    assert drawn <= set(dict(outcomes))
    game.push(outcomes[len(outcomes) // 2][0])
    assert game.lines[-1].startswith("Ann sweep : ") and not game.is_chance()
    # a pop takes back one push: the chance part, and the sweep waits for its cards again
    assert game.pop() == outcomes[len(outcomes) // 2][0] and game.is_chance()
    assert game.chance_outcomes()[len(outcomes) // 2] == outcomes[len(outcomes) // 2]
    assert game.pop() == sweep and game.legal_moves() and not game.is_chance()
    game.push(sweep)
    assert game.pop() == sweep and game.legal_moves()


def test_expect_lines_are_checked_as_the_checker_checks_them() -> None:
    game = kbgrules.new_game("kot", ["Ann", "Bob"])
    for line in ("first Ann", "market heal tank energize", "Ann roll 1 1 1 s s e", "Ann keep"):
        game.push_text(line)
    n = len(game.lines)
    assert game.push_text("expect Ann vp 2") is None and len(game.lines) == n
    with pytest.raises(kbgrules.IllegalMoveError) as exc:
        game.push_text("expect Ann vp 3")
    assert exc.value.code == "kot-checkpoint" and len(game.lines) == n


def test_active_evolution_rolls_after_the_starting_draws() -> None:
    """Once every monster has drawn its starting evolution, the first roll is chance (legal_moves offered
    'keep' there, which the engine refused)."""
    game = kbgrules.new_game("kot", ["Ann", "Bob"], variants=["active-evolution"])
    rng = random.Random(1)
    for _ in range(4):  # the first player, the market, each monster's starting evolution
        assert game.is_chance() and not game.legal_moves()
        game.push(game.sample_chance(rng))
    assert [ln.split()[1] for ln in game.lines[2:]] == ["evolve", "evolve"]
    assert game.is_chance() and not game.legal_moves() and game.turn is None
    game.push(game.sample_chance(rng))
    assert game.lines[-1].split()[1] == "roll" and game.legal_moves()


def test_the_evolution_draft_position_states_the_decks() -> None:
    log = simulate_king_of_tokyo(2, 1, None, ("evolution-draft",), ["Ann", "Bob"])
    headers, events = _events(log)
    game = kbgrules.read_games("\n".join(headers) + "\n")[-1].replay()  # headers alone: the draft comes next
    assert game.is_chance() and game.position_text().splitlines() == headers[1:]  # (not "@kbg 1")
    assert check_text("draft.log", "\n".join([*headers, *events[:3]]) + "\n").exit_code == 0  # a deck to come
    stated = 0
    for line in events:
        game.push_text(line)
        try:
            text = game.position_text()
        except KbgError as exc:
            assert exc.code in ("kot-position-moment", "kot-camouflage")
            continue
        back = kbgrules.read_games(text)[0].replay()
        assert back.position_text() == text and back.is_chance() == game.is_chance()
        assert sorted(map(back.move_text, back.legal_moves())) == sorted(map(game.move_text, game.legal_moves()))
        if game._began:
            decks = [ln.split()[0] for ln in text.splitlines() if ln.split()[1:2] == ["evolutions"]]
            assert decks == ["Ann", "Bob"]
            stated += 1
    assert stated >= 5


def test_sample_chance_with_no_outcome_is_a_kbg_error() -> None:
    import dataclasses

    rs = kbgrules.load("kot", players=2)
    game = KingOfTokyoGame(dataclasses.replace(rs, market_size=500), ["Ann", "Bob"])  # a market no deck fills
    game.push_text("first Ann")
    assert game.is_chance() and len(game.chance_outcomes()) == 0
    with pytest.raises(KbgError) as exc:
        game.sample_chance(random.Random(1))
    assert exc.value.code == "no-chance-outcome"


@pytest.mark.parametrize(("edition", "variants"), [(None, ()), ("2011", ()), ("dark", ()), (None, ("power-up",)),
                                                   ("dark", ("power-up",))])
def test_pop_right_after_each_push_gives_back_the_whole_state(edition: str | None, variants: tuple[str, ...]) -> None:
    """Every attribute a move can change (the state's own snapshot, monsters field by field), the history and
    the choices are as before the push, whatever undo record the move took (a whole snapshot or the dice)."""
    names = ["Ann", "Bob", "Cid", "Dee"]

    def whole(game: kbgrules.Game) -> tuple[object, ...]:
        try:
            st = game.state
        except KbgError:  # the set-up is not complete
            return (game.moves[:],)
        return st._snapshot(), list(st.history), game.is_chance(), list(game.legal_moves())

    popped = 0
    for seed in range(3):
        game = kbgrules.new_game("king-of-tokyo", names, edition=edition, variants=variants)
        rng = random.Random(seed)
        for _ in range(300):
            if game.is_over():
                break
            move = game.sample_chance(rng) if game.is_chance() else rng.choice(game.legal_moves())
            before = whole(game)
            game.push(move)
            game.pop()
            assert whole(game) == before
            popped += len(before) > 1
            game.push(move)
    assert popped > 500
