"""kbg explain: the shipped index is current, every checker code resolves, real questions find their entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import kbgrules
from kbg_cli.app import app
from kbg_cli.explain_cmd import run
from kbgrules.explain import entries_path, index_path, lookup, search
from kbgrules.explain.index import build_index, collect
from kbgrules.explain.text import tokens

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = [q for p in sorted((ROOT / "tests" / "explain").glob("questions-*.yaml"))
             for q in yaml.safe_load(p.read_text(encoding="utf-8"))["questions"]]


def test_shipped_index_is_current(tmp_path: Path) -> None:
    """Rebuild with `python -m kbgrules.explain --build` after changing rules_data."""
    from kbgrules.explain import entries_path
    from kbgrules.explain.index import write_index

    write_index(build_index(collect(plugins=False)), str(tmp_path / "index.json"), str(tmp_path / "entries.jsonl"))
    assert (tmp_path / "entries.jsonl").read_bytes() == Path(entries_path()).read_bytes()
    assert json.loads((tmp_path / "index.json").read_text(encoding="utf-8")) == \
        json.loads(Path(index_path()).read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", ["kingdomino", "king-of-tokyo"])
def test_every_checker_code_names_an_explained_rule(game: str) -> None:
    rs = kbgrules.load(game)
    for code, entry in rs.data["codes"].items():
        found = lookup(str(entry["rule"]))
        assert found is not None, code
        assert search(str(entry["rule"])).best.id == entry["rule"]


def test_every_entry_cites_its_sources() -> None:
    for e in map(json.loads, Path(entries_path()).read_text(encoding="utf-8").splitlines()):
        if e["kind"] in ("rule", "faq", "card"):
            assert e.get("sources"), e["id"]


def test_tokens() -> None:
    assert tokens("Can I heal in Tokyo?") == ["heal", "tokyo"]
    assert tokens("nhường") == ["nhuong"] and tokens("Nhuong") == ["nhuong"]
    assert tokens("도쿄에서") == ["도쿄", "쿄에", "에서"]
    assert tokens("château") == ["chateau"]


@pytest.mark.parametrize("query,expected", [
    ("yield", "kot.tokyo.yield"), ("kot.tokyo.yield", "kot.tokyo.yield"), ("Armor Plating", "kot.card.armor-plating"),
    ("domino 37", "kd.domino.37"), ("#48", "kd.domino.48"), ("yeild", "kot.tokyo.yield"),
])
def test_direct_lookups(query: str, expected: str) -> None:
    assert search(query).best.id == expected


def test_the_examples_of_the_docs() -> None:
    """What rank.py's and the package's docstrings showed before they named no game."""
    assert search("Armor Plating").best.id == "kot.card.armor-plating"
    assert search("domino 37").best.entry["text"] == "Domino 37: first half lake, second half grassland with 1 crown."
    r = search("kann ich in Tokio heilen?")
    assert (r.best.id, r.lang, r.game) == ("kot.faq.heal-in-tokyo", "de", "king-of-tokyo")
    assert search("can I heal in tokyo?").best.id == "kot.faq.heal-in-tokyo"


def test_no_made_up_answer() -> None:
    result = search("flux capacitor warp drive")
    assert not result.confident


def test_questions_hit_rates() -> None:
    hit1 = hit3 = 0
    for q in QUESTIONS:
        ids = [h.id for h in search(q["q"]).hits[:3]]
        hit1 += bool(ids) and ids[0] == q["expect"]
        hit3 += q["expect"] in ids
    assert len(QUESTIONS) >= 60
    assert hit1 / len(QUESTIONS) >= 0.8 and hit3 / len(QUESTIONS) >= 0.9, (hit1, hit3, len(QUESTIONS))


def test_question_targets_exist() -> None:
    for q in QUESTIONS:
        assert lookup(q["expect"]) is not None, q


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["explain", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_answer_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli("yield")
    assert code == 0 and err == "" and "Yielding Tokyo" in out and "Sources:" in out and "Read next:" in out
    assert run(["yield", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["best"]["id"] == "kot.tokyo.yield" and data["best"]["sources"][0]["title"]
    assert {"id", "title", "answer", "sources", "related", "score"} <= set(data["best"])


def test_cli_lists_topics_and_filters_games() -> None:
    code, out, _ = cli()
    assert code == 0 and "kot.tokyo.yield" in out and "kd.place.connect" in out
    code, out, _ = cli("--game", "kd", "property")
    assert "kd." in out.splitlines()[0]


def test_cli_edition_and_language() -> None:
    code, out, _ = cli("kd.score.tiebreak", "--edition", "second")
    assert code == 0 and "second edition" in out
    code, out, _ = cli("kd.score.tiebreak")
    assert "Differs in the second edition" in out


def test_cli_bad_input() -> None:
    for args in (["--lang", "xx", "yield"], ["--game", "chess", "yield"], ["--colour", "yield"], ["--game"]):
        code, out, err = cli(*args)
        assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("kbg: error usage:")


def test_not_found_is_plain() -> None:
    code, out, _ = cli("flux", "capacitor", "warp", "drive")
    assert code == 0 and "Nothing in kbg's rules answers" in out


def test_related_ids_resolve() -> None:
    entries = [json.loads(e) for e in Path(entries_path()).read_text(encoding="utf-8").splitlines()]
    ids = {e["id"] for e in entries}
    for e in entries:
        missing = [r for r in e.get("related", []) if r not in ids]
        assert not missing, (e["id"], missing)


def test_dark_edition_words_are_explained() -> None:
    # what wickedness is: the FAQ entry, the rule, or the edition that brings it
    assert search("wickedness").best.id in ("kot.faq.wickedness", "kot.dark.wickedness", "kot.edition.dark")


def test_hostile_queries_are_bounded_and_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    from kbgrules.core import closest
    from kbgrules.explain import rank as explain

    junk = "".join(random.Random(1).choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(explain.MAX_QUERY))
    calls = []
    real = closest.closest
    monkeypatch.setattr(closest, "closest", lambda w, *a, **k: calls.append(w) or real(w, *a, **k))
    explain.search(junk)
    assert len(calls) <= explain.MAX_FUZZY  # few unknown words are matched to close game words


@pytest.mark.parametrize("query,code", [
    ("", "empty-query"), ("   ", "empty-query"), ("a" * 100_000, "query-too-long"),
    ("ab\x00\x01", "query-binary"), ("\udcff\udcfe", "query-binary"), ("ทำไมถึงเป็นแบบนั้น", "unsupported-language"),
    ("Почему так", "unsupported-language"),
])
def test_unreadable_queries_are_one_line_and_exit_2(query: str, code: str, capsys: pytest.CaptureFixture[str]) -> None:
    from kbgrules.explain import QueryError

    with pytest.raises(QueryError) as exc:
        search(query)
    assert exc.value.code == code
    assert run([query]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"kbg: error {code}: ")


def test_translated_rules_answer_in_the_players_language() -> None:
    import kbgrules
    from kbg_cli.render import width, wrap

    for game in ("kingdomino", "king-of-tokyo"):
        rs = kbgrules.load(game)
        base = [r for r in rs.rules.values() if r.translations]
        assert len(base) >= 40 and all({"ko", "fr", "vi"} <= set(r.translations) for r in base)
    text = kbgrules.load("kot").rule("kot.tokyo.yield").translations["ko"]
    lines = wrap(text, 60)
    assert all(width(ln) <= 60 for ln in lines) and " ".join(lines) == " ".join(text.split())


def test_every_rule_statement_and_faq_entry_has_its_title_in_five_languages() -> None:
    """Cards, tiles, evolutions and dominoes keep their English names: no official translations exist."""
    for game in ("kingdomino", "king-of-tokyo"):
        rs = kbgrules.load(game)
        for r in rs.rules.values():
            assert set(r.title_translations) == {"ko", "fr", "vi", "de", "es"}, r.id
        for fid, f in rs.data["faq"].items():
            assert set(f["question_translations"]) == {"ko", "fr", "vi", "de", "es"}, fid
    for e in map(json.loads, Path(entries_path()).read_text(encoding="utf-8").splitlines()):
        if e["kind"] in ("rule", "faq"):  # those of an edition or a variant too: their text is translated
            assert set(e.get("title_translations", {})) == set(e["translations"]), e["id"]
