"""King of Tokyo games from code: positions that read back to themselves, chance, bots."""

from __future__ import annotations

import pytest

import kbgrules
from kbgrules import KbgError
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
    stated = points = 0
    for k, line in enumerate(events):
        if line.startswith("expect"):
            continue
        if not game.lines or game.lines[-1].split()[:1] not in (["first"], ["market"]):
            rest = events[k:]
            _ENDS.clear()
            stated += _round_trips(game, rest)
        game.push_text(line)
    assert stated >= 8
