"""Kingdomino game logs: golden examples, one log per violation code, syntax errors, property tests."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kbgrules
from kbgrules.core.check import check_text
from kbgrules.core.report import CheckReport
from kbgrules.kingdomino.simulate import simulate_kingdomino

from .conftest import ROOT

EXAMPLES = sorted((ROOT / "examples" / "kingdomino").glob("*.log"))

BASE = """\
@game kingdomino
@players Ann Bob
deal 40 3 22 17
kings Ann Bob Bob Ann
Ann claim 22
Bob claim 3
Bob claim 40
Ann claim 17
deal 1 10 20 33
Bob place 3 e6 e7
Bob claim 1
Ann place 17 f5 g5
Ann claim 20
Ann place 22 d5 c5
Ann claim 33
Bob place 40 d5 c5
Bob claim 10
"""

POSITION = """\
@game kingdomino
@players Ann Bob
@start position
Ann kingdom
    C  W  W  W  W
Bob kingdom
    C  F  F
out 1 2 3 4 5 6 7 8
line 5:Ann 6:Bob 7:Bob 8:Ann
deal 9 10 11 12
Ann place 5 d5 c5
"""


def run(text: str) -> CheckReport:
    return check_text("t.log", text)


def edit(lineno: int, new: str, text: str = BASE) -> str:
    lines = text.splitlines()
    lines[lineno - 1] = new
    return "\n".join(lines) + "\n"


def append(*extra: str, text: str = BASE) -> str:
    return text + "".join(e + "\n" for e in extra)


def only_violation(text: str) -> tuple[int, int, str, str]:
    report = run(text)
    (game,) = report.games
    assert game.errors == [], game.errors
    assert len(game.violations) == 1 and report.exit_code == 1
    v = game.violations[0]
    assert str(v) == f"t.log:{v.line}:{v.col}: error {v.code}: {v.message} [{v.rule}]"
    return v.line, v.col, v.code, v.rule


def test_base_log_is_legal() -> None:
    report = run(BASE)
    assert report.exit_code == 0 and report.games[0].valid
    final = report.games[0].final
    assert final is not None and final["finished"] is False
    bob = next(p for p in final["players"] if p["name"] == "Bob")
    assert bob["kingdom"] == [". . F", ". . F", "W M1 C"]
    assert bob["score"] == 1  # the mine square with its crown


VIOLATIONS = [
    # (edited log, line, col, code)
    (edit(3, "deal 40 3 22"), 3, 1, "kd-deal-size"),
    (edit(3, "deal 40 3 22 49"), 3, 14, "kd-deal-unknown"),
    (edit(9, "deal 1 10 20 3"), 9, 14, "kd-deal-repeat"),
    (edit(9, "deal 1 10 10 33"), 9, 11, "kd-deal-repeat"),
    (edit(10, "Bob claim 1"), 10, 1, "kd-unexpected"),
    (edit(5, "Bob claim 22"), 5, 1, "kd-wrong-player"),
    (edit(10, "Ann place 3 e6 e7"), 10, 1, "kd-wrong-player"),
    (edit(4, "kings Ann Bob Bob Bob"), 4, 1, "kd-kings-order"),
    (edit(5, "Ann claim 1"), 5, 11, "kd-claim-not-in-line"),
    (edit(6, "Bob claim 22"), 6, 11, "kd-claim-taken"),
    (edit(13, "Ann claim 1"), 13, 11, "kd-claim-taken"),
    (edit(10, "Bob place 40 e6 e7"), 10, 11, "kd-wrong-domino"),
    (edit(10, "Bob place 3 e6 e8"), 10, 16, "kd-cells-apart"),
    (edit(10, "Bob place 3 e5 e6"), 10, 13, "kd-overlap"),
    (edit(16, "Bob place 40 e6 d6"), 16, 14, "kd-overlap"),
    (edit(10, "Bob place 3 e7 e8"), 10, 13, "kd-no-connection"),
    (POSITION, 11, 13, "kd-too-big"),
    (edit(10, "Bob discard 3"), 10, 5, "kd-voluntary-discard"),
    (append("expect score Ann 99"), 18, 1, "kd-checkpoint"),
    (append("expect winner Ann"), 18, 1, "kd-checkpoint"),
    (append("expect kingdom Bob", "    F", "    F", "    C"), 18, 1, "kd-checkpoint"),
    (edit(8, "out 1 1 2 3 4 5 6 7", text=POSITION), 8, 1, "kd-position"),
    (edit(9, "line 5:Ann 6:Ann 7:Bob 8:Bob 9:Ann", text=POSITION), 9, 1, "kd-position"),
]


@pytest.mark.parametrize("text,line,col,code", VIOLATIONS, ids=[f"{v[3]}-{i}" for i, v in enumerate(VIOLATIONS)])
def test_violation(text: str, line: int, col: int, code: str) -> None:
    got = only_violation(text)
    assert got[:3] == (line, col, code)
    assert got[3] in kbgrules.load("kd").rules or got[3].startswith("kd.")


def test_after_end() -> None:
    text = (ROOT / "examples" / "kingdomino" / "two-players.log").read_text() + "deal 1 2 3 4\n"
    n = text.count("\n")
    assert only_violation(text)[:3] == (n, 1, "kd-after-end")


def test_every_code_is_exercised_and_names_a_rule() -> None:
    codes = set(kbgrules.load("kd").data["codes"])
    seen = {v[3] for v in VIOLATIONS} | {"kd-after-end"}
    assert seen == codes
    every_rule = {rid for rs in (kbgrules.load("kd"), kbgrules.load("kd", edition="second")) for rid in rs.rules}
    for code, entry in kbgrules.load("kd").data["codes"].items():
        assert entry["rule"] in every_rule, code


def test_voluntary_discard_option() -> None:
    text = edit(10, "Bob discard 3").replace("@players", "@variant voluntary-discard\n@players")
    assert run(text).exit_code == 0


def test_snake_draft_option() -> None:
    snake = BASE.replace("@players", "@variant snake-draft\n@players")
    assert run(snake).exit_code == 0  # BASE draws Ann, Bob, Bob, Ann: a snake
    zigzag = snake.replace("kings Ann Bob Bob Ann", "kings Ann Bob Ann Bob")
    assert only_violation(zigzag)[:3] == (5, 1, "kd-kings-order")
    free = snake.replace("kings Ann Bob Bob Ann\n", "")
    assert run(free).exit_code == 0
    assert only_violation(free.replace("Bob claim 40\nAnn claim 17", "Ann claim 17\nBob claim 40"))[2] == \
        "kd-wrong-player"


def test_forced_discard_is_legal() -> None:
    # Ann's castle is walled in by wheat: forest (4) and swamp (12) fit nowhere, so both must be discarded
    text = """\
@game kingdomino
@players Ann Bob
@start position
Ann kingdom
    .  W  .
    W  C  W
    .  W  .
Bob kingdom
    C
out 1 2 12 4
line 12:Ann 1:Bob 2:Bob 4:Ann
deal 5 6 7 8
Bob place 1 e6 e7
Bob claim 5
Bob place 2 f5 g5
Bob claim 6
Ann discard 4
Ann claim 7
Ann discard 12
Ann claim 8
"""
    report = run(text)
    assert report.exit_code == 0, [str(v) for v in report.games[0].violations]
    assert report.games[0].final["players"][0]["discards"] == 2  # type: ignore[index]
    placed = text.replace("Ann discard 4", "Ann place 4 d4 d3")
    assert only_violation(placed)[2] == "kd-no-connection"


def test_second_edition_three_players_discards_leftover() -> None:
    text = """\
@game kingdomino
@edition second
@players Ann Bob Cid
deal 1 2 3 4
kings Cid Ann Bob
Cid claim 4
Ann claim 1
Bob claim 2
deal 5 6 7 8
Ann place 1 e6 e7
Ann claim 3
"""
    report = run(text)
    (v,) = report.games[0].violations
    assert (v.line, v.code) == (11, "kd-claim-not-in-line")  # 3 was the unclaimed leftover: gone
    assert run(text.replace("Ann claim 3", "Ann claim 8")).exit_code == 0


def test_syntax_errors_are_all_reported() -> None:
    text = BASE + "Ann clam 5\nAnn place 20 z0 e4\nfoo 3\nAnn claim x\nZed claim 3\n  indented\n"
    report = run(text)
    (game,) = report.games
    assert [(e.line, e.col, e.code) for e in game.errors] == [
        (18, 5, "log-syntax"), (19, 14, "log-cell"), (20, 1, "log-syntax"), (21, 11, "log-syntax"),
        (22, 1, "log-player"), (23, 1, "log-syntax")]
    assert report.exit_code == 2
    assert any(n.code == "stopped" and n.line == 18 for n in game.notes)


def test_a_cell_beyond_the_board_breaks_the_size_rule_not_the_syntax() -> None:
    text = "@game kingdomino\n@players Ann Bob\ndeal 4 22 28 46\nkings Ann Bob Bob Ann\n" \
           "Ann claim 46\nBob claim 4\nBob claim 28\nAnn claim 22\ndeal 2 9 13 30\nBob place 4 j5 k5\n"
    (game,) = run(text).games
    assert not game.errors
    (v,) = game.violations
    assert (v.line, v.code, v.rule) == (10, "kd-too-big", "kd.place.size")


@pytest.mark.parametrize("header,code", [
    ("@game chess", "unknown-game"),
    ("@game kingdomino\n@edition third", "unknown-edition"),
    ("@game kingdomino\n@variant duel", "player-count"),
    ("@game kingdomino\n@variant mighty-dual", "unknown-variant"),
    ("@gaem kingdomino", "log-header"),
    ("@game kingdomino\n@game kingdomino", "log-header"),
    ("@game kingdomino\n@kbg 2", "log-header"),
    ("@game kingdomino\n@start middle", "log-header"),
])
def test_header_errors(header: str, code: str) -> None:
    text = header + "\n@players Ann Bob Cid\ndeal 1 2 3\n"
    report = run(text)
    codes = [e.code for g in report.games for e in g.errors] + [e.code for e in report.input_errors]
    assert code in codes and report.exit_code == 2


def test_bad_player_lists() -> None:
    assert run("@game kingdomino\n@players Ann Ann\n").games[0].errors[0].code == "log-player"
    assert run("@game kingdomino\n@players deal Bob\n").games[0].errors[0].code == "log-player"
    assert run("@game kingdomino\n@players Ann Bob Cid Dee Eve\n").games[0].errors[0].code == "player-count"


def test_event_before_headers_and_empty() -> None:
    assert run("deal 1 2 3 4\n").exit_code == 2
    assert run("# nothing\n").input_errors[0].code == "log-empty"


def test_several_games_reported_separately() -> None:
    text = BASE + "\n" + edit(5, "Bob claim 22")
    report = run(text)
    assert [g.index for g in report.games] == [1, 2]
    assert report.games[0].valid and not report.games[1].valid
    assert report.games[1].violations[0].line == 18 + 5  # the second game starts after a blank line


def test_bom_and_crlf() -> None:
    from kbgrules.core.check import check_bytes

    raw = ("\ufeff" + BASE).replace("\n", "\r\n").encode()
    assert check_bytes("t.log", raw).exit_code == 0
    assert check_bytes("t.log", b"\x00\x01").input_errors[0].code == "binary-file"
    assert check_bytes("t.log", b"@game kingdomino\n\xff").input_errors[0].code == "not-utf8"


def test_dynasty_totals() -> None:
    report = check_text("d.log", (ROOT / "examples" / "kingdomino" / "dynasty.log").read_text())
    (match,) = report.matches
    assert match["complete"] and match["games"] == [1, 2, 3]
    totals = {n: sum(p["score"] for g in report.games for p in g.final["players"] if p["name"] == n)  # type: ignore[index]
              for n in match["totals"]}
    assert totals == match["totals"] and match["winners"] == [max(totals, key=totals.__getitem__)]


def test_check_json_matches_documented_schema() -> None:
    from jsonschema import Draft202012Validator

    schema = json.loads((ROOT / "docs" / "check-output.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    for path in EXAMPLES:
        Draft202012Validator(schema).validate(check_text(path.name, path.read_text()).to_json())
    Draft202012Validator(schema).validate(run(edit(5, "Bob claim 22")).to_json())
    Draft202012Validator(schema).validate(run("@game chess\n@players A B\n").to_json())


# ---------------------------------------------------------------- property tests

CONFIGS = [(2, "first", ()), (3, "first", ()), (4, "first", ()), (2, "second", ()), (3, "second", ()),
           (2, "first", ("snake-draft",)),
           (4, "second", ("middle-kingdom", "harmony")), (2, "first", ("mighty-duel",)),
           (3, "first", ("voluntary-discard",)), (2, "second", ("dynasty",))]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CONFIGS), st.integers(0, 10**6))
def test_random_legal_games_check_clean(config: tuple[int, str, tuple[str, ...]], seed: int) -> None:
    players, edition, variants = config
    report = check_text("sim.log", simulate_kingdomino(players, seed, edition, variants))
    assert report.exit_code == 0, [str(v) for g in report.games for v in g.violations + g.errors]  # type: ignore[operator]
    assert all(g.final and g.final["finished"] for g in report.games)


def _corrupt(text: str, kind: str, rng: random.Random) -> tuple[str, int, set[str]] | None:
    lines = text.splitlines()
    names = [t for t in re.search(r"^@players (.*)$", text, re.M).group(1).split()]  # type: ignore[union-attr]
    places = [i for i, ln in enumerate(lines) if " place " in ln]
    if kind == "overlap":
        i = rng.choice(places)
        actor, _, n, *_ = lines[i].split()
        castle = "g7" if "mighty-duel" in text else "e5"
        neighbour = "g8" if castle == "g7" else "e6"
        lines[i] = f"{actor} place {n} {castle} {neighbour}"
        return "\n".join(lines) + "\n", i + 1, {"kd-overlap"}
    if kind == "actor":
        i = rng.choice(places)
        actor = lines[i].split()[0]
        other = next(n for n in names if n != actor)
        lines[i] = lines[i].replace(actor, other, 1)
        return "\n".join(lines) + "\n", i + 1, {"kd-wrong-player"}
    if kind == "voluntary":
        i = rng.choice(places)
        actor, _, n, *_ = lines[i].split()
        lines[i] = f"{actor} discard {n}"
        return "\n".join(lines) + "\n", i + 1, {"kd-voluntary-discard"}
    if kind == "redeal":
        deals = [i for i, ln in enumerate(lines) if ln.startswith("deal ")]
        i = rng.choice(deals[1:])
        earlier = lines[deals[0]].split()[1]
        parts = lines[i].split()
        parts[rng.randrange(1, len(parts))] = earlier
        lines[i] = " ".join(parts)
        return "\n".join(lines) + "\n", i + 1, {"kd-deal-repeat"}
    if kind == "skip-discard":
        discards = [i for i, ln in enumerate(lines) if " discard " in ln]
        if not discards:
            return None
        i = rng.choice(discards)
        del lines[i]
        at = next(j for j in range(i, len(lines)) if not lines[j].startswith("expect score"))
        return "\n".join(lines) + "\n", at + 1, {"kd-unexpected", "kd-wrong-player", "kd-wrong-domino", "kd-checkpoint"}
    raise AssertionError(kind)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([c for c in CONFIGS if "voluntary-discard" not in c[2] and "dynasty" not in c[2]]),
       st.integers(0, 10**6), st.sampled_from(["overlap", "actor", "voluntary", "redeal", "skip-discard"]))
def test_corrupted_move_fails_at_its_line(config: tuple[int, str, tuple[str, ...]], seed: int, kind: str) -> None:
    players, edition, variants = config
    text = simulate_kingdomino(players, seed, edition, variants)
    corrupted = _corrupt(text, kind, random.Random(seed))
    if corrupted is None:
        return
    bad, line, codes = corrupted
    (game,) = check_text("sim.log", bad).games
    assert not game.errors
    assert len(game.violations) == 1
    v = game.violations[0]
    assert v.line == line and v.code in codes, str(v)


def test_an_unlikely_position_is_a_warning_not_an_error() -> None:
    text = """\
@game kingdomino
@players Ann Bob
@start position
Ann kingdom
    .  W  .
    W  C  W
    .  W  .
Bob kingdom
    C
out 1 2 12 4
line 12:Ann 1:Bob 2:Bob 4:Ann
"""
    report = run(text)
    assert report.exit_code == 0
    notes = [(d.line, d.code, d.severity) for d in report.games[0].notes]
    assert notes == [(4, "kd-position-unlikely", "warning")] * 2  # 4 squares after no line; 4 wheat never dealt
    fine = text.replace("    .  W  .\n    W  C  W\n    .  W  .\n", "    C\n", 1)
    assert run(fine).games[0].notes == []


def test_report_says_who_acts_next_and_where_the_kings_stand() -> None:
    from kbgrules.core.check import check_text as check

    def final(text: str) -> dict:
        (game,) = check("t.log", text).games
        assert game.valid and game.final is not None, [str(x) for x in (*game.errors, *game.violations)]
        return game.final

    head = "@game kingdomino\n@players Ann Bob\n"
    assert final(head)["next"] == {"player": None, "action": "deal", "expects": "a deal of 4 dominoes"}
    f = final(head + "deal 3 17 22 40\nBob claim 3\nAnn claim 17\nBob claim 22\nAnn claim 40\ndeal 1 2 4 5\n"
              "Bob place 3 d5 d6\n")
    assert f["current_line"] == [{"domino": 3, "king": "Bob"}, {"domino": 17, "king": "Ann"},
                                 {"domino": 22, "king": "Bob"}, {"domino": 40, "king": "Ann"}]
    assert f["next_line"] == [{"domino": n, "king": None} for n in (1, 2, 4, 5)]
    assert f["next"] == {"player": "Bob", "action": "claim", "expects": "Bob's claim"}
    f = final(head + "deal 3 17 22 40\nBob claim 3\nAnn claim 17\nBob claim 22\nAnn claim 40\ndeal 1 2 4 5\n"
              "Bob place 3 d5 d6\nBob claim 4\n")
    assert f["next_line"][2] == {"domino": 4, "king": "Bob"}
    assert f["next"] == {"player": "Ann", "action": "place", "expects": "Ann placing or discarding domino 17"}
