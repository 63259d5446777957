"""King of Tokyo Dark Edition: the wickedness gauge, every wickedness tile side, the Dark deck's cards."""

from __future__ import annotations

import pytest

import kbgrules
from kbgrules.core.check import check_text
from kbgrules.errors import IllegalMoveError
from kbgrules.king_of_tokyo.cards.base import HOOKS
from kbgrules.king_of_tokyo.state import (
    Buy,
    Cure,
    Decide,
    EndTurn,
    Keep,
    KingOfTokyoState,
    Reroll,
    Roll,
    Take,
    Use,
)

NAMES = ["Ann", "Bob", "Cid", "Dee"]
MARKET = ["corner-store", "tank", "energize"]
WORD = {"e": "energy", "h": "heart", "s": "smash"}


def game(sides: str = "red", first: int = 0, players: int = 3) -> KingOfTokyoState:
    rs = kbgrules.load("king-of-tokyo", edition="dark", players=players)
    st = KingOfTokyoState(rs, NAMES[:players], list(MARKET), first)
    st.tile_sides = sides
    return st


def roll(st: KingOfTokyoState, faces: str) -> None:
    st.apply(Roll(tuple(WORD.get(f, f) for f in faces.split())))


def turn(st: KingOfTokyoState, faces: str) -> None:
    roll(st, faces)
    st.apply(EndTurn(st.active))


def take(st: KingOfTokyoState, who: int, tile: str) -> None:
    """``who`` has just reached the tile's level and takes it."""
    m = st.monsters[who]
    level = st.cards[f"tile:{tile}"].level
    if level not in m.levels:
        m.levels.append(level)
    m.owed.append(level)
    st.apply(Take(who, tile))


def buy(st: KingOfTokyoState, card: str, energy: int = 20, reveal: str = "apartment-building") -> None:
    st.me.energy = energy
    if card not in st.market:
        st.market[0] = card
    st.apply(Buy(st.active, card, reveal))


def code(exc: pytest.ExceptionInfo[IllegalMoveError]) -> str:
    return exc.value.code


# ---------------------------------------------------------------- the wickedness gauge (kot.dark.*)

@pytest.mark.parametrize("faces,wickedness,number_vp", [
    ("1 1 1 2 3 h", 2, 1), ("2 2 2 1 3 h", 1, 2), ("3 3 3 1 2 h", 0, 3),
    ("1 1 1 1 3 h", 2, 2),   # the fourth 1 adds a VP, not wickedness
    ("1 1 1 1 1 1", 4, 4),   # two sets of three
])
def test_number_triples_feed_the_gauge(faces: str, wickedness: int, number_vp: int) -> None:
    st = game()
    roll(st, faces)
    st.apply(Keep())
    ann = st.monsters[0]
    assert (ann.wickedness, ann.vp) == (wickedness, number_vp + 1)  # +1 for entering the City
    assert ann.owed == ([3] if wickedness >= 3 else [])


def test_the_gauge_stops_at_10() -> None:
    st = game()
    ann = st.monsters[0]
    ann.wickedness, ann.levels = 8, [3, 6]
    roll(st, "1 1 1 1 1 1")
    st.apply(Keep())
    assert ann.wickedness == 10 and ann.owed == [10]


def test_crossing_two_thresholds_owes_two_tiles() -> None:
    st = game()
    st.monsters[0].wickedness = 2
    roll(st, "1 1 1 1 1 1")
    st.apply(Keep())
    assert st.monsters[0].owed == [3, 6]
    st.apply(Take(0, "devious"))
    st.apply(Take(0, "cyberbrain"))
    st.apply(EndTurn(0))
    assert st.monsters[0].tiles == ["devious", "cyberbrain"]


def test_a_tile_of_another_level_or_a_second_one_is_refused() -> None:
    st = game()
    st.monsters[0].wickedness = 2
    roll(st, "1 1 1 2 3 h")
    st.apply(Keep())
    with pytest.raises(IllegalMoveError) as exc:
        st.apply(Take(0, "cyberbrain"))             # a level-6 tile at wickedness 4
    assert code(exc) == "dark-tile-level"
    st.apply(Take(0, "devious"))
    with pytest.raises(IllegalMoveError) as exc:
        st.apply(Take(0, "eternal"))                # one tile per threshold
    assert code(exc) == "dark-tile-level" and "already taken" in str(exc.value)


def test_a_side_not_in_play_or_already_taken_is_refused() -> None:
    st = game("red")
    st.monsters[0].owed, st.monsters[0].levels = [3], [3]
    with pytest.raises(IllegalMoveError) as exc:
        st.apply(Take(0, "barbs"))                  # green side in an all-red game
    assert code(exc) == "dark-tile-level" and "red sides" in str(exc.value)
    st = game("mixed")
    take(st, 1, "devious")
    st.monsters[0].owed, st.monsters[0].levels = [3], [3]
    with pytest.raises(IllegalMoveError) as exc:
        st.apply(Take(0, "barbs"))                  # the back of the tile Bob took
    assert code(exc) == "dark-tile-level"


def test_an_owed_tile_must_be_taken_before_the_turn_ends() -> None:
    st = game()
    roll(st, "1 1 1 2 2 2")
    with pytest.raises(IllegalMoveError) as exc:
        st.apply(EndTurn(0))
    assert code(exc) == "dark-tile-not-taken"


def test_tiles_are_discarded_on_elimination() -> None:
    st = game()
    take(st, 1, "devious")
    bob = st.monsters[1]
    bob.hp, bob.location = 2, "city"
    roll(st, "s s s 1 2 3")
    st.apply(Keep())
    assert bob.eliminated and bob.tiles == []
    assert "devious" not in st.tiles_left(3)      # discarded, not back in the supply


@pytest.mark.parametrize("sides,level_3", [
    ("red", ["devious", "eternal", "skulking", "tireless"]),
    ("green", ["barbs", "final-roar", "poison-spit", "underdog"]),
    ("mixed", ["devious", "barbs", "eternal", "final-roar", "skulking", "poison-spit", "tireless", "underdog"]),
])
def test_tile_sides(sides: str, level_3: list[str]) -> None:
    st = game(sides)
    assert st.tiles_left(3) == level_3
    assert len(st.tiles_left(6)) == 4 * (2 if sides == "mixed" else 1)
    assert len(st.tiles_left(10)) == 2 * (2 if sides == "mixed" else 1)


def test_mixed_sides_lose_both_faces_of_a_taken_tile() -> None:
    st = game("mixed")
    take(st, 0, "underdog")
    assert "underdog" not in st.tiles_left(3) and "tireless" not in st.tiles_left(3)


# ---------------------------------------------------------------- the 20 tile sides

def test_devious_gives_a_roll() -> None:
    st = game()
    take(st, 0, "devious")
    assert st.max_rolls() == 4
    roll(st, "1 2 3 e e e")
    for _ in range(3):
        st.apply(Reroll(("1",), ("1",)))
    with pytest.raises(IllegalMoveError):
        st.apply(Reroll(("1",), ("1",)))


def test_barbs_adds_a_smash_to_two_or_more() -> None:
    st = game("green")
    st.monsters[1].location = "city"
    take(st, 0, "barbs")
    roll(st, "s s 1 2 3 h")
    st.apply(Keep())
    assert st.monsters[1].hp == 7


def test_eternal_heals_at_turn_start_even_in_tokyo() -> None:
    st = game()
    take(st, 0, "eternal")
    st.monsters[0].hp = 5
    turn(st, "1 2 3 e e e")                         # Ann enters the City
    turn(st, "1 2 3 e e e")
    turn(st, "1 2 3 e e e")
    assert st.monsters[0].hp == 6 and st.monsters[0].location == "city"


@pytest.mark.parametrize("vp,wins", [(16, True), (15, False)])
def test_final_roar_wins_when_knocked_out_with_16_vp(vp: int, wins: bool) -> None:
    st = game("green", first=1)
    ann = st.monsters[0]
    take(st, 0, "final-roar")
    ann.vp, ann.hp, ann.location = vp, 2, "city"
    roll(st, "s s s 1 2 3")
    st.apply(Keep())
    if wins:
        assert not ann.eliminated and ann.hp == 0 and not st.outcome().over
        st.monsters[1].vp = 20
        st.apply(EndTurn(1))                        # the game ends with the turn: Final Roar first
        assert st.outcome().over and st.outcome().winners == ("Ann",)
    else:
        assert ann.eliminated and not st.outcome().over


def test_skulking_adds_a_vp_to_ones() -> None:
    st = game()
    take(st, 0, "skulking")
    roll(st, "1 1 1 2 3 h")
    st.apply(Keep())
    assert st.monsters[0].vp == 1 + 1 + 1


def test_poison_spit_tile_poisons_smashed_monsters() -> None:
    st = game("green")
    assert st.cards["tile:poison-spit"].hook == "poison_spit_tile"
    st.monsters[1].location = "city"
    take(st, 0, "poison-spit")
    roll(st, "s 1 2 3 h h")
    st.apply(Decide(1, False))
    st.apply(EndTurn(0))
    assert st.monsters[1].tokens["poison"] == 1
    turn(st, "1 2 3 e e e")                         # Bob's turn ends: 1 poison, 1 life
    assert st.monsters[1].hp == 8


def test_tireless_gives_energy_at_turn_start() -> None:
    st = game()
    take(st, 0, "tireless")
    for _ in range(3):
        turn(st, "1 2 3 h h h")
    assert st.monsters[0].energy == 1


@pytest.mark.parametrize("bob,cid,after", [
    (4, 4, (5, 3, 3)),    # each richer monster hit gives 1 VP (compared with Ann's VP at the roll)
    (4, 2, (4, 3, 2)),    # a poorer one gives nothing
])
def test_underdog_takes_vp_from_richer_victims(bob: int, cid: int, after: tuple[int, int, int]) -> None:
    st = game("green")
    take(st, 0, "underdog")
    st.monsters[0].vp, st.monsters[0].location = 3, "city"
    st.monsters[1].vp, st.monsters[2].vp = bob, cid
    roll(st, "s 1 2 3 h h")
    st.apply(Keep())
    assert tuple(m.vp for m in st.monsters) == after


def test_cyberbrain_adds_a_die() -> None:
    st = game()
    take(st, 0, "cyberbrain")
    assert st.dice_count() == 7


def test_defender_of_tokyo() -> None:
    st = game("green")
    take(st, 0, "defender-of-tokyo")
    st.monsters[1].vp = st.monsters[2].vp = 3
    turn(st, "1 2 3 h h h")                         # Ann moves into Tokyo: the others lose 1 VP
    assert (st.monsters[1].vp, st.monsters[2].vp) == (2, 2)
    turn(st, "1 2 3 h h h")
    turn(st, "1 2 3 h h h")                         # Ann begins a turn in Tokyo: again
    assert (st.monsters[1].vp, st.monsters[2].vp) == (1, 1) and st.monsters[0].vp == 1 + 2


def test_evil_lair_lowers_costs() -> None:
    st = game()
    take(st, 0, "evil-lair")
    assert st.cost("tank") == st.cards["tank"].cost - 1


def test_fluxling_copies_a_keep_card_and_switches_for_free() -> None:
    st = game("green")
    st.monsters[1].cards += ["extra-head", "gourmet"]
    take(st, 0, "fluxling")
    st.apply(Use(0, "tile:fluxling", ("extra-head",)))
    assert st.dice_count() == 7
    turn(st, "1 2 3 e e e h")
    turn(st, "1 2 3 e e e h")                       # Bob holds Extra Head
    turn(st, "1 2 3 e e e")
    st.apply(Use(0, "tile:fluxling", ("gourmet",)))  # start of Ann's turn: free
    assert st.monsters[0].energy == 3 and st.dice_count() == 6
    roll(st, "1 1 1 e e e")
    with pytest.raises(IllegalMoveError):
        st.apply(Use(0, "tile:fluxling", ("extra-head",)))  # not after rolling
    st.apply(EndTurn(0))
    assert st.monsters[0].vp == 1 + 2 + 1 + 2  # City, a turn started in Tokyo, 1-1-1, Gourmet
    with pytest.raises(IllegalMoveError):
        st.apply(Use(1, "tile:fluxling", ("gourmet",)))     # Bob has no Fluxling


def test_full_regeneration() -> None:
    st = game()
    st.monsters[0].hp = 5
    take(st, 0, "full-regeneration")
    assert st.monsters[0].hp == 12 and st.max_hp(st.monsters[0]) == 12


def test_have_it_all() -> None:
    st = game("green")
    st.monsters[0].cards += ["acid-attack", "armor-plating"]
    take(st, 0, "have-it-all")
    assert st.monsters[0].vp == 2                  # one per Keep card
    roll(st, "1 2 3 e e e")
    st.apply(Keep())                               # +1: the City
    buy(st, "energize")
    assert st.monsters[0].vp == 2 + 1 + 1          # +1 per card bought


def test_widespread_panic() -> None:
    st = game()
    st.monsters[1].vp, st.monsters[2].vp = 5, 2
    take(st, 0, "widespread-panic")
    assert [m.vp for m in st.monsters] == [0, 1, 0]
    assert st.monsters[0].tiles == [] and "widespread-panic" not in st.tiles_left(6)


def test_sonic_boomer() -> None:
    st = game("green")
    take(st, 0, "sonic-boomer")
    for _ in range(3):
        turn(st, "1 2 3 h h h")
    assert st.monsters[0].vp == 1 + 2 + 1


def test_antimatter_beam_doubles_smashes() -> None:
    st = game()
    st.monsters[1].location = "city"
    take(st, 0, "antimatter-beam")
    roll(st, "s s 1 2 3 h")
    st.apply(Keep())
    assert st.monsters[1].hp == 6


def test_final_push() -> None:
    st = game("green")
    roll(st, "1 2 3 s s s")
    st.apply(Keep())
    st.monsters[0].hp, st.monsters[0].energy = 5, 0
    take(st, 0, "final-push")
    assert (st.monsters[0].hp, st.monsters[0].energy, st.monsters[0].tiles) == (7, 2, [])
    st.apply(EndTurn(0))
    assert st.active == 0                          # another turn


def test_skybeam() -> None:
    st = game()
    st.monsters[0].hp = 5
    take(st, 0, "skybeam")
    roll(st, "e e h h 1 2")
    st.apply(Keep())
    assert (st.monsters[0].energy, st.monsters[0].hp) == (4, 9)


def test_starburst() -> None:
    st = game("green")
    take(st, 0, "starburst")
    assert st.monsters[0].energy == 12 and st.monsters[0].tiles == []


# ---------------------------------------------------------------- the Dark deck

def test_the_deck_has_66_cards() -> None:
    rs = kbgrules.load("king-of-tokyo", edition="dark", players=3)
    keep = sum(c.copies for c in rs.cards if c.type == "keep")
    discard = sum(c.copies for c in rs.cards if c.type == "discard")
    assert (keep, discard) == (49, 17)
    ids = {c.id: c for c in rs.cards}
    for gone in ("healing-ray", "mimic", "battery-monster", "poison-spit", "rooting-for-the-underdog", "heal",
                 "national-guard"):
        assert gone not in ids
    assert ids["extra-head"].copies == 1


@pytest.mark.parametrize("card,cost", [
    ("freeze-time", 6), ("gourmet", 6), ("herd-culler", 5), ("solar-powered", 3),
    ("hibernation", 4), ("nanobots", 3), ("natural-selection", 2), ("reflective-hide", 6), ("super-jump", 4),
    ("unstable-dna", 3), ("zombify", 4), ("monster-pets", 0),
])
def test_dark_costs(card: str, cost: int) -> None:
    st = game()
    assert st.cards[card].cost == cost


def test_every_dark_hook_is_written() -> None:
    rs = kbgrules.load("king-of-tokyo", edition="dark", players=3)
    hooks = {c.hook for c in (*rs.cards, *rs.tiles) if c.hook}
    assert hooks <= set(HOOKS), hooks - set(HOOKS)


def test_monster_pets() -> None:
    st = game()
    roll(st, "1 2 3 e e e")
    st.apply(Keep())
    for m, vp in zip(st.monsters, (5, 2, 4), strict=True):
        m.vp = vp
    buy(st, "monster-pets")
    assert [m.vp for m in st.monsters] == [2, 0, 1]


def test_lunar_powered() -> None:
    st = game()
    assert st.cards["solar-powered"].name == "Lunar Powered"
    st.monsters[0].cards.append("solar-powered")
    turn(st, "1 2 3 h h h")
    assert st.monsters[0].energy == 1


def test_hibernation_is_bought_outside_tokyo_only() -> None:
    st = game()
    roll(st, "1 2 3 e e e")
    st.apply(Keep())                               # Ann in the City
    with pytest.raises(IllegalMoveError) as exc:
        buy(st, "hibernation", 10)
    assert code(exc) == "kot-card-use" and st.monsters[0].energy == 10 and "hibernation" in st.market
    assert Buy(0, "hibernation", None) not in st.legal_actions()
    st.monsters[0].location = "outside"
    assert Buy(0, "hibernation", None) in st.legal_actions()
    buy(st, "hibernation", 10)
    assert st.monsters[0].cards == ["hibernation"]
    assert not any(isinstance(a, Buy) for a in st.legal_actions())  # a hibernating monster buys nothing


def test_hibernation() -> None:
    st = game()
    ann = st.monsters[0]
    ann.cards.append("hibernation")
    ann.hp = 5
    roll(st, "1 1 1 s e h")
    st.apply(Keep())
    assert (ann.vp, ann.wickedness, ann.energy, ann.hp, ann.location) == (0, 0, 1, 6, "outside")
    with pytest.raises(IllegalMoveError) as exc:
        buy(st, "tank")
    assert code(exc) == "kot-card-use"
    ann = st.monsters[0]                           # the state was restored
    st.apply(EndTurn(0))
    turn(st, "1 2 3 e e e")                        # Bob takes the empty City
    turn(st, "1 2 3 e e e")
    turn(st, "s s 1 2 3 e")                        # Ann's smashes hurt nobody
    assert st.monsters[1].hp == 10
    roll(st, "s s s 1 2 3")
    st.apply(EndTurn(1))                           # Bob's smashes: Cid loses 3, Ann nothing
    assert (ann.hp, st.monsters[2].hp) == (6, 7)
    st.apply(Use(0, "hibernation"))
    assert ann.cards == [] and st.discards["hibernation"] == 1


def test_nanobots_before_eternal() -> None:
    st = game()
    bob, cid = st.monsters[1], st.monsters[2]
    bob.cards.append("nanobots")
    bob.hp = 2
    cid.cards.append("nanobots")
    cid.hp = 2
    take(st, 2, "eternal")
    turn(st, "1 2 3 e e e")
    assert bob.hp == 4
    turn(st, "1 2 3 e e e")
    assert cid.hp == 2 + 2 + 1                    # Nanobots first (2 < 3), then Eternal
    st.monsters[0].hp = 3
    st.monsters[0].cards.append("nanobots")
    turn(st, "1 2 3 e e e")
    assert st.monsters[0].hp == 3                  # 3 or more: nothing


def test_natural_selection() -> None:
    st = game()
    ann = st.monsters[0]
    ann.hp = 3
    roll(st, "1 2 e e s s")
    st.apply(Keep())
    buy(st, "natural-selection", 10)
    assert (ann.energy, ann.hp) == (10 - 2 + 4, 7)
    st.apply(EndTurn(0))                           # no 3 among the dice
    assert ann.hp == 7 and st.dice_count() == 6
    turn(st, "1 2 e e h h")
    turn(st, "1 2 e e h h")
    assert st.dice_count() == 7
    turn(st, "3 2 e e h h s")
    assert ann.eliminated


def test_reflective_hide() -> None:
    st = game()
    ann, bob = st.monsters[0], st.monsters[1]
    bob.cards.append("reflective-hide")
    ann.cards.append("reflective-hide")
    bob.location = "city"
    roll(st, "s s 1 2 3 h")
    st.apply(Keep())
    assert (ann.hp, bob.hp) == (9, 8)              # one point back, not reflected again
    bob.tokens["poison"] = 1
    st.apply(Decide(1, False))
    st.apply(EndTurn(0))
    turn(st, "1 2 3 e e e")                        # poison has no monster behind it
    assert (ann.hp, bob.hp) == (9, 7)


def test_super_jump_gives_back_a_life_after_a_loss() -> None:
    st = game()
    bob = st.monsters[1]
    bob.cards.append("super-jump")
    bob.energy, bob.location = 2, "city"
    roll(st, "s s s 1 2 h")
    st.apply(Keep())
    assert bob.hp == 7
    st.apply(Use(1, "super-jump"))
    assert (bob.hp, bob.energy) == (8, 1)
    with pytest.raises(IllegalMoveError) as exc:
        st.apply(Use(1, "super-jump"))             # once in each turn
    assert code(exc) == "kot-card-use"


def test_super_jump_before_a_lethal_loss() -> None:
    st = game()
    bob = st.monsters[1]
    bob.cards.append("super-jump")
    bob.hp, bob.energy, bob.location = 2, 1, "city"
    roll(st, "s s 1 2 3 h")
    st.apply(Use(1, "super-jump"))                 # the dice resolve now; 1 of the 2 is cancelled
    assert (bob.hp, bob.energy, bob.eliminated, st.phase) == (1, 0, False, "decide")


def test_super_jump_needs_a_loss_and_energy() -> None:
    st = game()
    bob = st.monsters[1]
    bob.cards.append("super-jump")
    bob.energy = 1
    roll(st, "s s 1 2 3 h")                        # nobody in Tokyo: the smashes hurt nobody
    with pytest.raises(IllegalMoveError) as exc:
        st.apply(Use(1, "super-jump"))
    bob = st.monsters[1]                           # the state was restored
    assert code(exc) == "kot-card-use" and (bob.energy, st.phase, st.rolls) == (1, "roll", 1)
    bob.energy = 0
    bob.location = "city"
    with pytest.raises(IllegalMoveError) as exc:
        st.apply(Use(1, "super-jump"))
    assert code(exc) == "kot-no-energy"


def test_unstable_dna_trades_after_yielding() -> None:
    st = game()
    ann, bob = st.monsters[0], st.monsters[1]
    ann.cards += ["extra-head", "gourmet"]
    bob.cards.append("unstable-dna")
    bob.location = "city"
    roll(st, "s 1 2 3 h h e")
    st.apply(Decide(1, True))
    st.apply(Use(1, "unstable-dna", ("extra-head",)))
    assert bob.cards == ["extra-head"] and ann.cards == ["gourmet", "unstable-dna"]
    assert ann.location == "city"
    st.apply(EndTurn(0))
    with pytest.raises(IllegalMoveError):
        st.apply(Use(0, "unstable-dna", ("extra-head",)))   # Ann has not yielded


def test_unstable_dna_only_right_after_the_yield() -> None:
    st = game()
    ann, bob = st.monsters[0], st.monsters[1]
    ann.cards.append("gourmet")
    bob.cards.append("unstable-dna")
    bob.location = "city"
    roll(st, "s 1 2 3 h h")
    st.apply(Decide(1, True))
    buy(st, "tank")
    with pytest.raises(IllegalMoveError) as exc:
        st.apply(Use(1, "unstable-dna", ("gourmet",)))
    assert code(exc) == "kot-card-use"


def test_zombify() -> None:
    st = game()
    bob = st.monsters[1]
    take(st, 1, "devious")
    bob.cards += ["zombify", "acid-attack", "it-has-a-child"]
    bob.hp, bob.vp, bob.energy, bob.wickedness, bob.location = 2, 7, 3, 4, "city"
    roll(st, "s s 1 2 3 h")
    st.apply(Keep())                               # Zombify first; It Has a Child! is discarded with the rest
    assert (bob.hp, bob.vp, bob.energy, bob.wickedness, bob.location) == (12, 0, 3, 0, "outside")
    assert bob.cards == ["zombify"] and bob.tiles == [] and st.max_hp(bob) == 12
    assert st.monsters[0].location == "city"
    st.apply(EndTurn(0))
    bob.hp, bob.tokens["poison"] = 8, 1
    roll(st, "h h h 1 2 3")
    st.apply(Cure(1, "poison"))
    with pytest.raises(IllegalMoveError) as exc:
        st.apply(EndTurn(1))                       # a zombie cannot use its Heal results
    assert code(exc) == "kot-cure"
    st.cures = {}
    st.apply(EndTurn(1))
    assert bob.hp == 8 - 1                         # no healing; the poison token
    turn(st, "1 2 3 e e e")
    bob.hp = 2
    roll(st, "s s 1 2 3 e")                        # Ann in Tokyo hits Bob again
    st.apply(Keep())
    assert bob.eliminated                          # Zombify works once


def test_it_has_a_child_in_the_dark_edition() -> None:
    st = game()
    bob = st.monsters[1]
    take(st, 1, "devious")
    bob.cards.append("it-has-a-child")
    bob.hp, bob.vp, bob.energy, bob.wickedness, bob.location = 2, 7, 3, 4, "city"
    roll(st, "s s 1 2 3 h")
    st.apply(Keep())
    assert (bob.hp, bob.vp, bob.energy, bob.wickedness, bob.location) == (10, 0, 3, 0, "outside")
    assert bob.cards == [] and bob.tiles == [] and bob.levels == [] and st.monsters[0].location == "city"
    st.apply(EndTurn(0))
    roll(st, "1 1 1 2 2 2")                        # 3 again: a level-3 tile again
    st.apply(Keep())
    st.apply(Take(1, "eternal"))
    assert bob.tiles == ["eternal"]


def test_final_roar_before_it_has_a_child() -> None:
    st = game("green", first=1)
    ann = st.monsters[0]
    take(st, 0, "final-roar")
    ann.cards.append("it-has-a-child")
    ann.vp, ann.hp, ann.location = 17, 1, "city"
    roll(st, "s 1 2 3 h h")
    st.apply(Keep())
    assert ann.cards == ["it-has-a-child"] and ann.vp == 17
    st.apply(EndTurn(1))
    assert st.outcome().winners == ("Ann",)


# ---------------------------------------------------------------- logs

LOG = """\
@game king-of-tokyo
@edition dark
@tiles red
@players Ann Bob Cid
first Ann
market corner-store tank energize
Ann roll 1 1 1 2 2 2
Ann take devious
Ann end
expect Ann wickedness 3
expect Ann tiles devious
expect Ann vp 4
"""


def only_violation(text: str) -> tuple[int, int, str]:
    report = check_text("t.log", text)
    (g,) = report.games
    assert g.errors == [], [str(e) for e in g.errors]
    assert len(g.violations) == 1 and report.exit_code == 1
    v = g.violations[0]
    return v.line, v.col, v.code


def test_a_dark_log_checks_clean() -> None:
    report = check_text("t.log", LOG)
    assert report.exit_code == 0, [str(v) for g in report.games for v in [*g.violations, *g.errors]]


@pytest.mark.parametrize("old,new,where", [
    ("Ann take devious", "Ann take barbs", (8, 1, "dark-tile-level")),          # a green side in a red game
    ("Ann take devious", "Ann take cyberbrain", (8, 1, "dark-tile-level")),     # level 6 at wickedness 3
    ("Ann take devious\n", "", (8, 1, "dark-tile-not-taken")),                  # `Ann end` with a tile owed
    ("Ann wickedness 3", "Ann wickedness 2", (10, 1, "kot-checkpoint")),
])
def test_dark_log_violations(old: str, new: str, where: tuple[int, int, str]) -> None:
    assert only_violation(LOG.replace(old, new)) == where


SUPER_JUMP = """\
@game king-of-tokyo
@edition dark
@players Ann Bob Cid
market corner-store tank energize
Bob is hp=2 energy=1 place=city cards=super-jump
turn Ann
Ann roll s s 1 2 3 h
Bob use super-jump
expect Bob hp 1
Bob stay
Ann end
expect Bob energy 0
Bob roll 1 2 3 h h h
Bob end
Cid roll s 1 2 3 e e
Bob use super-jump
"""


def test_super_jump_in_a_log() -> None:
    report = check_text("t.log", SUPER_JUMP.rsplit("Bob use", 1)[0])
    assert report.exit_code == 0, [str(v) for g in report.games for v in [*g.violations, *g.errors]]
    line, _, err = only_violation(SUPER_JUMP)        # Cid's smash: Bob has no energy left to pay
    assert (line, err) == (16, "kot-no-energy")


def test_a_tile_whose_hook_is_not_written_stops_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    from kbgrules.king_of_tokyo.state import UnsupportedCardError

    monkeypatch.delitem(HOOKS, "underdog")
    st = game("green")
    with pytest.raises(UnsupportedCardError) as info:
        take(st, 0, "underdog")
    assert info.value.code == "kot-unsupported-card"
