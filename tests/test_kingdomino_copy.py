"""KingdominoState.copy(): an independent copy, the same in everything it shows as the deep copy it
replaces; and states made by calling the class from this (interpreted) code, in the compiled build too."""

from __future__ import annotations

import pytest

import kbgrules
from kbgrules.core.compiled import PURE, build
from kbgrules.kingdomino.kingdom import CASTLE, Kingdom
from kbgrules.kingdomino.log import final_json
from kbgrules.kingdomino.simulate import simulate_kingdomino
from kbgrules.kingdomino.state import Action, Deal, KingdominoState, Place

NAMES = ["Ann", "Bob", "Cid", "Dee"]
# what copy() copies or shares: an attribute added to the state must be added to copy() and here
ATTRIBUTES = {"rs", "players", "row", "dominoes", "kingdoms", "king_owner", "dealt", "lines_dealt", "current",
              "current_claims", "next", "next_claims", "phase", "first_order", "order", "turn", "step", "discarded",
              "history", "_scores", "_outcome", "_round_marks", "_overwritten"}
MUTABLE = ["kingdoms", "king_owner", "dealt", "current", "current_claims", "next", "next_claims", "order",
           "discarded", "history", "_round_marks"]


def _game(players: int, seed: int) -> tuple[list[Action], int]:
    """The moves of a simulated game and the index of the first one played unchecked: for odd seeds,
    a placement in the second half covers a square already taken (its round marks hold copies then)."""
    text = simulate_kingdomino(players, seed)
    game = kbgrules.new_game("kingdomino", NAMES[:players])
    for line in text.splitlines():
        if line and line[0] not in "#@":
            game.push_text(line)
    moves: list[Action] = list(game.moves)
    if seed % 2 == 0:
        return moves, len(moves)
    st = KingdominoState(game.rs, game.players)
    for i, move in enumerate(moves):
        if i > len(moves) // 2 and isinstance(move, Place):
            taken = next(c for c in st.kingdoms[move.player].cells if c != (0, 0))
            moves[i] = Place(move.player, move.number, taken, move.second)
            return moves, i
        st.apply(move)
    raise AssertionError("no placement in the second half")


def _kingdom(k: Kingdom) -> tuple[object, ...]:
    return (k.size, k.castle_wild, k.min_edges, k.diagonal, k.letters, list(k.cells.items()), k.placed, k.discards,
            (k.minx, k.maxx, k.miny, k.maxy), k.cells[(0, 0)] is CASTLE)


def _seen(st: KingdominoState) -> str:
    """Every attribute, as text (taken now); a kingdom of a round mark as its index in ``st.kingdoms``
    (by identity), else its contents."""
    mine = {id(k): i for i, k in enumerate(st.kingdoms)}
    marks = [[(mine.get(id(m[0]), _kingdom(m[0])), *m[1:]) for m in ms] for ms in st._round_marks]
    listed = st._scores is not None and st._outcome is not None and st._outcome[0] is st._scores[1]
    return repr((st.players, [_kingdom(k) for k in st.kingdoms], st.king_owner, list(st.dealt.items()),
                 st.lines_dealt, st.current, list(st.current_claims.items()), st.next, list(st.next_claims.items()),
                 st.phase, st.first_order, st.order, st.turn, st.step, st.discarded, st.history, st._scores,
                 st._outcome and (*st._outcome[:3], repr(st._outcome[3])), listed, marks, st._overwritten))


def _shown(st: KingdominoState) -> str:
    """What the state answers (its score and outcome caches filled on the way)."""
    return repr((final_json(st), [[k.rows() for k in ks] for ks in st.round_ends], st.expected(),
                 st.legal_actions(), st.is_chance(), st.current_player(), st.outcome()))


def _play(st: KingdominoState, moves: list[Action], unchecked: int, start: int) -> None:
    for i, move in enumerate(moves[start:], start):
        st.apply(move, check=i < unchecked)


def _parts(st: KingdominoState) -> list[int]:
    """The ids of the mutable objects of ``st``: its lists, dicts and kingdoms, its marks' and its scores'."""
    out = [id(getattr(st, name)) for name in MUTABLE]
    out += [id(x) for k in st.kingdoms for x in (k, k.cells, k.placed)]
    out += [id(x) for ms in st._round_marks for x in (ms, *(m[0] for m in ms))]
    out += [] if st._scores is None else [id(st._scores[1])]
    out += [] if st._outcome is None else [id(st._outcome[0]), id(st._outcome[2])]
    return out


def _check_copy(st: KingdominoState, moves: list[Action], unchecked: int, at: int) -> None:
    before = _seen(st)
    copy = st.copy()
    assert _seen(copy) == before
    assert copy.rs is st.rs and copy.dominoes is st.dominoes and copy.row is st.row
    assert not set(_parts(copy)) & set(_parts(st))
    _play(copy, moves, unchecked, at)
    assert _seen(st) == before  # the copy played on, the state is as it was
    original = st.copy()
    twin = original.copy()
    _play(original, moves, unchecked, at)
    assert _seen(twin) == before and _seen(original) == _seen(copy)  # and the other way
    _play(twin, moves, unchecked, at)
    assert _shown(twin) == _shown(copy) == _shown(original) and _seen(st) == before


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_copy_is_independent_and_the_same(players: int) -> None:
    rs = kbgrules.load("kingdomino", players=players)
    for seed in range(8):
        moves, unchecked = _game(players, seed)
        st = KingdominoState(rs, NAMES[:players])
        for i, move in enumerate(moves):
            if i % 9 == seed % 9 or i == unchecked + 1:
                _check_copy(st, moves, unchecked, i)
                if i % 2:
                    _shown(st)  # with the scores and outcome kept
            st.apply(move, check=i < unchecked)
        assert st.is_terminal() and st._overwritten == (unchecked < len(moves))
        _check_copy(st, moves, unchecked, len(moves))
        _shown(st)
        _check_copy(st, moves, unchecked, len(moves))
    if build() == PURE:  # compiled, a state has no __dict__
        assert set(vars(st)) == ATTRIBUTES


def _deep_copy(st: KingdominoState) -> KingdominoState:
    """copy() as it was: a deep copy, sharing what never changes."""
    from copy import deepcopy
    from typing import Any

    shared: dict[int, Any] = {id(x): x for x in (st.rs, st.dominoes, st.row, CASTLE, *st.history)}
    shared.update((id(k.letters), k.letters) for k in st.kingdoms if k.letters is not None)
    if st._scores is not None:
        shared.update((id(s), s) for s in st._scores[1])
    if st._outcome is not None:
        shared.update((id(x), x) for x in (st._outcome[3], *st._outcome[0]))
    return deepcopy(st, memo=shared)


@pytest.mark.skipif(build() != PURE, reason="compiled, a KingdominoState cannot be deep-copied")
def test_a_copy_is_what_the_deep_copy_was() -> None:
    for players in (2, 3, 4):
        for seed in range(4):
            moves, unchecked = _game(players, seed)
            st = KingdominoState(kbgrules.load("kingdomino", players=players), NAMES[:players])
            for i, move in enumerate([*moves, None]):
                if i % 7 == 3 or move is None:
                    deep, copy = _deep_copy(st), st.copy()
                    assert _seen(copy) == _seen(deep)
                    _play(deep, moves, unchecked, i)
                    _play(copy, moves, unchecked, i)
                    assert _seen(copy) == _seen(deep)
                    assert _shown(copy) == _shown(deep) and _seen(copy) == _seen(deep)
                if move is not None:
                    st.apply(move, check=i < unchecked)
                    if i % 5 == 0:
                        st.outcome()


def test_a_state_made_by_this_code() -> None:
    """Called from interpreted code (a script, this test), the class gives a whole state, in the compiled
    build too (with ``@mypyc_attr(serializable=True)`` its attributes would read as undefined there)."""
    rs = kbgrules.load("kingdomino", players=3)
    st = KingdominoState(rs, ["Ann", "Bob", "Cid"])
    assert (st.players, st.phase, st.lines_dealt, st.history, st.king_owner) == (("Ann", "Bob", "Cid"), "deal", 0,
                                                                                 [], [0, 1, 2])
    assert [k.cells for k in st.kingdoms] == [{(0, 0): CASTLE}] * 3 and st.expected() == "a deal of 3 dominoes"
    st.apply(Deal((4, 22, 28)))
    copy = st.copy()
    assert copy.next == [4, 22, 28] and copy.phase == "first" and copy.legal_actions() == st.legal_actions()
    with pytest.raises(kbgrules.KbgError):
        KingdominoState(rs, ["Ann", "Bob"])
