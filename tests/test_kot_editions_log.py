"""King of Tokyo editions in logs: Dark Edition tiles, evolutions, the Godzilla edition (issue #6).

Random legal games of every edition and option must check clean; a corrupted wickedness, tile,
evolution, event or dice-token line must fail at its line with its code.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kbgrules
from kbgrules.core.check import check_text
from kbgrules.core.report import CheckReport
from kbgrules.king_of_tokyo.simulate import simulate_king_of_tokyo

from .conftest import ROOT

GODZILLA = str(ROOT / "examples" / "king-of-tokyo" / "godzilla-rules")


def run(text: str, rules: tuple[str, ...] = ()) -> CheckReport:
    return check_text("t.log", text, rules)


def problems(report: CheckReport) -> list[tuple[int, int, str]]:
    return [(d.line, d.col, d.code) for g in report.games for d in [*g.errors, *g.violations]]


def only(text: str, rules: tuple[str, ...] = ()) -> tuple[int, int, str]:
    found = problems(run(text, rules)) + [(d.line, d.col, d.code) for d in run(text, rules).input_errors]
    assert len(found) == 1, found
    return found[0]


DARK = """\
@game king-of-tokyo
@edition dark
@players Ann Bob
@tiles red
market acid-attack nanobots tank
Ann roll 1 1 1 2 2 2
Ann keep
Ann take devious
expect Ann wickedness 3
expect Ann vp 4
Ann end
Bob roll 1 1 1 1 1 1
Bob take tireless
Bob end
expect Bob wickedness 4
expect Bob tiles tireless
Ann roll 1 1 1 e e e
Ann reroll e : 1
Ann reroll e e : 1 1
Ann reroll 1 : 1
Ann keep
Ann take cyberbrain
expect Ann wickedness 7
Ann end
expect Ann tiles cyberbrain devious
"""


def test_dark_edition_game_checks_clean() -> None:
    report = run(DARK)
    assert report.exit_code == 0, problems(report)
    final = report.games[0].final
    assert final is not None
    ann = final["monsters"][0]
    assert ann["wickedness"] == 7 and sorted(ann["tiles"]) == ["cyberbrain", "devious"]


@pytest.mark.parametrize("change,where,code", [
    (("Ann take devious", "Ann take cyberbrain"), 8, "dark-tile-level"),  # level 6 at wickedness 3
    (("Ann take devious", "Ann take barbs"), 8, "dark-tile-level"),  # green side, red game
    (("Bob take tireless", "Bob take devious"), 13, "dark-tile-level"),  # already taken by Ann
    (("Ann take devious\n", ""), 10, "dark-tile-not-taken"),  # the end of the turn owes a tile
    (("expect Ann wickedness 3", "expect Ann wickedness 4"), 9, "kot-checkpoint"),
    (("Ann keep\nAnn take cyberbrain", "Ann reroll 1 : 1\nAnn keep\nAnn take cyberbrain"), 21,
     "kot-too-many-rolls"),  # Devious gives a 4th roll, not a 5th
])
def test_dark_edition_corruptions(change: tuple[str, str], where: int, code: str) -> None:
    line, _, got = only(DARK.replace(*change, 1))
    assert (line, got) == (where, code)


def test_tile_sides_header() -> None:
    green = DARK.replace("@tiles red", "@tiles green").replace("take devious", "take barbs")
    green = green.replace("take tireless", "take underdog").replace("take cyberbrain", "take defender-of-tokyo")
    green = green.replace("expect Ann tiles cyberbrain devious", "expect Ann tiles barbs defender-of-tokyo")
    green = green.replace("Ann reroll 1 : 1\n", "")  # no Devious: three rolls
    report = run(green.replace("expect Bob tiles tireless", "expect Bob tiles underdog"))
    assert report.exit_code == 0, problems(report)
    mixed = DARK.replace("@tiles red", "@tiles mixed").replace("market acid-attack nanobots tank",
                                                               "market acid-attack nanobots tank\ntiles barbs")
    assert only(mixed)[2] == "dark-tile-level"  # Devious lies green side up (Barbs)
    assert only(DARK.replace("@tiles red", "@tiles purple"))[2] == "log-header"
    assert only(DARK.replace("@edition dark\n", ""))[2] == "log-header"  # @tiles without the Dark Edition


POWER_UP = """\
@game king-of-tokyo
@variant power-up
@players Ann Bob
@monsters the-king gigazaur
market acid-attack heal tank
Ann roll h h h 1 2 3
Ann keep
Ann evolve giant-banana
Ann end
Bob roll s s s h h h
Bob evolve ?
Bob end
Ann play giant-banana
expect Ann hp 9
Ann roll s h h h e e
Ann evolve monkey-rush
Ann end
Bob play primal-bellow
expect Ann vp 1
"""


def test_power_up_game_checks_clean() -> None:
    report = run(POWER_UP)
    assert report.exit_code == 0, problems(report)
    final = report.games[0].final
    assert final is not None
    assert final["monsters"][0]["hand"] == ["monkey-rush"] and final["monsters"][1]["hand"] == []
    assert final["monsters"][0]["monster"] == "the-king"


@pytest.mark.parametrize("change,where,code", [
    (("Ann evolve giant-banana", "Ann evolve primal-bellow"), 8, "evo-not-in-deck"),  # Gigazaur's card
    (("Ann roll h h h 1 2 3", "Ann roll h h 1 1 2 3"), 8, "evo-not-owed"),
    (("Ann evolve giant-banana\n", ""), 8, "evo-not-drawn"),
    (("Ann play giant-banana", "Ann play alpha-male"), 13, "evo-not-in-hand"),
    (("Ann evolve monkey-rush", "Ann evolve giant-banana"), 16, "evo-not-in-deck"),  # drawn already
])
def test_power_up_corruptions(change: tuple[str, str], where: int, code: str) -> None:
    line, _, got = only(POWER_UP.replace(*change, 1))
    assert (line, got) == (where, code)


def test_evolution_headers() -> None:
    assert only(POWER_UP.replace("@monsters the-king gigazaur\n", ""))[2] == "log-header"
    assert only(POWER_UP.replace("@monsters the-king gigazaur", "@monsters the-king kong"))[:2] == (4, 20)
    first = problems(run(POWER_UP.replace("@variant power-up\n", "")))[0]
    assert first == (7, 12, "log-card")  # evolutions are not in play


def test_controlled_evolution_puts_the_other_card_under_the_deck() -> None:
    text = POWER_UP.replace("@variant power-up", "@variant controlled-evolution")
    text = text.replace("Ann evolve giant-banana", "Ann evolve giant-banana alpha-male keep giant-banana")
    text = text.replace("Bob evolve ?", "Bob evolve ? ?")
    text = text.replace("Ann evolve monkey-rush", "Ann evolve monkey-rush chest-thumping keep chest-thumping")
    report = run(text)
    assert report.exit_code == 0, problems(report)
    # Alpha Male went under the deck: it cannot come back before the other five cards
    bad = text.replace("monkey-rush chest-thumping keep chest-thumping", "alpha-male chest-thumping keep alpha-male")
    assert only(bad)[2] == "evo-not-in-deck"
    assert only(text.replace("keep giant-banana", ""))[2] == "log-syntax"


GODZILLA_LOG = """\
@game king-of-tokyo
@edition godzilla
@variant evolutions
@players Ann Bob
@monsters godzilla mothra
market test-dice-cache test-thick-hide test-dice-cache
Ann evolve test-atomic-roar test-regrowth keep test-regrowth
Bob evolve ? ?
Ann roll 1 1 1 e e e
Ann buy test-dice-cache : test-tremor
expect Ann energy 0
expect Ann dicetokens 2
Ann end
Bob roll h h h 1 2 3 s
Bob evolve test-silk-spray test-silk-spray keep test-silk-spray
Bob end
expect Bob energy 1
Ann tokens 1
Ann roll 1 1 1 1 1 1 1 1
Ann end
expect Ann dicetokens 1
Bob roll 1 2 3 1 2 3 e
Bob sweep : test-dice-cache test-dice-cache
expect Bob energy 0
"""


def test_godzilla_game_checks_clean_with_user_cards() -> None:
    report = run(GODZILLA_LOG, (GODZILLA,))
    assert report.exit_code == 0, problems(report) + [str(e) for e in report.input_errors]


@pytest.mark.parametrize("change,where,code", [
    (("Ann tokens 1", "Ann tokens 2"), 18, "gz-dice-tokens"),  # 6 + 1 (Tremor) + 2 > 8 dice
    (("Ann tokens 1", "Ann tokens 3"), 18, "gz-dice-tokens"),
    (("Ann roll 1 1 1 1 1 1 1 1", "Ann roll 1 1 1 1 1 1 1"), 19, "kot-dice-count"),
    (("expect Bob energy 1", "expect Bob energy 0"), 17, "kot-checkpoint"),  # no purchase: +1 energy
    (("Bob sweep : test-dice-cache test-dice-cache", "Bob sweep : test-dice-cache test-dice-cache test-dice-cache"),
     23, "kot-reveal-count"),  # the event stays: only two cards are replaced
])
def test_godzilla_corruptions(change: tuple[str, str], where: int, code: str) -> None:
    line, _, got = only(GODZILLA_LOG.replace(*change, 1), (GODZILLA,))
    assert (line, got) == (where, code)


def test_godzilla_without_cards_says_which_data_is_missing() -> None:
    report = run(GODZILLA_LOG)
    errors = [d for g in report.games for d in g.errors] + list(report.input_errors)
    assert errors and errors[0].code == "log-card" and errors[0].line == 6
    assert "ships no card list" in errors[0].message and "--rules" in errors[0].message


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.integers(0, 10**6),
       st.sampled_from([("dark", ()), (None, ("power-up",)), (None, ("controlled-evolution",)),
                        (None, ("active-evolution",)), (None, ("evolution-draft",)), ("dark", ("power-up",)),
                        ("2011", ("power-up",)), ("godzilla", ("power-up",)), ("godzilla", ())]))
def test_random_edition_games_check_clean(players: int, seed: int, setup: tuple[str | None, tuple[str, ...]]) -> None:
    edition, variants = setup
    rules = (GODZILLA,) if edition == "godzilla" else ()
    if edition == "godzilla" and variants:
        players = 2  # the example rules have evolutions for two monsters
    log = simulate_king_of_tokyo(players, seed, edition, variants, rules_dirs=rules)
    report = run(log, rules)
    assert report.exit_code == 0, problems(report)


def _corrupt(log: str, rng: random.Random) -> tuple[str, int, set[str]] | None:
    lines = log.splitlines()
    level10 = {t.id for t in kbgrules.load("kot", edition="dark").tiles if t.level == 10}
    # taking a level-10 tile instead of another level-10 tile can be legal: corrupt lower levels only
    takes = [i for i, ln in enumerate(lines) if " take " in ln and ln.split(" take ")[1].split()[0] not in level10]
    evolves = [i for i, ln in enumerate(lines) if " evolve " in ln and "?" not in ln]
    choice = rng.choice(["take", "evolve", "wickedness"])
    if choice == "take" and takes:
        i = rng.choice(takes)
        lines[i] = lines[i].split(" take ")[0] + " take final-push"  # level 10 (or a side not in play)
        return "\n".join(lines) + "\n", i + 1, {"dark-tile-level"}
    if choice == "evolve" and evolves:
        i = rng.choice(evolves)
        who = lines[i].split()[0]
        lines.insert(i + 1, f"{who} evolve giant-banana")  # a second draw in the same turn
        return "\n".join(lines) + "\n", i + 2, {"evo-not-owed", "evo-not-in-deck"}
    wick = [i for i, ln in enumerate(lines) if ln.startswith("expect") and " wickedness " in ln]
    if wick:
        i = rng.choice(wick)
        head, n = lines[i].rsplit(" ", 1)
        lines[i] = f"{head} {int(n) + 1}"
        return "\n".join(lines) + "\n", i + 1, {"kot-checkpoint"}
    return None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 5), st.integers(0, 10**6))
def test_a_corrupted_edition_event_fails_at_its_line(players: int, seed: int) -> None:
    rng = random.Random(seed)
    log = simulate_king_of_tokyo(players, seed, "dark", ("power-up",))
    bad = _corrupt(log, rng)
    if bad is None:
        return
    text, line, codes = bad
    report = run(text)
    found = problems(report)
    assert found and found[0][0] == line and found[0][2] in codes, (found, line, codes)


def test_json_output_of_editions_matches_the_schema() -> None:
    from jsonschema import Draft202012Validator

    schema = json.loads((ROOT / "docs" / "check-output.schema.json").read_text())
    for text, rules in ((DARK, ()), (POWER_UP, ()), (GODZILLA_LOG, (GODZILLA,))):
        Draft202012Validator(schema).validate(run(text, rules).to_json())


def test_every_edition_code_is_exercised_and_names_a_rule() -> None:
    import pathlib
    import re

    import kbgrules

    here = pathlib.Path(__file__).parent
    tested = " ".join(p.read_text() for p in (here / "test_kot_editions_log.py", here / "test_kot_dark.py",
                                                here / "test_kot_evolutions.py"))
    for edition, variants in (("dark", ()), (None, ("power-up",)), ("godzilla", ())):
        rs = kbgrules.load("kot", edition=edition, variants=variants)
        for code, entry in rs.data["codes"].items():
            if re.match(r"(dark|evo|gz)-", code):
                assert f'"{code}"' in tested, code
                assert entry["rule"] in rs.rules, code


def test_library_take_of_an_unknown_tile() -> None:
    import kbgrules
    from kbgrules.errors import IllegalMoveError
    from kbgrules.king_of_tokyo.state import KingOfTokyoState, Take

    rs = kbgrules.load("kot", edition="dark", players=2)
    st = KingOfTokyoState(rs, ["Ann", "Bob"], ["tank", "energize", "frenzy"])
    with pytest.raises(IllegalMoveError) as info:
        st.apply(Take(0, "no-such-tile"))
    assert info.value.code == "dark-tile-unknown" and info.value.rule == "kot.dark.tiles"


@pytest.mark.parametrize("position,problem", [
    ("Ann is wickedness=7 tiles=devious,eternal", "one per level"),
    ("Ann is wickedness=3 tiles=barbs", "not in play"),
    ("Ann is dicetokens=2", "Godzilla"),
])
def test_impossible_positions(position: str, problem: str) -> None:
    text = ("@game king-of-tokyo\n" + ("@edition dark\n" if "tiles" in position else "")
            + f"@players Ann Bob\n{position}\nmarket tank frenzy energize\nturn Ann\nAnn roll 1 2 3 e e h\n")
    report = run(text)
    (v,) = report.games[0].violations
    assert v.code == "kot-position" and v.line == 3 + ("tiles" in position) and problem in v.message


def test_a_stated_market_does_not_replay_event_reveals() -> None:
    text = ("@game king-of-tokyo\n@edition godzilla\n@players Ann Bob\nAnn is energy=3\n"
            "market test-tremor test-thick-hide test-dice-cache\nturn Ann\nexpect Ann energy 3\n")
    assert run(text, (GODZILLA,)).exit_code == 0
    assert only(text.replace("Ann is energy=3\n", ""), (GODZILLA,))[2] == "kot-checkpoint"  # a setup reveal acts


def test_draft_needs_every_deck() -> None:
    text = ("@game king-of-tokyo\n@variant evolution-draft\n@players Ann Bob\nmarket tank heal energize\n"
            "Ann evolutions giant-banana\nAnn roll 1 2 3 e e h\n")
    line, _, code = only(text)
    assert code == "kot-position" and line == 6


def test_king_of_tokyo_tags_in_a_kingdomino_log() -> None:
    text = "@game kingdomino\n@players A B\n@tiles red\n"
    assert only(text) == (3, 1, "log-header")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_a_corrupted_godzilla_event_fails_at_its_line(seed: int) -> None:
    log = simulate_king_of_tokyo(2, seed, "godzilla", ("power-up",), rules_dirs=(GODZILLA,))
    lines = log.splitlines()
    rng = random.Random(seed)
    tokens = [i for i, ln in enumerate(lines) if " tokens " in ln]
    sweeps = [i for i, ln in enumerate(lines) if " sweep :" in ln]
    if tokens and (not sweeps or rng.random() < 0.5):
        i = rng.choice(tokens)
        lines[i] = lines[i].split(" tokens ")[0] + " tokens 3"  # more than 2 in a turn
        line, codes = i + 1, {"gz-dice-tokens"}
    elif sweeps:
        i = rng.choice(sweeps)
        lines[i] += " test-tremor"  # one card too many: the events stay, only the others are replaced
        line, codes = i + 1, {"kot-reveal-count", "kot-card-not-in-deck"}
    else:
        return
    found = problems(run("\n".join(lines) + "\n", (GODZILLA,)))
    assert found and found[0][0] == line and found[0][2] in codes, (found, line, codes)
