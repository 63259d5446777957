"""King of Tokyo positions at any moment of a turn: between re-rolls, at the yield decisions, in the buy
phase with its dice and hits, and the lasting things a card leaves (energy on Battery Monster, a zombie,
an evolution discard pile, tiles out of the game, draws and tiles still owed). Each statement is read by
the checker, and ``position_text`` writes it where the game is at that moment."""

from __future__ import annotations

import pytest

import kbgrules
from kbgrules.core.check import check_text
from kbgrules.errors import KbgError

HEAD = "@game kot\n@players Ann Bob Cid\n"
DARK = "@game kot\n@edition dark\n@players Ann Bob Cid\n"
POWER = "@game kot\n@variant power-up\n@players Ann Bob Cid\n@monsters the-king gigazaur cyber-kitty\n"
MARKET = "market heal tank energize\n"
DARK_MARKET = "market acid-attack alien-origin alpha-monster\n"


def _outcome(text: str) -> tuple[int, list[tuple[int, str]]]:
    report = check_text("p.log", text)
    problems = [(x.line, x.code) for g in report.games for x in (*g.errors, *g.violations)]
    return report.exit_code, problems


@pytest.mark.parametrize("text", [
    # after the second roll: one re-roll is left
    HEAD + "Ann is vp=5 place=city\n" + MARKET + "turn Ann rolled 1 1 1 s e h rolls=2\nexpect Ann vp 5\n"
           "Ann reroll h : s\nAnn end\nexpect Ann vp 6\n",
    # at the yield decisions: the numbers include the dice; Bob, hit for 2 in Tokyo, decides; Jets gives them back
    HEAD + "Ann is vp=5\nBob is place=city hp=8 cards=jets\n" + MARKET
         + "turn Ann decide 2 2 2 s s e hit=Bob:2\nexpect pending Bob\nBob yield\nexpect tokyo city Ann\n"
           "expect Ann vp 6\nexpect Ann energy 0\nexpect Bob hp 10\n",
    # the buy phase with its final dice: Freeze Time reads them
    HEAD + "Ann is cards=freeze-time\n" + MARKET + "turn Ann buy 1 1 1 s e h\nAnn use freeze-time\nAnn end\n",
    HEAD + "Ann is cards=freeze-time\n" + MARKET + "turn Ann end 1 1 1 s e h hit=Bob:1 bought\nAnn end\n",
    # energy on Battery Monster: 2 of the 4 come off as the turn starts
    HEAD + "Ann is cards=battery-monster:4\n" + MARKET + "turn Ann\nexpect Ann energy 2\n"
           "expect Ann cards battery-monster\n",
    # a zombie keeps its maximum of 12 and heals no life with its dice
    DARK + "Ann is hp=12 vp=3 zombified\n" + DARK_MARKET + "turn Ann\nexpect Ann max-life 12\n",
    # a discarded tile is out of the game; a tile owed is taken before the turn ends
    DARK + "Ann is wickedness=3 owes=tile-3\n" + DARK_MARKET + "discard devious\nturn Ann buy\n"
           "Ann take skulking\nAnn end\nexpect Ann tiles skulking\n",
    # an evolution discard pile, and a draw still owed
    POWER + "Ann is hand=giant-banana discarded=monkey-rush owes=evolution\n" + MARKET
          + "turn Ann buy\nAnn evolve jungle-frenzy\nAnn end\n",
])
def test_a_position_states_the_moment(text: str) -> None:
    assert _outcome(text) == (0, [])


@pytest.mark.parametrize(("text", "line", "code"), [
    # rolls=2 leaves one re-roll: a second is one too many
    (HEAD + "Ann is place=city\n" + MARKET + "turn Ann rolled 1 1 1 s e h rolls=2\nAnn reroll h : s\n"
            "Ann reroll s : h\n", 7, "kot-too-many-rolls"),
    (HEAD + MARKET + "turn Ann rolled 1 1 1 s e h rolls=4\n", 4, "kot-position"),
    # nobody in Tokyo was hit: nobody decides
    (HEAD + "Ann is vp=5\n" + MARKET + "turn Ann decide 2 2 2 s s e hit=Bob:2\n", 5, "kot-position"),
    (HEAD + "Bob is place=city\n" + MARKET + "turn Ann decide 2 2 2 s s e hit=Ann:2\n", 5, "kot-position"),
    (HEAD + "Bob is place=city\n" + MARKET + "turn Ann decide 2 2 s s e hit=Bob:2\n", 5, "kot-dice-count"),
    # a card that holds no energy
    (HEAD + "Ann is cards=gourmet:4\n" + MARKET + "turn Ann\n", 3, "kot-position"),
    # a tile held is not in the supply to discard; a tile not due is not owed
    (DARK + "Ann is wickedness=3 tiles=devious\n" + DARK_MARKET + "discard devious\nturn Ann\n", 6, "kot-position"),
    (DARK + "Ann is wickedness=2 owes=tile-3\n" + DARK_MARKET + "turn Ann\n", 4, "kot-position"),
    (POWER + "Ann is discarded=?\n" + MARKET + "turn Ann\n", 5, "kot-position"),
    (HEAD + "Ann is owes=evolution\n" + MARKET + "turn Ann\n", 3, "kot-position"),
])
def test_an_impossible_moment_is_refused(text: str, line: int, code: str) -> None:
    _, problems = _outcome(text)
    assert problems[:1] == [(line, code)], problems


@pytest.mark.parametrize("turn", [
    "turn Ann decide 2 2 2 s s e",  # who was hit
    "turn Ann rolled 1 1 1 s e h rolls=x",
    "turn Ann rolled 1 1 1 s e h rolls=0",
    "turn Ann start bought",
    "turn Ann rolled 1 1 1 s e h bought",
    "turn Ann buy hit=Bob",
    "turn Ann buy hit=Zed:2",
    "turn Ann buy hit=Bob:2,Bob:3",
    "turn Ann enter 1 1 1 s e h",
    "turn Ann resolve 1 1 1 s e h rolls=2",
])
def test_turn_lines_are_read_strictly(turn: str) -> None:
    (game,) = check_text("p.log", HEAD + "Bob is place=city\n" + MARKET + turn + "\n").games
    assert game.errors and game.errors[0].line == 5 and game.errors[0].code.startswith("log-"), turn


def _state_at(text: str) -> kbgrules.Game:
    return kbgrules.read_games(text)[-1].replay()


@pytest.mark.parametrize(("text", "turn"), [
    (HEAD + "Bob is place=city\n" + MARKET + "turn Ann rolled 1 1 1 s e h\nAnn reroll h : s\n",
     "turn Ann rolled 1 1 1 s e s rolls=2"),
    (HEAD + "Bob is place=city\n" + MARKET + "turn Ann rolled 1 1 2 s s h\nAnn keep\n",
     "turn Ann decide 1 1 2 s s h hit=Bob:2"),
    (HEAD + "Ann is energy=9\n" + MARKET + "turn Ann rolled 1 1 2 s s h\nAnn keep\nAnn buy tank : frenzy\n",
     "turn Ann buy 1 1 2 s s h bought"),
])
def test_position_text_writes_the_moment(text: str, turn: str) -> None:
    game = _state_at(text)
    stated = game.position_text()
    assert stated.splitlines()[-1] == turn
    assert _state_at(stated).position_text() == stated


def test_position_text_writes_what_cards_leave() -> None:
    stated = _state_at(DARK + "Ann is hp=12 vp=3 zombified\n" + DARK_MARKET + "discard devious\nturn Ann\n"
                       ).position_text()
    assert "Ann is hp=12 vp=3 energy=0 zombified" in stated and "discard devious" in stated
    stated = _state_at(HEAD + "Ann is cards=battery-monster:6\n" + MARKET + "turn Ann\n").position_text()
    assert "Ann is hp=10 vp=0 energy=2 cards=battery-monster:4" in stated


def test_a_finished_game_or_a_move_waiting_for_chance_has_no_position() -> None:
    over = _state_at(HEAD + "Ann is vp=19\n" + MARKET + "turn Ann\nAnn roll 1 1 1 s e h\nAnn end\n")
    assert over.is_over()
    with pytest.raises(KbgError, match="the game is over") as exc:
        over.position_text()
    assert exc.value.code == "kot-position-moment"
    waiting = _state_at(HEAD + "Ann is energy=9\n" + MARKET + "turn Ann buy\n")
    buy = next(m for m in waiting.legal_moves() if waiting.move_text(m).startswith("Ann buy tank"))
    waiting.push(buy)
    assert waiting.is_chance()  # the card revealed in its place
    with pytest.raises(KbgError, match="waits for its chance outcome"):
        waiting.position_text()


def test_a_count_on_no_card_is_read_strictly() -> None:
    (game,) = check_text("p.log", HEAD + "Ann is cards=:3\n" + MARKET + "turn Ann\n").games
    assert [(e.line, e.code) for e in game.errors] == [(3, "log-syntax")]

