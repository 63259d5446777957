"""The library API a tool author uses: games from code, logs as objects, errors with places."""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kbgrules
from kbgrules import AmbiguousMoveError, IllegalMoveError, KbgError, LogSyntaxError
from kbgrules.kingdomino.simulate import simulate_kingdomino

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "kingdomino"


def test_a_kingdomino_game_from_code() -> None:
    game = kbgrules.new_game("kd", ["Ann", "Bob"])
    assert game.players == ("Ann", "Bob") and game.turn is None and game.legal_moves() == []
    game.push_text("deal 4 22 28 46")
    game.push_text("kings Ann Bob Bob Ann")
    assert game.turn == "Ann"
    assert [game.move_text(m) for m in game.legal_moves()] == [f"Ann claim {n}" for n in (4, 22, 28, 46)]
    for line in ("Ann claim 46", "Bob claim 4", "Bob claim 28", "Ann claim 22", "deal 2 9 13 30"):
        game.push_text(line)
    assert game.turn == "Bob"  # Bob's king stands on domino 4, the lowest number
    assert game.move_text(game.parse_move("Bob place 4 e6 e7")) == "Bob place 4 e6 e7"
    assert game.outcome() is None and not game.is_over()


def test_illegal_moves_raise_with_code_and_rule_and_change_nothing() -> None:
    game = kbgrules.new_game("kingdomino", ["Ann", "Bob"])
    game.push_text("deal 4 22 28 46")
    game.push_text("kings Ann Bob Bob Ann")
    before = game.state.copy()
    with pytest.raises(IllegalMoveError) as exc:
        game.push_text("Bob claim 4")
    assert exc.value.code == "kd-wrong-player" and exc.value.rule.startswith("kd.")
    assert not game.is_legal(game.parse_move("Bob claim 4")) and game.is_legal(game.parse_move("Ann claim 4"))
    assert game.state.history == before.history and len(game.moves) == 2


def test_syntax_errors_and_ambiguous_moves() -> None:
    game = kbgrules.new_game("kingdomino", ["Ann", "Bob"])
    with pytest.raises(LogSyntaxError):
        game.parse_move("Ann fly 4")
    with pytest.raises(LogSyntaxError):
        game.parse_move("expect score Ann 3")
    for line in ("deal 1 2 3 4", "kings Ann Bob Bob Ann", "Ann claim 1", "Bob claim 2", "Bob claim 3",
                 "Ann claim 4", "deal 5 6 7 8"):
        game.push_text(line)
    with pytest.raises(AmbiguousMoveError) as amb:
        game.parse_move("Ann place 1 e6")  # the second half could go up, left or right
    assert len(amb.value.candidates) >= 2 and all(c.startswith("Ann place 1 e6 ") for c in amb.value.candidates)
    assert isinstance(amb.value, KbgError)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4]), st.integers(1, 120))
def test_push_pop_and_copy_give_back_every_state(seed: int, players: int, length: int) -> None:
    rng = random.Random(seed)
    game = kbgrules.new_game("kingdomino", ["Ann", "Bob", "Cid", "Dee"][:players])
    states = []
    for _ in range(length):
        if game.is_over():
            break
        move = game.sample_chance(rng) if game.is_chance() else rng.choice(game.legal_moves())
        assert game.is_legal(move)
        states.append((game.position_text(), [game.move_text(m) for m in game.legal_moves()], game.is_chance()))
        game.push(move)
    twin = game.copy()
    while game.moves:
        text, legal, chance = states.pop()
        game.pop()
        assert (game.position_text(), [game.move_text(m) for m in game.legal_moves()], game.is_chance()) == \
            (text, legal, chance)
    assert len(twin.moves) > 0 and twin.state.history == twin.moves
    with pytest.raises(KbgError):
        game.pop()
    while twin.moves:  # the copy takes its moves back on its own
        twin.pop()
    assert twin.position_text() == game.position_text()


def test_read_games_and_replay_a_file() -> None:
    path = EXAMPLES / "two-players.log"
    games = kbgrules.read_games(path)
    assert games and games[0].game == "kingdomino" and games[0].players
    game = games[0].replay()
    report = games[0].check()
    assert report.valid and game.outcome() is not None
    assert list(game.outcome().winners) == report.final["winners"]
    assert [g.players for g in kbgrules.read_games(str(path))] == [g.players for g in games]


def test_read_games_reads_a_file_as_check_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The size limit and the codes of `kbg check`; a file named ``-`` is that file, not standard input."""
    from kbgrules.core.logfile import MAX_LOG_BYTES

    big = tmp_path / "big.log"
    with open(big, "wb") as fh:
        fh.truncate(MAX_LOG_BYTES + 2)
    with pytest.raises(LogSyntaxError) as exc:
        kbgrules.read_games(big)
    assert (exc.value.code, exc.value.file, exc.value.line) == ("file-too-large", str(big), 1)
    assert [e.code for e in kbgrules.check_file(str(big)).input_errors] == ["file-too-large"]
    (tmp_path / "bin.log").write_bytes(b"@game kingdomino\x00\n")
    with pytest.raises(LogSyntaxError, match="NUL"):
        kbgrules.read_games(tmp_path / "bin.log")
    with pytest.raises(KbgError) as missing:
        kbgrules.read_games(tmp_path / "missing.log")
    assert missing.value.code == "unreadable" and missing.value.file == str(tmp_path / "missing.log")
    (tmp_path / "-").write_text((EXAMPLES / "two-players.log").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", None)  # read from here, it would fail
    assert [g.players for g in kbgrules.read_games("-")] == [("Ann", "Bob")]


def test_replay_raises_the_first_problem_where_it_is() -> None:
    bad = "@game kingdomino\n@players Ann Bob\ndeal 3 17 22 40\nkings Ann Bob Bob Ann\nBob claim 40\n"
    [g] = kbgrules.read_games(bad)
    with pytest.raises(IllegalMoveError) as exc:
        g.replay()
    assert (exc.value.line, exc.value.col, exc.value.code) == (5, 1, "kd-wrong-player")
    assert str(exc.value).startswith("<text>:5:1: ")
    [g] = kbgrules.read_games("@game kingdomino\n@players Ann Bob\ndeal 3 17 22 forty\n")
    with pytest.raises(LogSyntaxError) as syn:
        g.replay()
    assert syn.value.line == 3 and syn.value.col > 1


@pytest.mark.parametrize("seed", [1, 7, 42])
def test_a_position_text_starts_a_log_that_plays_on(seed: int) -> None:
    """Cut a random game between two rounds; the position plus the rest of the log replays to the same end."""
    log = simulate_kingdomino(3, seed)
    [g] = kbgrules.read_games(log)
    game = kbgrules.new_game("kingdomino", g.players)
    events = [e.text for e in g.events if not e.text.startswith("expect")]
    cut = [i for i, e in enumerate(events) if e.startswith("deal")][4]
    for text in events[:cut]:
        game.push_text(text)
    position = game.position_text()
    assert "@start position" in position and "out " in position and "line " in position
    [resumed] = kbgrules.read_games(position + "\n".join(events[cut:]) + "\n")
    end = resumed.replay()
    assert end.outcome() == g.replay().outcome()


def test_position_text_in_the_first_round_is_the_moves_so_far() -> None:
    game = kbgrules.new_game("kingdomino", ["Ann", "Bob"])
    assert game.position_text() == "@game kingdomino\n@edition first\n@players Ann Bob\n"
    for line in ("deal 4 3 2 1", "kings Bob Ann Ann Bob", "Bob claim 3"):
        game.push_text(line)
    assert game.position_text().splitlines()[3:] == ["deal 1 2 3 4", "kings Bob Ann Ann Bob", "Bob claim 3"]


def test_placement_problems_of_a_game_give_every_broken_rule() -> None:
    game = kbgrules.new_game("kingdomino", ["Ann", "Bob"])
    errors = game.placement_problems("Ann", 20, "e5", "e7")
    assert [(e.code, e.rule) for e in errors] == [
        ("kd-cells-apart", "kd.place.orientation"), ("kd-overlap", "kd.place.overlap"),
        ("kd-no-connection", "kd.place.connect")]
    assert all(isinstance(e, IllegalMoveError) and e.message for e in errors)
    [big] = game.placement_problems("Bob", ("W1", "F"), "f5", "j5")[1:]
    assert big.code == "kd-too-big" and "W1-F" in big.message
    assert game.placement_problems("Ann", 20, (1, 0), (2, 0)) == []


@pytest.mark.parametrize(("game", "first"), [("kot", "first Ann"), ("kingdomino", "deal 1 2 3 4")])
def test_a_game_from_code_in_a_fresh_interpreter(game: str, first: str) -> None:
    """As a tool author's script meets it: nothing else of kbg imported before (the compiled build once
    read ``kbgrules.core.args`` as None in King of Tokyo's game until another module had imported it)."""
    import subprocess
    import sys

    script = (f"import kbgrules; g = kbgrules.new_game({game!r}, ['Ann', 'Bob']); "
              f"print(g.push_text({first!r}) == g.parse_move({first!r}))")
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=root)
    assert (r.returncode, r.stdout.strip(), r.stderr) == (0, "True", "")


def test_the_first_script_of_the_docs_runs() -> None:
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "examples" / "scripts" / "first_script.py"
    spec = importlib.util.spec_from_file_location("first_script", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.summary(str(EXAMPLES / "two-players.log")) == ["game 1: won by Bob"]


# ---------------------------------------------------------------- King of Tokyo

KOT = Path(__file__).resolve().parent.parent / "examples" / "king-of-tokyo"


def test_a_king_of_tokyo_game_from_code() -> None:
    game = kbgrules.new_game("kot", ["Ann", "Bob", "Cid"])
    assert game.turn is None and game.legal_moves() == []
    assert game.push_text("first Ann") == game.parse_move("first Ann")  # a set-up move
    game.push_text("market heal tank energize")
    assert game.turn is None and game.is_chance() and game.state.active == 0  # Ann's roll comes: chance
    game.push_text("Ann roll 1 1 1 s s e")
    game.push_text("Ann reroll 1 1 : 2 2")
    moves = [game.move_text(m) for m in game.legal_moves()]
    assert moves[0] == "Ann keep" and "Ann reroll 2 2 e :" in moves and len(moves) == 1 + 2 * 3 * 3 * 2 - 1
    game.push_text("Ann keep")
    st = game.state
    assert st.monsters[0].location == "city" and st.monsters[0].energy == 1
    assert game.is_legal("Ann end") and not game.is_legal("Bob end")
    with pytest.raises(IllegalMoveError) as exc:
        game.push_text("Ann buy tank : frenzy")  # Tank costs 4, Ann has 1 energy
    assert exc.value.code.startswith("kot-") and exc.value.rule.startswith("kot.")
    game.push_text("Ann end")
    game.push_text("Bob roll s s s h h h")
    assert game.turn == "Bob"
    game.push_text("Bob keep")
    assert game.turn == "Ann"  # hit in Tokyo: Ann decides to yield or stay
    assert {game.move_text(m) for m in game.legal_moves()} == {"Ann yield", "Ann stay"}
    game.push_text("Ann yield")
    assert game.state.monsters[1].location == "city" and game.pop() is not None
    assert game.turn == "Ann" and game.lines[-1] == "Bob keep"
    twin = game.copy()
    twin.push_text("Ann stay")
    assert game.turn == "Ann" and twin.state.monsters[0].location == "city"


@pytest.mark.parametrize("name", ["four-players", "two-players", "dark-edition", "power-up", "from-position"])
def test_replayed_king_of_tokyo_logs_end_where_the_checker_says(name: str) -> None:
    [logged] = kbgrules.read_games(KOT / f"{name}.log")
    game = logged.replay()
    report = logged.check()
    assert game.is_over() and list(game.outcome().winners) == report.final["game_over"]["winners"]


def test_a_king_of_tokyo_position_starts_a_log_that_plays_on() -> None:
    game = kbgrules.new_game("kot", ["Ann", "Bob", "Cid"])
    for line in ("first Ann", "market heal tank energize", "Ann roll 1 1 1 e e e", "Ann keep", "Ann end",
                 "Bob roll s s h 2 2 2", "Bob keep", "Ann stay"):
        game.push_text(line)
    assert game.state.phase == "buy"
    position = game.position_text()
    assert "turn Bob buy" in position and "Ann is hp=8 vp=2 energy=3 place=city" in position
    rest = ["Bob end", "Cid roll 3 3 3 h e s", "Cid keep", "Ann yield", "Cid end"]
    for line in rest:
        game.push_text(line)
    [resumed] = kbgrules.read_games(position + "\n".join(rest) + "\n")
    end = resumed.replay()
    assert [(m.hp, m.vp, m.energy, m.location) for m in end.state.monsters] == [
        (m.hp, m.vp, m.energy, m.location) for m in game.state.monsters]
    game.push_text("Ann roll 1 2 3 e h s")  # after the first roll: stated, and read back the same
    rolled = game.position_text()
    assert rolled.endswith("turn Ann rolled 1 2 3 e h s\n")
    [back] = kbgrules.read_games(rolled)
    assert back.replay().position_text() == rolled
    game.push_text("Ann reroll 1 : 2")  # between re-rolls: the count of rolls made is stated
    rerolled = game.position_text()
    assert rerolled.endswith("turn Ann rolled 2 3 e h s 2 rolls=2\n")
    [back] = kbgrules.read_games(rerolled)
    assert back.replay().position_text() == rerolled


def test_a_logged_games_variant_tags_all_count() -> None:
    """Two @variant lines: the logged game's variants and ruleset take both, as kbg check does."""
    [g] = kbgrules.read_games("@game kingdomino\n@players Ann Bob\n@variant harmony\n@variant middle-kingdom\n"
                              "deal 4 22 28 46\n")
    assert g.variants == ("harmony", "middle-kingdom")
    assert {v.id for v in g.ruleset().variants} == {"harmony", "middle-kingdom"}


@pytest.mark.parametrize("gid", ["kingdomino", "king-of-tokyo"])
def test_a_game_copies_with_the_copy_module_and_pickles(gid: str) -> None:
    game = kbgrules.new_game(gid, ["Ann", "Bob", "Cid"])
    rng = random.Random(4)
    for _ in range(25):
        game.push(game.sample_chance(rng) if game.is_chance() else rng.choice(game.legal_moves()))
    text, moves = game.log_text(), len(game.moves)
    for twin in (copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert twin is not game and twin.rs is game.rs and twin.log_text() == text
        assert twin.position_text() == game.position_text() and twin.turn == game.turn
        for _ in range(moves):  # its moves are its own, and each can be taken back
            twin.pop()
        assert game.log_text() == text and not twin.moves


def test_a_pickled_game_keeps_what_its_replay_can_take_back() -> None:
    [logged] = kbgrules.read_games(EXAMPLES / "two-players.log")
    game = logged.replay()  # a replayed Kingdomino log has no move to take back
    back = pickle.loads(pickle.dumps(game))
    assert back.log_text() == game.log_text() and back.outcome() == game.outcome()
    with pytest.raises(KbgError, match="no move to take back"):
        back.pop()
    [stated] = kbgrules.read_games(EXAMPLES / "from-position.log")
    with pytest.raises(TypeError, match=r"position_text\(\)"):
        pickle.dumps(stated.replay())


def test_a_ruleset_pickles_as_its_load(tmp_path: Path) -> None:
    rs = kbgrules.load("king-of-tokyo", edition="dark", variants=["power-up"], players=4)
    assert pickle.loads(pickle.dumps(rs)) is rs  # loaded again: the same shared object
    house = Path(__file__).resolve().parent.parent / "docs" / "examples" / "house-rules"
    game = kbgrules.new_game("kingdomino", ["Ann", "Bob", "Cid"], variants=["big-kingdom"], rules_dirs=[house])
    back = pickle.loads(pickle.dumps(game))  # the user rule folder goes with it
    assert back.rs is game.rs and back.rs.rules_dirs == (str(house),) and back.rs.kingdom_size == 6


def test_errors_and_reports_pickle_for_worker_processes() -> None:
    """A worker process hands its errors and reports back pickled: they come back whole."""
    failing = (lambda: kbgrules.new_game("kd", ["Ann", "Bob"]).push_text("Ann claim 4"),  # IllegalMoveError
               lambda: kbgrules.new_game("kd", ["Ann", "Bob"]).push_text("Ann flies"),  # LogSyntaxError
               lambda: kbgrules.load("kingdomnio"),  # UnknownNameError
               lambda: kbgrules.load("kd", players=9))  # PlayerCountError
    kinds = set()
    for call in failing:
        with pytest.raises(KbgError) as info:
            call()
        exc = info.value.located("a.log", 3, 5)
        back = pickle.loads(pickle.dumps(exc))
        assert type(back) is type(exc) and str(back) == str(exc) and back.args == exc.args
        assert vars(back) == vars(exc)  # code, message, place, and each subclass's own (rule, suggestions...)
        kinds.add(type(exc).__name__)
    assert kinds == {"IllegalMoveError", "LogSyntaxError", "UnknownNameError", "PlayerCountError"}
    for path in (EXAMPLES / "four-players-bonuses.log", KOT / "four-players.log"):
        logged = kbgrules.read_games(path)[0]
        report = logged.check()
        back = pickle.loads(pickle.dumps(report))  # its timeline is built for it: the state stays here
        assert back.to_json(turns=True) == report.to_json(turns=True) and back.timeline_builder is None
        outcome = logged.replay().outcome()  # Kingdomino's: standings, scores (read-only bonuses), properties
        assert outcome is not None and pickle.loads(pickle.dumps(outcome)) == outcome
        if path.parent == EXAMPLES:
            score = next(s.score for s in outcome.standings if s.score.bonuses)
            assert pickle.loads(pickle.dumps(score)).bonuses == score.bonuses
