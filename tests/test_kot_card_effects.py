"""Every King of Tokyo power card: its effect in a small scenario (one test per card)."""

from __future__ import annotations

import pytest

import kbgrules
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
    UnsupportedCardError,
    Use,
)

NAMES = ["Ann", "Bob", "Cid", "Dee"]
FILLER = ["corner-store", "heal", "tank"]


def game(players: int = 3, market: list[str] | None = None) -> KingOfTokyoState:
    rs = kbgrules.load("king-of-tokyo", players=players)
    return KingOfTokyoState(rs, NAMES[:players], market or list(FILLER))


def roll(st: KingOfTokyoState, *faces: str) -> None:
    word = {"e": "energy", "h": "heart", "s": "smash"}
    st.apply(Roll(tuple(word.get(f, f) for f in faces)))


def buy(st: KingOfTokyoState, card: str, energy: int = 20) -> None:
    st.me.energy = energy
    if card not in st.market:
        st.market[0] = card
    st.apply(Buy(st.active, card, "apartment-building"))


def give(st: KingOfTokyoState, who: int, card: str) -> None:
    st.monsters[who].cards.append(card)


def stats(st: KingOfTokyoState, i: int) -> tuple[int, int, int, str]:
    m = st.monsters[i]
    return m.hp, m.vp, m.energy, m.location


def after_turn(st: KingOfTokyoState, *faces: str) -> None:
    roll(st, *faces)
    st.apply(EndTurn(st.active))


# ---------------------------------------------------------------- discard cards: bought and applied at once

@pytest.mark.parametrize("card,vp", [("apartment-building", 3), ("commuter-train", 2), ("corner-store", 1),
                                     ("skyscraper", 4)])
def test_vp_cards(card: str, vp: int) -> None:
    st = game()
    roll(st, "1", "2", "3", "e", "h", "h")
    buy(st, card, 10)
    assert st.me.vp == 1 + vp  # +1 for entering Tokyo City
    assert card not in st.me.cards  # discard cards do not stay


def test_energize() -> None:
    st = game()
    roll(st, "1", "2", "3", "h", "h", "h")
    buy(st, "energize", 8)
    assert st.me.energy == 9


def test_heal_card_is_capped() -> None:
    st = game()
    st.monsters[0].hp = 9
    roll(st, "1", "2", "3", "e", "e", "e")
    buy(st, "heal", 3)
    assert st.me.hp == 10


@pytest.mark.parametrize("card,dvp,dhp", [("jet-fighters", 5, -4), ("national-guard", 2, -2), ("tank", 4, -3),
                                          ("nuclear-power-plant", 2, 3)])
def test_vp_and_life_cards(card: str, dvp: int, dhp: int) -> None:
    st = game()
    st.monsters[0].hp = 6
    roll(st, "1", "2", "3", "e", "e", "e")
    buy(st, card, 10)
    assert (st.me.vp, st.me.hp) == (1 + dvp, min(10, 6 + dhp))


def test_evacuation_orders() -> None:
    st = game()
    st.monsters[1].vp, st.monsters[2].vp = 7, 3
    roll(st, "1", "2", "3", "e", "e", "e")
    buy(st, "evacuation-orders")
    assert [m.vp for m in st.monsters] == [1, 2, 0]


def test_flame_thrower_is_not_a_smash() -> None:
    st = game()
    roll(st, "1", "2", "3", "e", "e", "e")
    buy(st, "flame-thrower")
    assert [m.hp for m in st.monsters] == [10, 8, 8] and st.phase == "buy"


def test_gas_refinery() -> None:
    st = game()
    roll(st, "1", "2", "3", "e", "e", "e")
    buy(st, "gas-refinery")
    assert [(m.hp, m.vp) for m in st.monsters] == [(10, 3), (7, 0), (7, 0)]


def test_high_altitude_bombing_hits_the_buyer_too() -> None:
    st = game()
    roll(st, "1", "2", "3", "e", "e", "e")
    buy(st, "high-altitude-bombing")
    assert [m.hp for m in st.monsters] == [7, 7, 7]


def test_vast_storm() -> None:
    st = game()
    st.monsters[1].energy, st.monsters[2].energy = 5, 1
    roll(st, "1", "2", "3", "h", "h", "h")
    buy(st, "vast-storm", 6)
    assert [m.energy for m in st.monsters] == [0, 3, 1] and st.me.vp == 3


def test_death_from_above_takes_the_city() -> None:
    st = game()
    after_turn(st, "1", "2", "3", "h", "h", "h")  # Ann enters the City
    roll(st, "1", "2", "3", "h", "h", "h")
    buy(st, "death-from-above")
    assert (st.monsters[0].location, st.monsters[1].location) == ("outside", "city")
    assert st.monsters[1].vp == 2 + 1


def test_frenzy_gives_another_turn() -> None:
    st = game()
    roll(st, "1", "2", "3", "h", "h", "h")
    buy(st, "frenzy")
    st.apply(EndTurn(0))
    assert st.active == 0 and st.turn_number == 2 and st.me.vp == 1 + 2  # City at the start of the turn
    after_turn(st, "1", "2", "3", "h", "h", "h")
    assert st.active == 1


# ---------------------------------------------------------------- keep cards


def test_extra_head_adds_a_die() -> None:
    st = game()
    give(st, 0, "extra-head")
    assert st.dice_count() == 7
    after_turn(st, "1", "1", "1", "1", "1", "1", "1")
    assert st.monsters[0].vp == 1 + 4 + 1  # seven 1s: one set worth 1 + 4; entering Tokyo +1


def test_giant_brain_adds_a_roll() -> None:
    st = game()
    give(st, 0, "giant-brain")
    roll(st, "1", "1", "1", "1", "1", "1")
    for _ in range(3):
        st.apply(Reroll(("1",), ("2",)))
    assert st.rolls == 4


def test_alien_origin_lowers_costs() -> None:
    st = game()
    give(st, 0, "alien-origin")
    roll(st, "1", "2", "3", "h", "h", "h")
    buy(st, "skyscraper", 5)
    assert st.me.energy == 0


def test_even_bigger() -> None:
    st = game()
    roll(st, "1", "2", "3", "e", "e", "e")
    buy(st, "even-bigger", 4)
    assert st.me.hp == 12 and st.max_hp(st.me) == 12


def test_friend_of_children() -> None:
    st = game()
    give(st, 0, "friend-of-children")
    roll(st, "e", "e", "2", "3", "h", "h")
    st.apply(EndTurn(0))
    assert st.monsters[0].energy == 3


def test_regeneration() -> None:
    st = game()
    give(st, 0, "regeneration")
    st.monsters[0].hp = 5
    after_turn(st, "h", "2", "3", "1", "e", "e")
    assert st.monsters[0].hp == 7


def test_armor_plating_ignores_a_single_loss_of_one() -> None:
    st = game()
    after_turn(st, "1", "2", "3", "h", "h", "h")  # Ann in the City
    give(st, 0, "armor-plating")
    after_turn(st, "s", "2", "3", "h", "h", "1")
    assert st.monsters[0].hp == 10
    after_turn(st, "s", "s", "3", "h", "h", "1")
    assert st.monsters[0].hp == 8


def test_nova_breath_hits_everyone() -> None:
    st = game()
    give(st, 0, "nova-breath")
    after_turn(st, "s", "s", "3", "h", "h", "1")
    assert [m.hp for m in st.monsters] == [10, 8, 8]


def test_acid_attack_adds_a_smash() -> None:
    st = game()
    after_turn(st, "1", "2", "3", "h", "h", "h")  # Ann in the City
    give(st, 1, "acid-attack")
    after_turn(st, "1", "2", "3", "h", "h", "h")
    assert st.monsters[0].hp == 9


def test_alpha_monster() -> None:
    st = game()
    give(st, 0, "alpha-monster")
    after_turn(st, "s", "2", "3", "h", "h", "1")
    assert st.monsters[0].vp == 1 + 1


def test_complete_destruction() -> None:
    st = game()
    give(st, 0, "complete-destruction")
    after_turn(st, "1", "2", "3", "h", "e", "s")
    assert st.monsters[0].vp == 9 + 1


def test_detritivore() -> None:
    st = game()
    give(st, 0, "detritivore")
    after_turn(st, "1", "2", "3", "h", "e", "e")
    assert st.monsters[0].vp == 2 + 1


def test_gourmet() -> None:
    st = game()
    give(st, 0, "gourmet")
    after_turn(st, "1", "1", "1", "h", "e", "e")
    assert st.monsters[0].vp == 1 + 2 + 1


def test_poison_quills() -> None:
    st = game()
    after_turn(st, "1", "3", "3", "h", "e", "e")
    give(st, 1, "poison-quills")
    after_turn(st, "2", "2", "2", "h", "e", "e")
    assert st.monsters[0].hp == 8


def test_spiked_tail() -> None:
    st = game()
    after_turn(st, "1", "3", "3", "h", "e", "e")
    give(st, 1, "spiked-tail")
    after_turn(st, "s", "2", "3", "h", "e", "e")
    assert st.monsters[0].hp == 8


def test_burrowing_only_in_tokyo() -> None:
    st = game()
    give(st, 0, "burrowing")
    after_turn(st, "1", "3", "3", "h", "e", "e")  # outside: no smash to add; enters the City
    after_turn(st, "1", "3", "3", "h", "e", "e")
    after_turn(st, "1", "3", "3", "h", "e", "e")
    after_turn(st, "1", "3", "3", "h", "e", "e")  # Ann in Tokyo: one smash hits Bob and Cid
    assert [m.hp for m in st.monsters] == [10, 9, 9]


def test_urbavore() -> None:
    st = game()
    give(st, 0, "urbavore")
    after_turn(st, "1", "3", "3", "h", "e", "e")
    after_turn(st, "1", "3", "3", "h", "e", "e")
    after_turn(st, "1", "3", "3", "h", "e", "e")
    after_turn(st, "s", "3", "3", "h", "e", "e")  # start in Tokyo: +2 +1; smash becomes 2
    assert st.monsters[0].vp == 1 + 3 and [m.hp for m in st.monsters[1:]] == [8, 8]


def test_fire_breathing_hurts_the_neighbours() -> None:
    st = game(4)
    give(st, 0, "fire-breathing")
    after_turn(st, "s", "3", "3", "h", "e", "e")  # nobody in Tokyo: the smash hits nobody
    assert [m.hp for m in st.monsters] == [10, 9, 10, 9]


def test_media_friendly() -> None:
    st = game()
    give(st, 0, "media-friendly")
    roll(st, "1", "2", "3", "h", "h", "h")
    buy(st, "heal", 3)
    assert st.me.vp == 1 + 1


def test_eater_of_the_dead() -> None:
    st = game()
    give(st, 2, "eater-of-the-dead")
    st.monsters[1].hp = 2
    roll(st, "1", "2", "3", "h", "h", "h")
    buy(st, "flame-thrower")
    assert st.monsters[1].eliminated and st.monsters[2].vp == 3


def test_energy_hoarder() -> None:
    st = game()
    give(st, 0, "energy-hoarder")
    st.monsters[0].energy = 11
    after_turn(st, "e", "2", "3", "h", "h", "1")
    assert st.monsters[0].vp == 2 + 1


def test_solar_powered() -> None:
    st = game()
    give(st, 0, "solar-powered")
    after_turn(st, "1", "2", "3", "h", "h", "h")
    assert st.monsters[0].energy == 1


def test_herbivore() -> None:
    st = game()
    give(st, 0, "herbivore")
    after_turn(st, "1", "2", "3", "h", "h", "h")
    assert st.monsters[0].vp == 1 + 1
    give(st, 1, "herbivore")
    after_turn(st, "s", "2", "3", "h", "h", "h")  # Bob hurts Ann: no bonus
    assert st.monsters[1].vp == 0


def test_rooting_for_the_underdog() -> None:
    st = game()
    give(st, 1, "rooting-for-the-underdog")
    after_turn(st, "1", "1", "1", "h", "h", "h")
    st.monsters[2].vp = 1
    after_turn(st, "2", "3", "1", "h", "h", "h")
    assert st.monsters[1].vp == 1


def use(st: KingOfTokyoState, who: int, card: str, *args: str) -> None:
    st.apply(Use(who, card, tuple(args)))


def test_were_only_making_it_stronger() -> None:
    st = game()
    after_turn(st, "1", "2", "3", "h", "h", "h")
    give(st, 0, "were-only-making-it-stronger")
    after_turn(st, "s", "s", "3", "h", "h", "1")
    assert st.monsters[0].energy == 1
    after_turn(st, "s", "2", "3", "h", "h", "1")  # a loss of 1: nothing
    assert st.monsters[0].energy == 1


def test_energy_drink_buys_a_roll() -> None:
    st = game()
    give(st, 0, "energy-drink")
    st.monsters[0].energy = 1
    roll(st, "1", "1", "1", "1", "1", "1")
    st.apply(Reroll(("1",), ("2",)))
    st.apply(Reroll(("1",), ("2",)))
    use(st, 0, "energy-drink")
    st.apply(Reroll(("1",), ("2",)))
    assert st.rolls == 4 and st.me.energy == 0
    with pytest.raises(IllegalMoveError):
        use(st, 0, "energy-drink")  # no energy left


def test_smoke_cloud_three_charges() -> None:
    st = game()
    roll(st, "1", "2", "3", "h", "h", "h")
    buy(st, "smoke-cloud", 4)
    assert st.me.tokens["smoke"] == 3
    st.apply(EndTurn(0))
    for _ in range(2):
        after_turn(st, "1", "2", "3", "h", "h", "h")
    roll(st, "1", "1", "1", "1", "1", "1")
    st.apply(Reroll(("1",), ("2",)))
    st.apply(Reroll(("1",), ("2",)))
    for _ in range(3):
        use(st, 0, "smoke-cloud")
        st.apply(Reroll(("1",), ("2",)))
    assert "smoke-cloud" not in st.me.cards and st.me.tokens["smoke"] == 0


def test_herd_culler_once_per_turn() -> None:
    st = game()
    give(st, 0, "herd-culler")
    roll(st, "1", "1", "s", "h", "h", "h")
    use(st, 0, "herd-culler", "s")
    with pytest.raises(IllegalMoveError):
        use(st, 0, "herd-culler", "h")
    st.apply(EndTurn(0))
    assert st.monsters[0].vp == 1 + 1


def test_stretchy_and_plot_twist_change_a_die() -> None:
    st = game()
    give(st, 0, "stretchy")
    give(st, 0, "plot-twist")
    st.monsters[0].energy = 2
    roll(st, "1", "1", "s", "h", "h", "h")
    use(st, 0, "stretchy", "s", "1")
    use(st, 0, "plot-twist", "h", "e")
    assert sorted(st.dice) == ["1", "1", "1", "energy", "heart", "heart"]
    assert "plot-twist" not in st.me.cards and st.me.energy == 0


def test_background_dweller_rerolls_threes_for_free() -> None:
    st = game()
    give(st, 0, "background-dweller")
    roll(st, "3", "3", "1", "h", "h", "h")
    st.apply(Reroll(("1",), ("2",)))
    st.apply(Reroll(("2",), ("3",)))
    st.apply(Reroll(("3", "3"), ("3", "smash")))  # beyond the 3 rolls: only 3s
    with pytest.raises(IllegalMoveError):
        st.apply(Reroll(("heart",), ("3",)))


def test_rapid_healing() -> None:
    st = game()
    give(st, 1, "rapid-healing")
    st.monsters[1].hp, st.monsters[1].energy = 5, 4
    use(st, 1, "rapid-healing")  # at any time, even on another monster's turn
    assert (st.monsters[1].hp, st.monsters[1].energy) == (6, 2)


def test_wings_negate_damage_for_the_turn() -> None:
    st = game()
    after_turn(st, "1", "2", "3", "h", "h", "h")
    give(st, 0, "wings")
    st.monsters[0].energy = 2
    roll(st, "s", "s", "s", "h", "h", "1")
    use(st, 0, "wings")
    st.apply(EndTurn(1))
    assert st.monsters[0].hp == 10


def test_freeze_time_gives_a_smaller_extra_turn() -> None:
    st = game()
    give(st, 0, "freeze-time")
    roll(st, "1", "1", "1", "h", "h", "h")
    st.apply(Keep())
    use(st, 0, "freeze-time")
    st.apply(EndTurn(0))
    assert st.active == 0 and st.dice_count() == 5
    after_turn(st, "1", "2", "3", "h", "h")
    assert st.active == 1 and st.dice_count() == 6


def test_freeze_time_chains_one_die_fewer_each_time() -> None:
    """Each chained extra turn rolls one die fewer than the turn that earned it (6, 5, 4, 3), a second use in
    one turn is refused, and a turn without it ends the chain (issue 14; BGA and brdg.me agree)."""
    st = game()
    give(st, 0, "freeze-time")
    for count in (6, 5, 4):
        assert st.active == 0 and st.dice_count() == count
        roll(st, "1", "1", "1", *["h"] * (count - 3))
        st.apply(Keep())
        use(st, 0, "freeze-time")
        with pytest.raises(IllegalMoveError, match="one extra turn per turn"):
            use(st, 0, "freeze-time")
        st.apply(EndTurn(0))
    assert st.active == 0 and st.dice_count() == 3
    with pytest.raises(IllegalMoveError, match="must roll 3 dice here, not 4"):
        roll(st, "1", "2", "3", "h")
    after_turn(st, "1", "2", "3")
    assert st.active == 1 and st.dice_count() == 6
    for _ in range(2):  # Bob's and Cid's turns
        after_turn(st, "2", "2", "3", "h", "h", "h")
    assert st.active == 0 and st.dice_count() == 6  # the chain ended with the turn that did not use the card
    roll(st, "1", "1", "1", "h", "h", "h")
    st.apply(Keep())
    use(st, 0, "freeze-time")
    st.apply(EndTurn(0))
    assert st.dice_count() == 5


def test_metamorph_sells_cards_at_full_price() -> None:
    st = game()
    give(st, 0, "metamorph")
    give(st, 0, "extra-head")
    roll(st, "1", "2", "3", "h", "h", "h", "h")
    st.apply(Keep())
    use(st, 0, "metamorph", "extra-head")
    assert st.me.energy == 7 and "extra-head" not in st.me.cards


def test_battery_monster() -> None:
    st = game()
    roll(st, "1", "2", "3", "h", "h", "h")
    buy(st, "battery-monster", 3)
    st.apply(EndTurn(0))
    for _ in range(2):
        after_turn(st, "1", "2", "3", "h", "h", "h")
    for stored in (4, 2):  # Ann's turn has started: 2 energy moved off the card
        assert st.me.stored["battery-monster"] == stored
        for _ in range(3):
            after_turn(st, "1", "2", "3", "h", "h", "h")
    assert st.monsters[0].energy == 6 and "battery-monster" not in st.monsters[0].cards  # empty: discarded


def test_it_has_a_child() -> None:
    st = game()
    after_turn(st, "1", "2", "3", "h", "h", "h")
    give(st, 0, "it-has-a-child")
    give(st, 0, "extra-head")
    give(st, 2, "eater-of-the-dead")
    st.monsters[0].hp, st.monsters[0].vp, st.monsters[0].energy = 2, 9, 4
    after_turn(st, "s", "s", "3", "h", "h", "1")
    m = st.monsters[0]
    assert (m.eliminated, m.hp, m.vp, m.energy, m.location, m.cards) == (False, 10, 0, 4, "outside", [])
    assert st.monsters[2].vp == 3 and st.monsters[1].location == "city"


def test_jets_yield_without_damage() -> None:
    st = game()
    after_turn(st, "1", "2", "3", "h", "h", "h")
    give(st, 0, "jets")
    roll(st, "s", "s", "s", "h", "h", "1")
    st.apply(Decide(0, True))
    assert st.monsters[0].hp == 10 and st.monsters[1].location == "city"


@pytest.mark.parametrize("card,token", [("poison-spit", "poison"), ("shrink-ray", "shrink")])
def test_token_cards(card: str, token: str) -> None:
    st = game()
    after_turn(st, "1", "2", "3", "h", "h", "h")  # Ann in the City
    give(st, 1, card)
    after_turn(st, "s", "2", "3", "h", "h", "1")  # Bob hurts Ann: a token
    assert st.monsters[0].tokens[token] == 1
    after_turn(st, "1", "2", "3", "e", "e", "e")
    if token == "poison":
        roll(st, "1", "2", "3", "e", "e", "e")
        st.apply(EndTurn(0))                      # Ann loses 1 at the end of her own turn
        assert st.monsters[0].hp == 10 - 1 - 1
    else:
        assert st.dice_count() == 5


def test_hearts_cure_tokens_outside_tokyo_only() -> None:
    st = game()
    after_turn(st, "1", "2", "3", "e", "e", "e")  # Ann in the City
    st.monsters[1].tokens["poison"] = 2
    roll(st, "h", "h", "3", "e", "e", "e")
    st.apply(Cure(1, "poison", 1))
    st.apply(EndTurn(1))
    assert st.monsters[1].tokens["poison"] == 1
    assert st.monsters[1].hp == 10 - 1  # one heart cured (max 10 anyway), then 1 poison at the end
    roll(st, "1", "2", "3", "e", "e", "e")
    st.apply(EndTurn(2))
    roll(st, "h", "1", "3", "e", "e", "e")        # Ann in Tokyo cannot cure
    st.monsters[0].tokens["poison"] = 1
    st.apply(Cure(0, "poison"))
    with pytest.raises(IllegalMoveError) as info:
        st.apply(EndTurn(0))
    assert info.value.code == "kot-cure"


def test_opportunist_buys_out_of_turn() -> None:
    st = game()
    give(st, 2, "opportunist")
    st.monsters[2].energy = 6
    roll(st, "1", "2", "3", "h", "h", "h")
    st.me.energy = 3
    st.apply(Buy(0, "corner-store", "skyscraper"))  # Skyscraper is revealed...
    st.apply(Buy(2, "skyscraper", "energize"))      # ...and Cid takes it at once
    assert st.monsters[2].vp == 4 and st.monsters[2].energy == 0
    with pytest.raises(IllegalMoveError):
        st.apply(Buy(1, "heal", "gourmet"))          # Bob has no Opportunist


def test_made_in_a_lab_buys_the_top_card() -> None:
    st = game()
    give(st, 0, "made-in-a-lab")
    roll(st, "1", "2", "3", "h", "h", "h")
    st.me.energy = 6
    st.apply(Buy(0, "skyscraper", None, top=True))
    assert st.me.vp == 1 + 4 and st.market == list(FILLER) and st.deck["skyscraper"] == 0


def test_parasitic_tentacles_buys_from_another_monster() -> None:
    st = game()
    give(st, 0, "parasitic-tentacles")
    give(st, 1, "extra-head")
    roll(st, "1", "2", "3", "h", "h", "h")
    st.me.energy = 7
    st.apply(Buy(0, "extra-head", None, seller=1))
    assert "extra-head" in st.monsters[0].cards and st.monsters[1].energy == 7 and not st.monsters[1].cards


def test_psychic_probe_rerolls_another_monsters_die() -> None:
    st = game()
    give(st, 1, "psychic-probe")
    roll(st, "s", "s", "s", "1", "2", "3")
    use(st, 1, "psychic-probe", "s", ":", "1")
    with pytest.raises(IllegalMoveError):
        use(st, 1, "psychic-probe", "s", ":", "1")  # once per turn
    st.apply(EndTurn(0))
    roll(st, "s", "s", "s", "1", "2", "3")
    with pytest.raises(IllegalMoveError):
        use(st, 1, "psychic-probe", "s", ":", "1")  # not on its owner's turn
    st.apply(EndTurn(1))
    roll(st, "h", "s", "s", "1", "2", "3")
    use(st, 1, "psychic-probe", "s", ":", "h")      # a heart: the card is discarded
    assert "psychic-probe" not in st.monsters[1].cards


def test_healing_ray_heals_others_for_energy() -> None:
    st = game()
    give(st, 0, "healing-ray")
    st.monsters[1].hp, st.monsters[1].energy = 6, 3
    roll(st, "h", "h", "h", "1", "2", "3")
    use(st, 0, "healing-ray", "Bob", "2")
    st.apply(EndTurn(0))
    assert st.monsters[1].hp == 8 and st.monsters[1].energy == 0 and st.monsters[0].energy == 3


HOOK_CARDS = [(ed, c.id) for ed in ("2016", "2011") for c in kbgrules.load("kot", edition=ed).cards
              if c.hook and c.hook not in HOOKS]


def test_every_card_has_effects_or_a_hook() -> None:
    cards = kbgrules.load("kot").cards
    assert all(bool(c.effects) != bool(c.hook) for c in cards)
    assert len([c for c in cards if c.effects]) == 42
    assert all(c.hook in HOOKS for c in cards if c.hook)  # every 2016 card can be replayed
    assert HOOK_CARDS == []  # and every 2011 card


def test_monster_batteries_2011() -> None:
    rs = kbgrules.load("king-of-tokyo", players=3, edition="2011")
    st = KingOfTokyoState(rs, NAMES[:3], ["battery-monster", "heal", "tank"])
    roll(st, "s", "2", "3", "h", "h", "h")
    st.me.energy = 5
    st.apply(Buy(0, "battery-monster", "gourmet"))  # costs 2 in 2011
    use(st, 0, "battery-monster", "3")               # 3 of Ann's energy, and 3 from the bank
    assert st.me.energy == 0 and st.me.stored["battery-monster"] == 6
    st.apply(EndTurn(0))
    for _ in range(2):
        after_turn(st, "1", "2", "3", "h", "h", "h")
    assert st.monsters[0].energy == 2 and st.me.stored["battery-monster"] == 4


def test_frenzy_option_ends_the_turn_at_once() -> None:
    rs = kbgrules.load("king-of-tokyo", players=3, variants=["frenzy-ends-turn"])
    st = KingOfTokyoState(rs, NAMES[:3], ["frenzy", "heal", "tank"])
    give(st, 0, "solar-powered")
    roll(st, "1", "2", "3", "h", "h", "h")
    buy(st, "frenzy", 7)
    assert st.active == 0 and st.phase == "roll" and st.turn_number == 2
    assert st.me.energy == 0  # Solar Powered's end-of-turn energy was skipped
    assert st.me.vp == 1 + 2  # the new turn starts in the City


def test_death_from_above_option_keeps_the_bay() -> None:
    for variants, where in (((), "city"), (("death-from-above-bay-stays",), "bay")):
        rs = kbgrules.load("king-of-tokyo", players=5, variants=variants)
        st = KingOfTokyoState(rs, ["Ann", "Bob", "Cid", "Dee", "Eve"], ["death-from-above", "heal", "tank"])
        after_turn(st, "1", "2", "3", "h", "h", "h")  # Ann: City
        roll(st, "1", "2", "3", "h", "h", "h")
        st.apply(Keep())                               # Bob enters the Bay
        buy(st, "death-from-above")
        assert st.monsters[1].location == where


def test_mimic_copies_a_keep_card() -> None:
    st = game()
    give(st, 1, "extra-head")
    give(st, 1, "gourmet")
    give(st, 0, "mimic")
    use(st, 0, "mimic", "extra-head")
    assert st.dice_count() == 7 and st.me.tokens["mimic"] == 1
    after_turn(st, "1", "1", "1", "h", "h", "h", "h")
    after_turn(st, "1", "2", "3", "e", "e", "e", "e")  # Bob holds Extra Head: 7 dice
    after_turn(st, "1", "2", "3", "e", "e", "e")
    st.monsters[0].energy = 1
    use(st, 0, "mimic", "gourmet")               # start of Ann's turn: 1 energy to move the token
    assert st.monsters[0].energy == 0 and st.dice_count() == 6
    after_turn(st, "1", "1", "1", "e", "e", "e")
    assert st.monsters[0].vp == 1 + 1 + 2 + 1 + 2  # 1-1-1 twice, City, a turn started in Tokyo, Gourmet
    with pytest.raises(IllegalMoveError):
        use(st, 0, "mimic", "heal")                # not a keep card in play


def test_first_edition_cards_deal_extra_damage_not_smashes() -> None:
    rs = kbgrules.load("king-of-tokyo", players=3, edition="2011")
    st = KingOfTokyoState(rs, NAMES[:3], list(FILLER))
    after_turn(st, "s", "2", "3", "h", "h", "h")   # 2011: a smash is needed to take Tokyo
    assert st.monsters[0].location == "city"
    give(st, 1, "acid-attack")
    roll(st, "1", "2", "3", "h", "h", "e")         # no smash: Acid Attack still deals 1
    with pytest.raises(IllegalMoveError):
        st.apply(Decide(0, True))                  # extra damage is not a Smash: no yield
    st.apply(EndTurn(1))
    assert st.monsters[0].hp == 9 and st.monsters[0].location == "city"
    assert st.cards["battery-monster"].name == "Monster Batteries"


def test_camouflage_needs_its_dice_and_hearts_cancel_damage() -> None:
    from kbgrules.king_of_tokyo.state import ChanceNeeded

    st = game()
    after_turn(st, "1", "2", "3", "h", "h", "h")  # Ann in the City
    give(st, 0, "camouflage")
    roll(st, "s", "s", "s", "1", "2", "3")
    with pytest.raises(ChanceNeeded) as info:
        st.apply(EndTurn(1))
    assert (info.value.monster, info.value.count) == (0, 3)
    assert st.phase == "roll" and st.monsters[0].hp == 10  # nothing changed
    st.camouflage_roll(0, ("heart", "1", "heart"))
    st.apply(EndTurn(1))
    assert st.monsters[0].hp == 9


def test_camouflage_without_undo_plays_the_dice_given_first_and_leaves_a_state_to_throw_away() -> None:
    from kbgrules.king_of_tokyo.state import ChanceNeeded

    def ready() -> KingOfTokyoState:
        st = game()
        after_turn(st, "1", "2", "3", "h", "h", "h")  # Ann in the City
        give(st, 0, "camouflage")
        roll(st, "s", "s", "s", "3", "3", "3")
        return st

    st = ready()
    st.camouflage_roll(0, ("heart", "1", "heart"))  # the dice first: the same game as with the undo
    st.apply(EndTurn(1), chance_undo=False)
    assert st.monsters[0].hp == 9 and st.monsters[1].vp == 3
    st = ready()
    with pytest.raises(ChanceNeeded):
        st.apply(EndTurn(1), chance_undo=False)
    assert st.monsters[1].vp == 3  # the VP of the dice, counted before the damage: not undone


def test_a_hook_not_written_is_refused(tmp_path: object) -> None:
    from pathlib import Path

    d = Path(str(tmp_path))
    (d / "cards.yaml").write_text("""\
kind: cards
game: king-of-tokyo
cards:
  house-gadget:
    name: House Gadget
    cost: 1
    type: keep
    hook: house_gadget
    effect: Something our table invented.
    sources: [{doc: BGA, section: house}]
""")
    rs = kbgrules.load("king-of-tokyo", players=3, rules_dirs=[d])
    st = KingOfTokyoState(rs, NAMES[:3], ["house-gadget", "heal", "tank"])
    roll(st, "s", "2", "3", "h", "h", "h")
    with pytest.raises(UnsupportedCardError) as info:
        buy(st, "house-gadget")
    assert info.value.code == "kot-unsupported-card"
