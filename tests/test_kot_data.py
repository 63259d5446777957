"""King of Tokyo facts: setup per player count, the numbers of the rules, and the overlays."""

from __future__ import annotations

import pytest

import kbgrules
from kbgrules import KingOfTokyoRuleset

KOT: KingOfTokyoRuleset = kbgrules.load("king-of-tokyo")


@pytest.mark.parametrize("players,spaces", [(2, ("city",)), (3, ("city",)), (4, ("city",)),
                                            (5, ("city", "bay")), (6, ("city", "bay"))])
def test_tokyo_spaces_per_player_count(players: int, spaces: tuple[str, ...]) -> None:
    assert kbgrules.load("kot", players=players).setup.tokyo_spaces == spaces


def test_starting_position_and_numbers() -> None:
    assert (KOT.start_life, KOT.start_vp, KOT.start_energy) == (10, 0, 0)
    assert (KOT.max_life, KOT.life_hard_cap, KOT.vp_goal) == (10, 12, 20)
    assert (KOT.rolls, KOT.set_size, KOT.market_size, KOT.sweep_cost) == (3, 3, 3, 2)
    assert (KOT.standard_dice, KOT.extra_dice, KOT.max_dice) == (6, 2, 8)
    assert [f.id for f in KOT.dice_faces] == ["1", "2", "3", "energy", "heart", "smash"]
    assert KOT.phases == ("start", "roll", "resolve", "enter-tokyo", "buy", "end")
    assert (KOT.enter_reward.resource, KOT.enter_reward.amount) == ("vp", 1)
    assert (KOT.start_turn_reward.resource, KOT.start_turn_reward.amount) == ("vp", 2)
    assert KOT.enter_mandatory and not KOT.enter_requires_smash and not KOT.heal_in_tokyo
    assert KOT.bay_min_monsters == 5 and KOT.victory_check == "end-of-turn"


def test_components() -> None:
    counts = {c.id: c.count for c in KOT.components}
    assert counts["black-die"] == 6 and counts["green-die"] == 2 and counts["power-card"] == 66
    tokens = {k: v for k, v in counts.items() if k.endswith("-token")}
    assert tokens == {"shrink-ray-token": 12, "poison-token": 12, "smoke-token": 3, "mimic-token": 1}
    assert sum(tokens.values()) == 28
    assert len(KOT.monsters) == 6


def test_two_player_rule_replaces_vp_with_energy() -> None:
    rs = kbgrules.load("kot", variants=["two-player"], players=2)
    assert (rs.enter_reward.resource, rs.enter_reward.amount) == ("energy", 1)
    assert (rs.start_turn_reward.resource, rs.start_turn_reward.amount) == ("energy", 1)
    assert rs.vp_goal == 20 and rs.rolls == 3  # nothing else changes


def test_two_player_rule_needs_two_players() -> None:
    with pytest.raises(kbgrules.PlayerCountError):
        kbgrules.load("kot", variants=["two-player"], players=4)


def test_first_edition() -> None:
    rs = kbgrules.load("kot", edition="2011", players=5)
    assert rs.enter_requires_smash
    assert "enter-tokyo" not in rs.phases
    assert rs.setup.tokyo_spaces == ("city",) and rs.setup.optional_tokyo_spaces == ("bay",)
    assert rs.card("battery-monster").name == "Monster Batteries"
    assert rs.card("Monster Batteries").cost == 2
    assert KOT.card("battery-monster").cost == 3
    assert rs.rule("kot.tokyo.enter").text != KOT.rule("kot.tokyo.enter").text
