"""Names in logs: case-insensitive verbs, the closest valid names for a typo, commas in @players."""

from __future__ import annotations

import pytest

from kbgrules.core.check import check_text

KD = "@game kingdomino\n@players Alice Bernard\n"
KOT = "@game king-of-tokyo\n@players Ann Bob\n"


def first_error(log: str) -> tuple[int, int, str, str]:
    report = check_text("t.log", log)
    d = [*report.input_errors, *(e for g in report.games for e in g.errors)][0]
    return d.line, d.col, d.code, d.message


@pytest.mark.parametrize(("log", "line", "col", "code", "hint"), [
    (KD + "deal 3 17 22 40\nkings Alice Bernard Alice Bernard\nBernad claim 3\n", 5, 1, "log-player",
     "did you mean 'Bernard'?"),
    (KD + "deal 3 17 22 40\nkings Alice Bernard Alice Bernard\nAlice palce 3 e6 f6\n", 5, 7, "log-syntax",
     "did you mean 'place'?"),
    (KD + "dael 3 17 22 40\n", 3, 1, "log-syntax", "did you mean 'deal'?"),
    (KOT + "Ann roll 1 2 3 s s e\nAnn buy alien-orgin : tank\n", 4, 9, "log-card", "did you mean 'alien-origin'?"),
    (KOT + "market energise tank heal\n", 3, 8, "log-card", "did you mean 'energize'?"),
    (KOT + "Ann roll 1 2 3 s s e\nAnn rerol 1 : 2\n", 4, 5, "log-syntax", "did you mean 'reroll'?"),
    (KOT + "Ann roll 1 2 3 s s smsh\n", 3, 20, "log-face", "did you mean 'smash'?"),
    (KOT + "Ann roll 1 2 3 s s e\nAnn end\nBbo roll 1 2 3 s s e\n", 5, 1, "log-player", "did you mean 'Bob'?"),
])
def test_a_typo_gets_the_closest_names(log: str, line: int, col: int, code: str, hint: str) -> None:
    got = first_error(log)
    assert got[:3] == (line, col, code) and got[3].endswith(hint), got


def test_an_unknown_word_far_from_every_name_gets_no_guess() -> None:
    message = first_error(KOT + "Ann roll 1 2 3 s s e\nAnn buy tortoise : tank\n")[3]
    assert "did you mean" not in message and "kbg rules kot cards" in message


def test_verbs_and_keywords_in_any_case() -> None:
    kd = KD + "Deal 3 17 22 40\nKINGS Alice Bernard Alice Bernard\nAlice Claim 3\nBernard CLAIM 17\n"
    assert check_text("t.log", kd).exit_code == 0
    kot = KOT + "market corner-store heal tank\nAnn Roll 1 1 1 s e h\nAnn End\n"
    report = check_text("t.log", kot)
    assert report.exit_code == 0, [e.message for g in report.games for e in g.errors]


def test_players_written_with_commas_are_refused_at_the_header() -> None:
    line, col, code, message = first_error("@game kingdomino\n@players Alice, Bernard\ndeal 3 17 22 40\n")
    assert (line, col, code) == (2, 15, "log-player")
    assert message == "players are separated by spaces, not commas: @players Alice Bernard"


def test_dice_messages_say_what_the_rules_want() -> None:
    report = check_text("t.log", KOT + "Ann roll 1 1 1 s e\n")
    assert report.games[0].violations[0].message == "Ann must roll 6 dice here, not 5"
    report = check_text("t.log", KOT + "Ann roll 1 1 1 s e h\nAnn reroll h h : s s\n")
    assert report.games[0].violations[0].message == \
        "the re-roll picks up 2 dice showing heart; the dice have 1 (dice: 1 1 1 s e h)"
