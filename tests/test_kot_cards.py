"""Tests for the King of Tokyo power-card data (rules_data/king-of-tokyo/cards.yaml).

The EXPECTED table below is the oracle: it was typed out by hand from the
project's reference sheet (kot_cards.yaml, 2016 edition) and is compared with
what the library loads, card by card.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path

import pytest

import kbgrules

REPO_ROOT = Path(__file__).resolve().parents[1]
REFERENCE_TEXTS = REPO_ROOT / "tests" / "reference" / "kot_card_text_digests.txt"

ALLOWED_DOCS = {
    "BGA", "NOAH", "MALTIZE", "BRDG", "BLEE", "DZ", "DE", "R11", "IELLO-CC", "BGG-FAQ",
}

# (2016 name, cost, type, copies) -- all 64 titles of the 2016 base deck.
EXPECTED = [
    # keep (47 titles, 48 cards)
    ("Acid Attack", 6, "keep", 1),
    ("Alien Origin", 3, "keep", 1),
    ("Alpha Monster", 5, "keep", 1),
    ("Armor Plating", 4, "keep", 1),
    ("Background Dweller", 4, "keep", 1),
    ("Battery Monster", 3, "keep", 1),
    ("Burrowing", 5, "keep", 1),
    ("Camouflage", 3, "keep", 1),
    ("Complete Destruction", 3, "keep", 1),
    ("Detritivore", 4, "keep", 1),
    ("Eater of the Dead", 4, "keep", 1),
    ("Energy Drink", 4, "keep", 1),
    ("Energy Hoarder", 3, "keep", 1),
    ("Even Bigger", 4, "keep", 1),
    ("Extra Head", 7, "keep", 2),
    ("Fire Breathing", 4, "keep", 1),
    ("Freeze Time", 5, "keep", 1),
    ("Friend of Children", 3, "keep", 1),
    ("Giant Brain", 5, "keep", 1),
    ("Gourmet", 4, "keep", 1),
    ("Healing Ray", 4, "keep", 1),
    ("Herbivore", 5, "keep", 1),
    ("Herd Culler", 3, "keep", 1),
    ("It Has a Child!", 7, "keep", 1),
    ("Jets", 5, "keep", 1),
    ("Made in a Lab", 2, "keep", 1),
    ("Media-Friendly", 3, "keep", 1),
    ("Metamorph", 3, "keep", 1),
    ("Mimic", 8, "keep", 1),
    ("Nova Breath", 7, "keep", 1),
    ("Opportunist", 3, "keep", 1),
    ("Parasitic Tentacles", 4, "keep", 1),
    ("Plot Twist", 3, "keep", 1),
    ("Poison Quills", 3, "keep", 1),
    ("Poison Spit", 4, "keep", 1),
    ("Psychic Probe", 3, "keep", 1),
    ("Rapid Healing", 3, "keep", 1),
    ("Regeneration", 4, "keep", 1),
    ("Rooting for the Underdog", 3, "keep", 1),
    ("Shrink Ray", 6, "keep", 1),
    ("Smoke Cloud", 4, "keep", 1),
    ("Solar Powered", 2, "keep", 1),
    ("Spiked Tail", 5, "keep", 1),
    ("Stretchy", 3, "keep", 1),
    ("Urbavore", 4, "keep", 1),
    ("We're Only Making It Stronger!", 3, "keep", 1),
    ("Wings", 6, "keep", 1),
    # discard (17 titles, 18 cards)
    ("Apartment Building", 5, "discard", 1),
    ("Commuter Train", 4, "discard", 1),
    ("Corner Store", 3, "discard", 1),
    ("Death From Above", 5, "discard", 1),
    ("Energize", 8, "discard", 1),
    ("Evacuation Orders", 7, "discard", 2),
    ("Flame Thrower", 3, "discard", 1),
    ("Frenzy", 7, "discard", 1),
    ("Gas Refinery", 6, "discard", 1),
    ("Heal", 3, "discard", 1),
    ("High Altitude Bombing", 4, "discard", 1),
    ("Jet Fighters", 5, "discard", 1),
    ("National Guard", 3, "discard", 1),
    ("Nuclear Power Plant", 6, "discard", 1),
    ("Skyscraper", 6, "discard", 1),
    ("Tank", 4, "discard", 1),
    ("Vast Storm", 6, "discard", 1),
]

# 2016 id -> first-edition (2011) name, for every title that was renamed.
RENAMED_2011 = {
    "alien-origin": "Alien Metabolism",
    "media-friendly": "Dedicated News Team",
    "it-has-a-child": "It Has a Child",
    "battery-monster": "Monster Batteries",
    "detritivore": "Omnivore",
    "energy-drink": "Telepath",
    "death-from-above": "Drop from High Altitude",
    "flame-thrower": "Fire Blast",
    "tank": "Tanks",
}
# The only cost that differs between the editions.
COST_2011 = {"battery-monster": 2}


def slug(name: str) -> str:
    """Stable id rule: lowercase, punctuation dropped, spaces become '-'."""
    s = name.lower()
    s = re.sub(r"[^a-z0-9 \-]", "", s)
    return re.sub(r" +", "-", s.strip())


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text or "")
    return " ".join(text.split()).casefold()


EXPECTED_BY_ID = {slug(row[0]): row for row in EXPECTED}


@pytest.fixture(scope="module")
def rs():
    return kbgrules.load("king-of-tokyo")


@pytest.fixture(scope="module")
def rs2011():
    return kbgrules.load("king-of-tokyo", edition="2011")


@pytest.fixture(scope="module")
def cards_by_id(rs):
    return {c.id: c for c in rs.cards}


@pytest.fixture(scope="module")
def cards2011_by_id(rs2011):
    return {c.id: c for c in rs2011.cards}


# ---------------------------------------------------------------- oracle table

def test_expected_table_is_self_consistent():
    assert len(EXPECTED) == 64
    assert len(EXPECTED_BY_ID) == 64
    assert sum(r[3] for r in EXPECTED) == 66
    assert sum(r[3] for r in EXPECTED if r[2] == "keep") == 48
    assert sum(r[3] for r in EXPECTED if r[2] == "discard") == 18
    assert set(RENAMED_2011) <= set(EXPECTED_BY_ID)
    assert set(COST_2011) <= set(EXPECTED_BY_ID)


@pytest.mark.parametrize(
    "name,cost,ctype,copies", EXPECTED, ids=[slug(r[0]) for r in EXPECTED]
)
def test_card_matches_reference(cards_by_id, name, cost, ctype, copies):
    cid = slug(name)
    assert cid in cards_by_id, f"missing card {cid}"
    card = cards_by_id[cid]
    assert card.name == name
    assert isinstance(card.cost, int) and not isinstance(card.cost, bool)
    assert card.cost == cost
    assert card.type == ctype
    assert isinstance(card.copies, int) and not isinstance(card.copies, bool)
    assert card.copies == copies


# ---------------------------------------------------------------- deck totals

def test_no_unexpected_cards(rs):
    ids = [c.id for c in rs.cards]
    assert sorted(ids) == sorted(EXPECTED_BY_ID)


def test_deck_totals(rs):
    cards = rs.cards
    assert isinstance(cards, tuple)
    assert len(cards) == 64
    assert len({c.id for c in cards}) == 64
    assert sum(c.copies for c in cards) == 66
    assert sum(c.copies for c in cards if c.type == "keep") == 48
    assert sum(c.copies for c in cards if c.type == "discard") == 18
    assert {c.type for c in cards} == {"keep", "discard"}


def test_only_extra_head_and_evacuation_orders_are_doubled(rs):
    doubled = {c.id: c.copies for c in rs.cards if c.copies != 1}
    assert doubled == {"extra-head": 2, "evacuation-orders": 2}


def test_file_order_keep_then_discard_alphabetical(rs):
    ids = [c.id for c in rs.cards]
    types = [c.type for c in rs.cards]
    n_keep = types.count("keep")
    assert types == ["keep"] * n_keep + ["discard"] * (len(types) - n_keep)
    assert ids[:n_keep] == sorted(ids[:n_keep])
    assert ids[n_keep:] == sorted(ids[n_keep:])


def test_ids_are_slugs_of_names(rs):
    for card in rs.cards:
        assert card.id == slug(card.name), card.name
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", card.id), card.id


# ---------------------------------------------------------------- texts and sources

@pytest.mark.parametrize("cid", sorted(EXPECTED_BY_ID))
def test_card_has_effect_and_allowed_sources(cards_by_id, cid):
    card = cards_by_id[cid]
    assert isinstance(card.effect, str) and card.effect.strip()
    assert card.clarification is None or (
        isinstance(card.clarification, str) and card.clarification.strip()
    )
    assert isinstance(card.sources, tuple) and len(card.sources) >= 1
    for src in card.sources:
        assert src.doc in ALLOWED_DOCS, (cid, src.doc)
        assert isinstance(src.section, str) and src.section.strip()
        assert src.edition is None or isinstance(src.edition, str)


def test_effects_are_not_copied_from_reference(rs):
    """No card text is one of the reference's, compared by digest (tests/reference keeps the digests of the
    reference's normalized texts, not its sentences)."""
    lines = REFERENCE_TEXTS.read_text(encoding="utf-8").splitlines()
    digests = {ln for ln in lines if ln and not ln.startswith("#")}
    assert len(digests) > 60
    copied = []
    for card in rs.cards:
        for field in ("effect", "clarification"):
            text = getattr(card, field)
            if text and hashlib.sha256(norm(text).encode()).hexdigest() in digests:
                copied.append((card.id, field))
    assert not copied, f"texts copied verbatim from the reference: {copied}"


# ---------------------------------------------------------------- 2011 edition

def test_2011_has_same_ids_and_deck_size(rs, rs2011):
    assert [c.id for c in rs2011.cards] == [c.id for c in rs.cards]
    assert sum(c.copies for c in rs2011.cards) == 66


@pytest.mark.parametrize("cid,name_2011", sorted(RENAMED_2011.items()))
def test_2011_names(cards2011_by_id, cid, name_2011):
    assert cards2011_by_id[cid].name == name_2011


def test_2011_monster_batteries_cost(cards2011_by_id):
    card = cards2011_by_id["battery-monster"]
    assert card.name == "Monster Batteries"
    assert card.cost == 2


def test_2011_unrenamed_cards_keep_2016_names(cards_by_id, cards2011_by_id):
    for cid, card in cards2011_by_id.items():
        if cid not in RENAMED_2011:
            assert card.name == cards_by_id[cid].name, cid


def test_2011_other_costs_and_types_unchanged(cards_by_id, cards2011_by_id):
    for cid, card in cards2011_by_id.items():
        expected_cost = COST_2011.get(cid, EXPECTED_BY_ID[cid][1])
        assert card.cost == expected_cost, cid
        assert card.type == cards_by_id[cid].type, cid
        assert card.copies == cards_by_id[cid].copies, cid
        assert card.effect.strip(), cid
