"""King of Tokyo core rules, one test per rule (kot.* ids)."""

from __future__ import annotations

import pytest

import kbgrules
from kbgrules.errors import IllegalMoveError
from kbgrules.king_of_tokyo.state import Decide, EndTurn, KingOfTokyoState, Reroll, Roll

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
W = {"e": "energy", "h": "heart", "s": "smash"}


def game(players: int = 3, edition: str | None = None, variants: tuple[str, ...] = ()) -> KingOfTokyoState:
    rs = kbgrules.load("king-of-tokyo", players=players, edition=edition, variants=variants)
    return KingOfTokyoState(rs, NAMES[:players], ["corner-store", "heal", "tank"])


def turn(st: KingOfTokyoState, faces: str, *decisions: tuple[int, bool]) -> None:
    st.apply(Roll(tuple(W.get(f, f) for f in faces.split())))
    for who, yields in decisions:
        st.apply(Decide(who, yields))
    st.apply(EndTurn(st.active))


def hp(st: KingOfTokyoState) -> list[int]:
    return [m.hp for m in st.monsters]


@pytest.mark.parametrize("faces,vp", [
    ("1 1 1 2 2 2", 3), ("3 3 3 3 3 3", 6), ("1 1 1 1 1 1", 4), ("1 1 1 1 e e", 2), ("2 2 3 3 1 1", 0),
    ("3 3 3 e h s", 3),
])
def test_numbers_score_sets(faces: str, vp: int) -> None:  # kot.resolve.numbers
    st = game()
    turn(st, faces)
    assert st.monsters[0].vp == vp + 1  # +1 for entering the empty City


def test_energy(self_check: None = None) -> None:  # kot.resolve.energy
    st = game()
    turn(st, "e e e 1 2 3")
    assert st.monsters[0].energy == 3


def test_first_player_always_enters_and_hits_nobody() -> None:  # kot.tokyo.enter, kot.resolve.smash-no-target
    st = game()
    turn(st, "s s s s s s")
    assert hp(st) == [10, 10, 10] and st.monsters[0].location == "city" and st.monsters[0].vp == 1


def test_smashes_by_location() -> None:  # kot.resolve.smash
    st = game()
    turn(st, "1 2 3 h h h")                # Ann enters the City
    turn(st, "s s 1 2 3 h", (0, False))    # Bob outside hits Ann only
    assert hp(st) == [8, 10, 10]
    turn(st, "s 1 2 3 h h", (0, False))    # Cid too
    turn(st, "s s s 1 2 3")                # Ann in Tokyo hits everyone outside
    assert hp(st) == [7, 7, 7]


def test_hearts_heal_only_outside_and_up_to_ten() -> None:  # kot.resolve.heal, kot.tokyo.no-heal, kot.life.max
    st = game()
    turn(st, "1 2 3 h h h")
    st.monsters[0].hp = 5
    st.monsters[1].hp = 9
    turn(st, "h h h 1 2 3")
    assert st.monsters[1].hp == 10
    turn(st, "1 2 3 e e e")
    turn(st, "h h h 1 2 3")                 # Ann in Tokyo: hearts do nothing
    assert st.monsters[0].hp == 5


def test_start_of_turn_in_tokyo_gives_two_vp() -> None:  # kot.tokyo.rewards
    st = game()
    turn(st, "1 2 3 e e e")
    turn(st, "1 2 3 e e e")
    turn(st, "1 2 3 e e e")
    assert st.monsters[0].vp == 1 + 2


def test_two_player_rule_gives_energy() -> None:  # kot.variant.two-player
    st = game(2, variants=("two-player",))
    turn(st, "1 2 3 h h h")
    turn(st, "1 2 3 h h h")
    st.apply(Roll(("1", "2", "3", "heart", "heart", "heart")))
    assert (st.monsters[0].vp, st.monsters[0].energy) == (0, 2)


def test_yield_only_after_smash_damage() -> None:  # kot.tokyo.yield
    st = game()
    turn(st, "1 2 3 h h h")
    st.apply(Roll(("1", "2", "3", "heart", "heart", "heart")))
    with pytest.raises(IllegalMoveError) as info:
        st.apply(Decide(0, True))
    assert info.value.code == "kot-yield-not-allowed" and info.value.rule == "kot.tokyo.yield"


def test_yielder_keeps_the_damage_and_attacker_takes_the_city() -> None:  # kot.tokyo.take-vacated
    st = game()
    turn(st, "1 2 3 h h h")
    turn(st, "s s 1 2 3 h", (0, True))
    assert st.monsters[0].hp == 8 and st.monsters[0].location == "outside"
    assert st.monsters[1].location == "city" and st.monsters[1].vp == 1


def test_outside_monsters_cannot_yield() -> None:
    st = game()
    turn(st, "1 2 3 h h h")
    st.apply(Roll(("smash", "1", "2", "3", "heart", "heart")))
    with pytest.raises(IllegalMoveError):
        st.apply(Decide(2, True))


def test_bay_with_five_and_no_promotion() -> None:  # kot.tokyo.bay, kot.tokyo.take-vacated
    st = game(5)
    turn(st, "1 2 3 h h h")                  # Ann: City
    turn(st, "1 2 3 h h h")                  # Bob: Bay (City taken)
    assert [m.location for m in st.monsters[:2]] == ["city", "bay"]
    turn(st, "s 1 2 3 h h", (0, True), (1, False))  # Cid hits both; Ann yields: Cid takes the City
    assert [m.location for m in st.monsters[:3]] == ["outside", "bay", "city"]


def test_bay_closes_at_four() -> None:  # kot.tokyo.bay-closes
    st = game(5)
    turn(st, "1 2 3 h h h")                  # Ann: City
    turn(st, "1 2 3 h h h")                  # Bob: Bay
    for _ in range(3):
        turn(st, "1 2 3 e e e")              # Cid, Dee, Eve
    st.monsters[4].hp = 1
    turn(st, "s 1 2 3 e e")                  # Ann, from the City, eliminates Eve: 4 left
    assert st.monsters[4].eliminated
    assert st.monsters[1].location == "outside"  # the City is taken: Bob leaves Tokyo


def test_bay_occupant_moves_to_an_empty_city() -> None:  # kot.tokyo.bay-closes
    st = game(5)
    turn(st, "1 2 3 h h h")
    turn(st, "1 2 3 h h h")
    st.monsters[0].hp = 1
    st.monsters[4].hp = 10
    turn(st, "s 1 2 3 h h", (1, False))       # Cid eliminates Ann in the City: 4 left
    assert st.monsters[0].eliminated
    assert st.monsters[1].location == "city"  # the Bay closes; Bob moves up (no +1 VP)
    assert st.monsters[1].vp == 1


def test_elimination_discards_cards_and_energy() -> None:  # kot.eliminate
    st = game()
    turn(st, "1 2 3 h h h")
    st.monsters[0].hp, st.monsters[0].energy = 2, 5
    st.monsters[0].cards.append("extra-head")
    turn(st, "s s 1 2 3 h")
    m = st.monsters[0]
    assert m.eliminated and m.energy == 0 and m.cards == [] and m.location == "outside"
    assert st.monsters[1].location == "city"  # the attacker takes the empty City


def test_twenty_vp_wins_at_the_end_of_the_turn() -> None:  # kot.end.victory, kot.end.timing
    st = game()
    st.monsters[0].vp = 18
    st.apply(Roll(("3", "3", "3", "heart", "heart", "heart")))
    st.apply(Reroll(("heart",), ("energy",)))
    assert not st.is_terminal()
    st.apply(EndTurn(0))
    assert st.outcome().winners == ("Ann",) and st.outcome().reason == "20 VP"


def test_last_monster_standing() -> None:  # kot.end.victory
    st = game(2)
    turn(st, "1 2 3 h h h")
    st.monsters[0].hp = 2
    turn(st, "s s 1 2 3 h")
    assert st.outcome().winners == ("Bob",)


def test_all_eliminated_means_no_winner() -> None:  # kot.end.all-eliminated
    st = game(2)
    st.monsters[0].hp = st.monsters[1].hp = 3
    st.apply(Roll(("1", "2", "3", "energy", "energy", "energy")))
    st.market[0] = "high-altitude-bombing"
    st.monsters[0].energy = 4
    from kbgrules.king_of_tokyo.state import Buy

    st.apply(Buy(0, "high-altitude-bombing", "skyscraper"))
    st.apply(EndTurn(0))
    assert st.outcome().over and st.outcome().winners == ()


def test_must_survive_to_win() -> None:  # kot.end.survive
    st = game(3)
    st.monsters[0].vp, st.monsters[0].hp = 19, 3
    st.apply(Roll(("3", "3", "3", "energy", "energy", "energy")))
    st.market[0] = "jet-fighters"
    st.monsters[0].energy = 5
    from kbgrules.king_of_tokyo.state import Buy

    st.apply(Buy(0, "jet-fighters", "skyscraper"))
    st.apply(EndTurn(0))
    assert st.monsters[0].vp >= 20 and st.monsters[0].eliminated
    assert st.outcome().winners == ()  # two monsters are left: the game goes on
    assert not st.is_terminal()


def test_shared_win() -> None:  # kot.end.shared-win
    st = game(3)
    st.monsters[0].vp = st.monsters[1].vp = 19
    st.market[0] = "evacuation-orders"
    st.apply(Roll(("1", "1", "1", "heart", "heart", "heart")))
    st.apply(EndTurn(0))  # Ann enters the City: 19 + 1 + 1 = 21; Bob still 19
    assert st.outcome().winners == ("Ann",)


def test_shared_win_same_check() -> None:
    st = game(3)
    st.monsters[0].vp, st.monsters[1].vp = 18, 20
    st.apply(Roll(("1", "1", "1", "heart", "heart", "heart")))
    st.apply(EndTurn(0))
    assert sorted(st.outcome().winners) == ["Ann", "Bob"]
    from kbgrules.king_of_tokyo.report import final_json
    from kbgrules.king_of_tokyo.result import king_of_tokyo_result

    st.monsters[1].vp = 21  # the verdict gives each winner's own points, the goal apart
    result = king_of_tokyo_result(st, final_json(st))
    assert result.headline == "Shared victory: Ann with 20 VP, Bob with 21 VP (the goal is 20 VP)"
    assert [row[:2] for row in result.standings.rows[:2]] == [("Bob", 21), ("Ann", 20)]


def test_rolls_and_rerolls() -> None:  # kot.roll.count, kot.roll.reroll
    st = game()
    st.apply(Roll(("1", "1", "2", "2", "3", "3")))
    st.apply(Reroll(("1", "1"), ("smash", "smash")))
    st.apply(Reroll(("smash", "2"), ("3", "3")))  # dice kept before may be re-rolled
    with pytest.raises(IllegalMoveError) as info:
        st.apply(Reroll(("3",), ("1",)))
    assert info.value.code == "kot-too-many-rolls"


def test_dice_pool() -> None:  # kot.roll.dice-pool
    st = game()
    with pytest.raises(IllegalMoveError) as info:
        st.apply(Roll(("1", "2", "3", "heart", "heart")))
    assert info.value.code == "kot-dice-count"
    st.me.tokens["shrink"] = 1
    st.apply(Roll(("1", "2", "3", "heart", "heart")))


def test_first_edition_needs_a_smash_to_take_tokyo() -> None:  # kot.tokyo.enter (2011)
    st = game(3, edition="2011")
    turn(st, "1 2 3 h h h")
    assert st.monsters[0].location == "outside"
    turn(st, "s 2 3 h h h")
    assert st.monsters[1].location == "city"


def test_market_buy_and_sweep() -> None:  # kot.buy.market, kot.buy.sweep
    from kbgrules.king_of_tokyo.state import Buy, Sweep

    st = game()
    st.apply(Roll(("energy",) * 6))
    st.apply(Buy(0, "corner-store", "skyscraper"))
    assert st.market == ["heal", "tank", "skyscraper"] and st.me.energy == 3
    st.apply(Sweep(0, ("energize", "frenzy", "gourmet")))
    assert st.market == ["energize", "frenzy", "gourmet"] and st.me.energy == 1
    with pytest.raises(IllegalMoveError) as info:
        st.apply(Sweep(0, ("heal", "heal", "heal")))
    assert info.value.code == "kot-no-energy"
    with pytest.raises(IllegalMoveError) as info:
        st.apply(Buy(0, "tank", None))
    assert info.value.code == "kot-not-in-market"


def test_revealed_card_must_be_left_in_the_deck() -> None:  # kot.log.chance
    from kbgrules.king_of_tokyo.state import Buy

    st = game()
    st.apply(Roll(("energy",) * 6))
    with pytest.raises(IllegalMoveError) as info:
        st.apply(Buy(0, "corner-store", "corner-store"))  # one copy, already bought
    assert info.value.code == "kot-card-not-in-deck"


def test_snapshot_copies_every_changing_attribute() -> None:
    """``_snapshot`` names each attribute an action can change (all of StateBase's but the shared ones), and
    ``_restore`` brings every one back, however the live state's containers were changed in between."""
    import copy
    import dataclasses

    from kbgrules.king_of_tokyo.monster import Outcome
    from kbgrules.king_of_tokyo.state import _COPIED, _SHARED
    from kbgrules.king_of_tokyo.statebase import StateBase

    st = game(3)
    st.apply(Roll(("1", "1", "1", "smash", "energy", "heart")))
    st.camouflage[1] = [("heart",)]
    declared = [k for k in StateBase.__annotations__ if k not in _SHARED] or list(_COPIED)  # none once compiled
    snap = st._snapshot()
    assert list(snap) == declared == list(_COPIED)
    def plain(k: str) -> object:  # monsters as dicts: compiled (docs/scale.md) they do not deepcopy
        v = getattr(st, k)
        return [dataclasses.asdict(m) for m in v] if k == "monsters" else copy.deepcopy(v)

    before = {k: plain(k) for k in declared}
    for k in declared:  # change every container in place, and every value
        v = getattr(st, k)
        if k == "monsters":
            for m in v:
                m.hp, m.cards, m.tokens["poison"] = 0, [*m.cards, "tank"], 3
        elif isinstance(v, list):
            v.append(None)
        elif isinstance(v, set):
            v.add("x")
        elif isinstance(v, dict):
            for kk in list(v):
                if isinstance(v[kk], list):
                    v[kk].append(("smash",))
            v[99] = 1
        elif k == "over":
            st.over = Outcome(True, ("Ann",), "changed")
        elif k == "ice_die":
            st.ice_die = (1, "heart")
        elif k == "turn_began" and v is None:
            st.turn_began = ["bay"] * len(st.monsters)
        elif isinstance(v, bool):
            setattr(st, k, not v)
        elif isinstance(v, int) or v is None:  # smashing: None or a monster
            setattr(st, k, (v or 0) + 1)
        else:
            setattr(st, k, v + "x")
    st._restore(snap)
    assert {k: plain(k) for k in declared} == before
