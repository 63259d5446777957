"""King of Tokyo game logs: one log per violation code, syntax errors, property tests."""

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

BASE = """\
@game king-of-tokyo
@players Ann Bob Cid
first Ann
market corner-store heal tank
Ann roll 1 1 1 s e h
Ann reroll h : s
Ann end
Bob roll s s s e e e
Ann yield
Bob buy corner-store : energize
Bob end
expect Ann hp 7
expect tokyo city Bob
expect Bob vp 2
Cid roll s s h h 3 3
Cid reroll 3 3 : s s
Bob stay
Cid end
expect Bob hp 6
"""


def run(text: str) -> CheckReport:
    return check_text("t.log", text)


def edit(lineno: int, new: str, text: str = BASE) -> str:
    lines = text.splitlines()
    lines[lineno - 1] = new
    return "\n".join(lines) + "\n"


def only_violation(text: str) -> tuple[int, int, str]:
    report = run(text)
    (game,) = report.games
    assert game.errors == [], [str(e) for e in game.errors]
    assert len(game.violations) == 1 and report.exit_code == 1
    v = game.violations[0]
    return v.line, v.col, v.code


def test_base_log() -> None:
    report = run(BASE)
    assert report.exit_code == 0, [str(v) for g in report.games for v in g.violations]
    final = report.games[0].final
    assert final is not None
    assert final["tokyo"] == {"city": "Bob", "bay": None}
    assert [(m["name"], m["hp"], m["vp"], m["energy"]) for m in final["monsters"]] == [
        ("Ann", 7, 2, 1), ("Bob", 6, 2, 0), ("Cid", 10, 0, 0)]
    assert final["game_over"] == {"over": False, "winners": [], "reason": None}


VIOLATIONS = [
    (edit(5, "Ann roll 1 1 1 s e"), 5, 1, "kot-dice-count"),
    (edit(6, "Ann reroll h h : s s"), 6, 1, "kot-reroll-missing"),
    (edit(6, "Ann reroll h : s s"), 6, 1, "kot-reroll-count"),
    (edit(7, "Ann reroll s : s\nAnn reroll s : s\nAnn end"), 8, 1, "kot-too-many-rolls"),
    (edit(5, "Bob roll 1 1 1 s e h"), 5, 1, "kot-wrong-monster"),
    (edit(9, "Cid yield"), 9, 1, "kot-yield-not-allowed"),
    (edit(17, "Ann yield"), 17, 1, "kot-yield-not-allowed"),
    (edit(10, "Bob buy tank : energize"), 10, 9, "kot-no-energy"),
    (edit(10, "Bob buy skyscraper : energize"), 10, 9, "kot-not-in-market"),
    (edit(10, "Bob sweep : a b"), 10, 1, "kot-syntax"),
    (edit(10, "Bob buy corner-store : corner-store"), 10, 1, "kot-card-not-in-deck"),
    (edit(12, "expect Ann hp 10"), 12, 1, "kot-checkpoint"),
    (edit(13, "expect tokyo city Ann"), 13, 1, "kot-checkpoint"),
    (edit(8, "Bob keep"), 8, 1, "kot-unexpected"),
    (BASE + "expect winner Ann\n", 20, 1, "kot-checkpoint"),
    (edit(6, "Ann use energy-drink"), 6, 1, "kot-card-use"),
    (edit(6, "Ann cure poison"), 6, 1, "kot-cure"),
]


@pytest.mark.parametrize("text,line,col,code", [v for v in VIOLATIONS if v[3] != "kot-syntax"],
                         ids=[f"{v[3]}-{i}" for i, v in enumerate(VIOLATIONS) if v[3] != "kot-syntax"])
def test_violation(text: str, line: int, col: int, code: str) -> None:
    assert only_violation(text) == (line, col, code)


def test_sweep_needs_three_cards() -> None:
    text = edit(10, "Bob sweep : energize frenzy").replace("Bob roll s s s e e e", "Bob roll s s s e e e")
    assert only_violation(text)[2] == "kot-reveal-count"


def test_after_end_and_unknown_card() -> None:
    log = simulate_king_of_tokyo(2, 4)
    assert only_violation(log + "Ann roll 1 1 1 1 1 1\n")[2] == "kot-after-end"
    report = run(edit(4, "market corner-store heal no-such-card"))
    assert report.games[0].errors[0].code == "log-card"


def test_known_deck_order_and_phase() -> None:
    log = POSITION.replace("market heal tank energize", "market heal tank energize\ndeck skyscraper frenzy")
    log = log.replace("turn Ann\nAnn roll 1 1 1 e e h\nAnn end", "turn Ann buy\nAnn buy heal : skyscraper\nAnn end")
    log = log.replace("expect Ann vp 23\nexpect winner Ann\n", "expect Ann vp 18\nexpect Ann hp 9\n")
    report = run(log)
    assert report.exit_code == 0, [str(v) for g in report.games for v in g.violations]
    assert only_violation(log.replace(": skyscraper", ": frenzy"))[2] == "kot-deck-order"


def test_turn_markers_mid_game() -> None:
    assert run(BASE.replace("Bob roll s s s e e e", "turn Bob\nBob roll s s s e e e")).exit_code == 0
    assert only_violation(BASE.replace("Bob roll s s s e e e", "turn Cid\nBob roll s s s e e e"))[2] == \
        "kot-checkpoint"


def test_every_code_is_exercised_and_names_a_rule() -> None:
    rs = kbgrules.load("kot")
    exercised = {v[3] for v in VIOLATIONS} | {"kot-reveal-count", "kot-after-end", "kot-unknown-card",
                                                "kot-bad-face", "kot-position", "kot-camouflage", "kot-deck-order"}
    assert {c for c in rs.data["codes"] if c.startswith("kot-")} <= exercised  # edition codes: their own tests
    for code, entry in rs.data["codes"].items():
        assert entry["rule"] in rs.rules, code


def test_syntax_errors() -> None:
    text = BASE + "Ann rol 1\nAnn roll 1 x\nZed end\nAnn buy\nexpect Ann hp x\n"
    report = run(text)
    assert [(e.line, e.code) for e in report.games[0].errors] == [
        (20, "log-syntax"), (21, "log-face"), (22, "log-player"), (23, "log-syntax"), (24, "log-syntax")]


def test_json_final_matches_the_documented_schema() -> None:
    from jsonschema import Draft202012Validator

    schema = json.loads((ROOT / "docs" / "check-output.schema.json").read_text())
    Draft202012Validator(schema).validate(run(BASE).to_json())
    Draft202012Validator(schema).validate(run(simulate_king_of_tokyo(5, 3)).to_json())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.integers(0, 10**6), st.sampled_from([None, "2011"]))
def test_random_games_check_clean(players: int, seed: int, edition: str | None) -> None:
    variants = ("two-player",) if players == 2 and seed % 2 else ()
    report = run(simulate_king_of_tokyo(players, seed, edition, variants))
    assert report.exit_code == 0, [str(v) for g in report.games for v in [*g.violations, *g.errors]]


def _corrupt(text: str, kind: str, rng: random.Random) -> tuple[str, int, set[str]] | None:
    lines = text.splitlines()
    if kind == "fourth-roll":
        extra = ("giant-brain", "energy-drink", "smoke-cloud", "background-dweller")
        idx = [i for i, ln in enumerate(lines) if " roll " in ln
               and not any(f"{ln.split()[0]} buy {c}" in text for c in extra)]
        if not idx:
            return None
        i = rng.choice(idx)
        who = lines[i].split()[0]
        j = i + 1
        while j < len(lines) and lines[j].startswith(f"{who} reroll"):
            j += 1
        rolls = j - i
        need = 4 - rolls
        last = lines[j - 1].split()
        face = last[last.index(":") + 1] if ":" in last else last[2]  # a face showing now
        lines[j:j] = [f"{who} reroll {face} : {face}"] * need
        return "\n".join(lines) + "\n", j + need, {"kot-too-many-rolls", "kot-reroll-missing"}
    if kind == "wrong-actor":
        idx = [i for i, ln in enumerate(lines) if ln.split()[1:2] == ["end"]]
        i = rng.choice(idx)
        names = text.split("@players ")[1].split("\n")[0].split()
        who = lines[i].split()[0]
        lines[i] = f"{next(n for n in names if n != who)} end"
        return "\n".join(lines) + "\n", i + 1, {"kot-wrong-monster"}
    if kind == "buy-unaffordable":
        idx = [i for i, ln in enumerate(lines) if ln.split()[1:2] == ["end"]]
        i = rng.choice(idx)
        who = lines[i].split()[0]
        lines.insert(i, f"{who} buy energize : skyscraper")  # 8 energy; rarely affordable, often not in market
        return "\n".join(lines) + "\n", i + 1, {"kot-no-energy", "kot-not-in-market", "kot-card-not-in-deck",
                                                "kot-unexpected", "kot-wrong-monster"}
    if kind == "yield-own-turn":
        idx = [i for i, ln in enumerate(lines) if " roll " in ln]
        i = rng.choice(idx)
        lines.insert(i + 1, f"{lines[i].split()[0]} yield")  # the rolling monster cannot yield
        return "\n".join(lines) + "\n", i + 2, {"kot-yield-not-allowed", "kot-camouflage"}
    if kind == "no-tokyo-entry":
        i = next(i for i, ln in enumerate(lines) if ln.split()[1:2] == ["end"])
        lines.insert(i + 1, "expect tokyo city -")  # the first monster always enters the City
        return "\n".join(lines) + "\n", i + 2, {"kot-checkpoint"}
    raise AssertionError(kind)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.integers(0, 10**6),
       st.sampled_from(["fourth-roll", "wrong-actor", "buy-unaffordable", "yield-own-turn", "no-tokyo-entry"]))
def test_corrupted_events_fail_at_their_line(players: int, seed: int, kind: str) -> None:
    text = simulate_king_of_tokyo(players, seed)
    got = _corrupt(text, kind, random.Random(seed))
    if got is None:
        return
    bad, line, codes = got
    report = run(bad)
    (game,) = report.games
    if not game.violations and kind == "buy-unaffordable":
        return  # the monster could pay, and the card was there: not a corruption after all
    assert game.violations, bad
    v = game.violations[0]
    assert (v.line, v.code in codes) == (line, True), str(v)


POSITION = """\
@game king-of-tokyo
@players Ann Bob Cid
Ann is hp=7 vp=18 energy=3 place=city cards=gourmet
Bob is hp=2 vp=5 energy=9 cards=extra-head,giant-brain poison=1
Cid is eliminated hp=0
market heal tank energize
turn Ann
Ann roll 1 1 1 e e h
Ann end
expect Ann vp 23
expect winner Ann
"""


def test_camouflage_dice_follow_the_damage() -> None:
    log = """\
@game king-of-tokyo
@players Ann Bob Cid
Ann is place=city cards=camouflage
market heal tank gourmet
turn Bob
Bob roll s s s 1 2 3
Bob end
Ann camouflage h 1 s
expect Ann hp 8
Cid roll s 1 2 3 e e
Cid end
Ann camouflage 2
expect Ann hp 7
"""
    assert run(log).exit_code == 0
    assert only_violation(log.replace("Ann camouflage 2\n", ""))[:3:2] == (11, "kot-camouflage")
    assert only_violation(log.replace("Ann camouflage h 1 s", "Ann camouflage h 1"))[2] == "kot-camouflage"


def test_start_from_a_position() -> None:
    report = run(POSITION)
    assert report.exit_code == 0, [str(v) for g in report.games for v in g.violations]
    final = report.games[0].final
    assert final is not None and final["game_over"]["winners"] == ["Ann"]
    bob = final["monsters"][1]
    assert bob["cards"] == ["extra-head", "giant-brain"] and bob["tokens"]["poison"] == 1


@pytest.mark.parametrize("line,new", [
    (4, "Bob is hp=2 place=city"),                 # two monsters in the City
    (4, "Bob is hp=2 place=bay"),                  # the Bay needs 5 monsters
    (4, "Bob is hp=13"),                           # over the hard cap
    (4, "Bob is cards=gourmet"),                   # a second Gourmet: the deck has one
    (4, "Bob is cards=heal"),                      # a discard card cannot be held
    (5, "Cid is eliminated place=city hp=0"),      # eliminated in Tokyo
    (7, "turn Cid"),                               # an eliminated monster has no turn
])
def test_impossible_positions(line: int, new: str) -> None:
    report = run(edit(line, new, POSITION))
    (game,) = report.games
    assert game.violations and game.violations[0].code == "kot-position", [str(v) for v in game.violations]


def test_more_checkpoints() -> None:
    report = run(BASE + "expect Cid alive\nexpect Bob cards\nexpect Ann poison 0\n")
    assert report.exit_code == 0, [str(v) for g in report.games for v in g.violations]
    for bad in ("expect Cid eliminated", "expect Bob cards heal", "expect Ann shrink 1"):
        assert only_violation(BASE + bad + "\n")[2] == "kot-checkpoint"


def test_position_errors_point_at_their_line() -> None:
    assert only_violation(edit(6, "market heal tank", POSITION))[:3:2] == (6, "kot-reveal-count")
    deck = POSITION.replace("market heal tank energize", "market heal tank energize\ndeck frenzy frenzy")
    assert only_violation(deck)[:3:2] == (7, "kot-position")
    assert only_violation(edit(7, "turn Cid", POSITION))[:3:2] == (7, "kot-position")


def test_a_position_states_the_discard_pile() -> None:
    log = POSITION.replace("Ann roll 1 1 1 e e h\nAnn end\nexpect Ann vp 23\nexpect winner Ann\n",
                           "Ann roll 1 1 1 e e h\nAnn buy heal : frenzy\nAnn end\n")
    assert run(log).exit_code == 0
    discarded = log.replace("market heal tank energize", "market heal tank energize\ndiscard frenzy")
    line, _, code = only_violation(discarded)
    assert (line, code) == (10, "kot-card-not-in-deck")  # Frenzy lies in the discard pile, not the deck
    too_many = log.replace("market heal tank energize", "market heal tank energize\ndiscard tank")
    line, _, code = only_violation(too_many)
    assert (line, code) == (7, "kot-position")  # the only Tank is in the market


def _final(text: str) -> dict:
    report = run(text)
    (game,) = report.games
    assert not game.errors and not game.violations, [str(x) for x in (*game.errors, *game.violations)]
    assert game.final is not None
    return game.final


def test_report_tells_the_deck_discard_life_and_who_acts_next() -> None:
    log = POSITION.replace("market heal tank energize", "market heal tank energize\ndeck skyscraper frenzy")
    log = log.replace("Ann is hp=7 vp=18 energy=3 place=city cards=gourmet",
                      "Ann is hp=7 vp=1 energy=3 place=city cards=gourmet,even-bigger")
    log = log.replace("Ann roll 1 1 1 e e h\nAnn end\nexpect Ann vp 23\nexpect winner Ann\n",
                      "Ann roll 1 2 3 e e h\nAnn buy heal : skyscraper\nAnn end\n")
    f = _final(log)
    ann, bob = f["monsters"][0], f["monsters"][1]
    assert (ann["max_hp"], bob["max_hp"]) == (12, 10)  # Even Bigger
    assert f["deck"] == ["frenzy"] and f["discard"] == {"heal": 1}  # Skyscraper came up, then Heal was used
    assert f["deck_size"] == 66 - 8  # the market, four cards in play, Skyscraper
    assert f["next"] == {"monster": "Bob", "phase": "roll", "expects": "Bob's roll", "dice": 7}  # Extra Head
    assert f["pending"] == []


def test_report_names_the_open_yield_decisions_and_the_next_dice() -> None:
    f = _final(BASE.split("Ann yield")[0] + "Bob keep\n")  # Bob smashed Ann in Tokyo: she has not decided yet
    assert f["pending"] == [{"monster": "Ann", "decision": "yield"}]
    assert f["next"]["phase"] == "decide" and f["next"]["dice"] is None
    freeze = ("@game king-of-tokyo\n@players A B C D\nA is place=city cards=freeze-time\n"
              "market commuter-train vast-storm skyscraper\nturn A\nA roll 1 1 1 2 2 3\nA use freeze-time\nA end\n"
              "A roll 1 1 1 2 3\nA use freeze-time\nA end\n")
    assert _final(freeze)["next"] == {"monster": "A", "phase": "roll", "expects": "A's roll", "dice": 4}


def test_report_turns_list_the_state_after_every_turn() -> None:
    from kbgrules.core.check import check_text as check

    game = check("t.log", BASE).games[0]
    turns = game.to_json(turns=True)["turns"]
    assert [t["monster"] for t in turns] == ["Ann", "Bob", "Cid"]
    assert turns[1]["monsters"][1]["location"] == "city" and turns[0]["monsters"][0]["hp"] == 10
    assert "turns" not in game.to_json()


CHECKPOINTS = """\
@game king-of-tokyo
@players Ann Bob Cid
first Ann
market corner-store heal tank
expect market heal tank corner-store
expect deck 63
expect discard none
expect dice 6
expect Ann max-life 10
Ann roll 1 1 1 s e h
Ann reroll h : s
Ann end
Bob roll s s s e e e
Bob keep
expect pending Ann
Ann yield
expect pending none
Bob buy corner-store : energize
expect discard corner-store
expect deck 62
Bob end
expect dice 6
"""


def test_game_checkpoints_hold_on_a_true_log() -> None:
    report = run(CHECKPOINTS)
    assert report.exit_code == 0, [str(x) for g in report.games for x in (*g.errors, *g.violations)]


@pytest.mark.parametrize(("line", "new", "said"), [
    (5, "expect market heal tank energize", "the market: stated heal, tank, energize"),
    (6, "expect deck 62", "the cards left in the deck"),
    (7, "expect discard heal", "the discard pile"),
    (8, "expect dice 5", "the dice of the coming roll"),
    (9, "expect Ann max-life 12", "Ann's max-life"),
    (15, "expect pending none", "who must still decide"),
    (17, "expect pending Ann", "who must still decide"),
    (19, "expect discard none", "the discard pile"),
    (20, "expect deck 63", "the cards left in the deck"),
    (22, "expect dice 7", "the dice of the coming roll"),
])
def test_each_game_checkpoint_fails_when_it_is_wrong(line: int, new: str, said: str) -> None:
    report = run(edit(line, new, CHECKPOINTS))
    (game,) = report.games
    assert not game.errors and [(v.line, v.code) for v in game.violations] == [(line, "kot-checkpoint")]
    assert said.split(":")[0] in game.violations[0].message, game.violations[0].message


def test_dice_checkpoint_needs_a_coming_roll_and_checkpoints_are_read_strictly() -> None:
    line, _, code = only_violation(edit(13, "Bob roll s s s e e e\nexpect dice 6", CHECKPOINTS))
    assert (line, code) == (14, "kot-checkpoint")
    for bad, col in (("expect deck x", 13), ("expect discard frenzzy", 16), ("expect pending Zed", 16)):
        (game,) = run(edit(7, bad, CHECKPOINTS)).games
        assert [(e.line, e.col) for e in game.errors] == [(7, col)], [str(e) for e in game.errors]


PHASE_HEAD = "@game king-of-tokyo\n@players Ann Bob Cid\n{ann}\nmarket heal tank energize\n"


@pytest.mark.parametrize(("ann", "lines"), [
    # start (or the old word roll): the start-of-turn effects apply, 2 VP in Tokyo
    ("Ann is vp=5 place=city", "turn Ann start\nexpect Ann vp 7\nexpect dice 6"),
    ("Ann is vp=5 place=city", "turn Ann roll\nexpect Ann vp 7"),
    # rolled: the first roll is on the table, the start of the turn is over; re-rolls follow
    ("Ann is vp=5 place=city", "turn Ann rolled 1 1 1 s e h\nexpect Ann vp 5\nAnn reroll h : s\nAnn end\n"
                               "expect Ann vp 6\nexpect Bob hp 8"),
    # resolve: the final dice, resolved at once: Bob and Cid are hit, and may not yield (they are outside)
    ("Ann is vp=5 place=city", "turn Ann resolve 1 1 1 s s e\nexpect Bob hp 8\nexpect Ann energy 1\n"
                               "expect pending none\nAnn end"),
    # resolve with Bob in Tokyo: Bob must still decide
    ("Ann is vp=5\nBob is place=city", "turn Ann resolve 2 2 2 s e e\nexpect pending Bob\nBob yield\n"
                                       "expect tokyo city Ann"),
    # enter: dice resolved and decisions made; Ann enters the empty Tokyo (+1 VP)
    ("Ann is vp=5", "turn Ann enter\nexpect tokyo city Ann\nexpect Ann vp 6\nAnn end"),
    # buy, end: Poison applies at the end of the turn
    ("Ann is vp=5 energy=9", "turn Ann buy\nAnn buy tank : frenzy\nAnn end\nexpect Ann hp 7"),
    ("Ann is vp=5 poison=1", "turn Ann end\nAnn end\nexpect Ann hp 9\nexpect dice 6"),
])
def test_a_position_starts_at_any_moment_of_a_turn(ann: str, lines: str) -> None:
    report = run(PHASE_HEAD.format(ann=ann) + lines + "\n")
    assert report.exit_code == 0, [str(x) for g in report.games for x in (*g.errors, *g.violations)]


@pytest.mark.parametrize(("ann", "lines", "line", "code"), [
    ("Ann is place=city", "turn Ann rolled 1 1 1 s e\n", 5, "kot-dice-count"),  # 6 dice
    ("Ann is place=city", "turn Ann resolve 1 1 1 s e h\nAnn reroll h : s\n", 6, "kot-unexpected"),  # no re-roll
    ("Ann is place=city", "turn Ann buy\nAnn keep\n", 6, "kot-unexpected"),
    ("Ann is energy=9", "turn Ann end\nAnn buy tank : frenzy\n", 6, "kot-unexpected"),  # only the end
    ("Ann is vp=5", "turn Ann enter\nexpect tokyo city -\n", 6, "kot-checkpoint"),
    ("Ann is place=city\nBob is cards=camouflage", "turn Ann resolve 1 1 1 s s e\nAnn end\n", 6, "kot-position"),
])
def test_a_position_at_a_moment_allows_only_what_follows_it(ann: str, lines: str, line: int, code: str) -> None:
    assert only_violation(PHASE_HEAD.format(ann=ann) + lines)[::2] == (line, code)


def test_position_moments_are_read_strictly() -> None:
    for turn in ("turn Ann rolled", "turn Ann later", "turn Ann buy now", "turn Ann rolled 1 1 x 2 2 2"):
        (game,) = run(PHASE_HEAD.format(ann="Ann is vp=1") + turn + "\n").games
        assert game.errors and game.errors[0].line == 5, turn
    mid_game = BASE.replace("Cid roll s s h h 3 3", "turn Cid rolled s s h h 3 3\nCid roll s s h h 3 3")
    (game,) = run(mid_game).games
    assert game.errors and "belongs before the first turn event" in game.errors[0].message
