"""The offline site's search (cli/kbg_cli/web/static/search.js) answers as `kbg explain` does.

The JavaScript port runs in one node process (started once for the module, in the background while
Python answers the same questions) on what the site ships (the index and the second stage's weights),
on every question of tests/explain, on queries with options, on Unicode edge cases, on posts and
phrasings that exercise the second stage's features, and on queries that are refused; each result
is compared whole with kbgrules.explain.search's (bench/site_search.py's same_result: the hits and
their probabilities, what each term and each feature gave, confidence, coverage...).
bench/site_search.py prints the same agreement per question set.
"""

from __future__ import annotations

import importlib.util
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from kbg_cli.web.site import search_index
from kbgrules.core.closest import closest
from kbgrules.explain import rank
from kbgrules.explain.packed import Packed
from kbgrules.explain.rerank import FEATURES, load_model
from kbgrules.explain.store import load_index
from kbgrules.explain.text import fold

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("kbg_site_search", ROOT / "bench" / "site_search.py")
assert _spec is not None and _spec.loader is not None
site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(site)

EDGE = [  # Unicode, typos, options, prototype names
    "Château au centre ?", "Cha\u0302teau au centre ?", "KANN ICH IN TOKIO HEILEN?", "Straße", "STRASSE",
    "ĐẶT DOMINO Ở ĐÂU", "Đặt domino ở đâu", "domino ３７", "domino #37", "#٣٧", "tile 3", "KOT.CARD.ARMOR-PLATING",
    "three 2s", "1-1-1", "drei 2er", "5 x 5", "5×5 kingdom", "zusatzwürfel", "yeild", "verlasen", "armour platting",
    "l'attaque", "qu'est-ce que le royaume", "¿Puedo curarme en Tokio?", "성이 꼭 왕국 가운데", "Tokyo αβγ",
    "heal\u00a0in\u00a0tokyo", "\u2003heal\u2003", "\x85heal\x85", "\ufeffheal", "constructor", "__proto__",
    "toString valueOf", "😀", "😀 tokyo", "x" * 1000, "Ｔｏｋｙｏ ｈｅａｌ", "ﬁnal score", "ǅ", "İstanbul tokyo",
    "acumulatur d enrgie", "alien metabolsm", "armor plateing", "rapid heeling", "herzsymbol", "cuándo", "Dés",
    "où placer le château ?", "dat domino o dau", "Tokyo Bay", "tokyo bảy người chơi", "l’attaque du roi",
    "un dos tres ten", "¡Puedo curarme!", "wie gross ist das Königreich", "Muß", "có không",
]
POSTS = [  # the second stage's readings: posts that tell a story, question words, negations, kinds
    "We played last night. My friend was in Tokyo and rolled three hearts. Can he heal? He said no.",
    "Wir haben gestern gespielt. Darf ich in Tokio heilen? Mein Freund meint nein.",
    "Anoche jugamos. ¿Qué pasa si nadie quiere salir de Tokio? Discutimos mucho.",
    "Hôm qua chơi. Có thể hồi máu ở Tokyo không? Bạn tôi nói không.",
    "First game.\nWhere does the castle go\nThanks!", "Où placer le château ?", "성을 어디에 놓나요",
    "몇 번 굴릴 수 있나요", "토쿄에서 회복 안 되나요", "what happens if two players tie", "wie viele Würfel",
    "bao nhiêu xúc xắc", "i can't heal in tokyo, isn't it?", "ist es erlaubt, zweimal zu kaufen", "what if I yield",
    "Poison Quills", "poison", "lake domino", "domino 37 lake", "first half lake second half grassland crown",
    "checkpoint line in the log", "chance line log", "Tokyo Bay five players", "Harmony variant bonus",
    "dynasty three rounds", "wickedness tile", "log file format roll line",
]
DOCTESTS = ["Armor Plating", "domino 37", "kann ich in Tokio heilen?", "can I heal in tokyo?"]  # test_explain
REFUSED = ["", "   \t\n", "\x85", "x" * 1001, "y " * 600, "a\x00b", "a\x08b", "\x1b[1mheal", "heal\x7f",
           "heal\ufffd", "\udc80heal", "Привет мир", "日本語のルール"]
OPTIONS: list[dict[str, Any]] = [{"limit": 1}, {"limit": 10}, {"limit": 0}, {"game": "kingdomino"},
                                 {"game": "king-of-tokyo"}]
# every character of the scripts and blocks the questions are written in, and a few others
FOLD = [chr(c) for lo, hi in ((0x20, 0x250), (0x300, 0x370), (0x370, 0x400), (0x1100, 0x1200), (0x1E00, 0x1F00),
                              (0x2000, 0x2070), (0x3130, 0x3190), (0xAC00, 0xD7A4), (0xFB00, 0xFB07),
                              (0xFF00, 0xFFF0)) for c in range(lo, hi)]


def glossary_words() -> list[str]:
    """The one-word glossary words typos are matched to (rank.py's _fuzzy_concepts), every language."""
    langs = Packed(load_index()["glossary"]["langs"])
    return [k for k in langs if " " not in k and len(k) >= 4 and k.isascii()]


def typo(word: str, k: int) -> str:
    """One or two typing mistakes, by ``k``: a letter dropped, doubled, changed or two swapped."""
    i = k % (len(word) - 1)
    out = [word[:i] + word[i + 1:], word[:i] + word[i] + word[i:], word[:i] + "e" + word[i + 1:],
           word[:i] + word[i + 1] + word[i] + word[i + 2:]][k % 4]
    return typo(out, k // 4 + 1) if k % 3 == 0 and len(out) > 6 else out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[str, dict[str, Any], Any, Any]]]:
    """Per kind of job: (query, options, Python's result, the port's result)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the site search is tested in node, which runs it as a browser would")
    items = site.load_items()
    jobs: list[tuple[str, str, dict[str, Any]]] = [(it["set"], it["q"], {}) for it in items]
    for k, it in enumerate(items[::10]):  # Python takes about 25 ms a question: a sample
        other = "kingdomino" if it["game"] == "king-of-tokyo" else "king-of-tokyo"
        jobs += [("game", it["q"], {"game": it["game"] if k % 2 else other})]
        jobs += [("limit", it["q"], OPTIONS[k % 3])] if k % 2 else []
    jobs += [("edge", q, o) for k, q in enumerate(EDGE) for o in ({}, OPTIONS[k % 5])]
    jobs += [("posts", q, o) for k, q in enumerate(POSTS) for o in ({}, OPTIONS[k % 5])]
    jobs += [("refused", q, {}) for q in REFUSED] + [("doc", q, {}) for q in DOCTESTS]
    rnd = random.Random(7)  # and words of four letters, which difflib matches in more ways
    noise = ["".join(rnd.choice("abcd") for _ in range(rnd.randint(5, 9))) for _ in range(300)]
    words = glossary_words() + noise[:150]
    typos = [typo(w, k) for k, w in enumerate(words[::3])] + noise[150:]
    proc = site.start_node(node, [[q, o] for _, q, o in jobs], str(tmp_path_factory.mktemp("site-search")),
                           FOLD, typos, words)
    py = [site.python_result(q, o) for _, q, o in jobs]
    py_closest = [closest(t, words, n=1, cutoff=0.7) for t in typos]
    out = site.node_results(proc)
    runs: dict[str, list[tuple[str, dict[str, Any], Any, Any]]] = {}
    for (kind, q, o), p, j in zip(jobs, py, out["results"], strict=True):
        runs.setdefault(kind, []).append((q, o, p, j))
    runs["fold"] = [(c, {}, fold(c), f) for c, f in zip(FOLD, out["folded"], strict=True)]
    runs["closest"] = [(t, {}, p, j) for t, p, j in zip(typos, py_closest, out["closest"], strict=True)]
    return runs


def questions(runs: dict[str, list[Any]]) -> list[tuple[str, dict[str, Any], Any, Any]]:
    return [r for name in site.SETS for r in runs[name]]


def differences(rows: list[tuple[str, dict[str, Any], Any, Any]], same: Any) -> str:
    bad = [f"{q[:80]!r} {o or ''}: python {site.ids(p, 3)} {p.get('lang')} {p.get('game')}, "
           f"node {site.ids(j, 3)} {j.get('lang')} {j.get('game')}" for q, o, p, j in rows if not same(p, j)]
    return f"{len(bad)} of {len(rows)} differ:\n" + "\n".join(bad) if bad else ""


def test_every_question_is_asked(runs: dict[str, list[Any]]) -> None:
    counts = {name: len(runs[name]) for name in site.SETS}
    assert all(n >= 30 for n in counts.values()), counts
    assert sum(bool(j["hits"]) for _, _, _, j in questions(runs)) >= 0.95 * sum(counts.values())


def test_first_answer_agrees(runs: dict[str, list[Any]]) -> None:
    assert not (d := differences(questions(runs), lambda p, j: site.ids(p, 1) == site.ids(j, 1))), d


def test_first_three_answers_agree(runs: dict[str, list[Any]]) -> None:
    assert not (d := differences(questions(runs), lambda p, j: site.ids(p, 3) == site.ids(j, 3))), d


def test_language_and_game_agree(runs: dict[str, list[Any]]) -> None:
    assert not (d := differences(questions(runs), lambda p, j: (p["lang"], p["game"]) == (j["lang"], j["game"]))), d


def test_whole_results_agree(runs: dict[str, list[Any]]) -> None:
    """Scores, confidence, coverage, terms, typo notes and the other game's answer too."""
    assert not (d := differences(questions(runs), site.same_result)), d


@pytest.mark.parametrize("kind", ["game", "limit", "edge", "posts"])
def test_options_and_edge_cases_agree(runs: dict[str, list[Any]], kind: str) -> None:
    assert not (d := differences(runs[kind], site.same_result)), d


def test_limit_is_kept(runs: dict[str, list[Any]]) -> None:
    for _, o, _, j in runs["limit"]:
        assert len(j["hits"]) <= o["limit"]
    assert any(len(j["hits"]) == 10 for _, o, _, j in runs["limit"] if o["limit"] == 10)


def test_refused_queries_give_the_same_error(runs: dict[str, list[Any]]) -> None:
    for q, _, p, j in runs["refused"]:
        assert "error" in p, q
        assert {k: j.get(k) for k in ("error", "code")} == p, q
    messages = {j["error"] for _, _, _, j in runs["refused"]}
    assert "the query is 1,001 characters; kbg explain reads questions of up to 1000" in messages
    assert len({j["code"] for _, _, _, j in runs["refused"]}) == 4  # empty, too long, binary, other script
    assert all(j["code"] == "query-binary" for q, _, _, j in runs["refused"] if q in ("a\x08b", "heal\x7f"))


def test_fold_agrees(runs: dict[str, list[Any]]) -> None:
    known = {"\u0345", "\u03c2"}  # Greek: str.casefold and toLowerCase differ (no search word holds them)
    bad = [f"U+{ord(c):04X}: python {p!r}, node {j!r}" for c, _, p, j in runs["fold"] if p != j and c not in known]
    assert not bad, "\n".join(bad)
    assert sum(p != j for _, _, p, j in runs["fold"]) == len(known)


def test_typos_meet_the_same_words(runs: dict[str, list[Any]]) -> None:
    """difflib's shortlist and the typing-mistake count, ported: the same closest glossary word."""
    rows = runs["closest"]
    assert not (bad := [(t, p, j) for t, _, p, j in rows if p != j]), bad
    assert sum(bool(p) for _, _, p, _ in rows) >= len(rows) // 2


def test_docstring_examples(runs: dict[str, list[Any]]) -> None:
    """test_explain's examples of the docs, in the port."""
    out = {q: j for q, _, _, j in runs["doc"]}
    assert out["Armor Plating"]["hits"][0]["id"] == "kot.card.armor-plating"
    assert out["domino 37"]["hits"][0]["id"] == "kd.domino.37"
    r = out["kann ich in Tokio heilen?"]
    assert (r["hits"][0]["id"], r["lang"], r["game"]) == ("kot.faq.heal-in-tokyo", "de", "king-of-tokyo")
    assert out["can I heal in tokyo?"]["hits"][0]["id"] == "kot.faq.heal-in-tokyo"
    hit = out["Armor Plating"]["hits"][0]
    assert (hit["game"], hit["kind"], hit["title"]) == ("king-of-tokyo", "card", "Armor Plating")


def test_the_site_ships_the_model() -> None:
    """search-index.js holds the index and, as its ``model``, the weights Python loads."""
    data = search_index(load_index())
    model = load_model()
    assert model is not None and data["model"] == model.data and list(data["model"]["features"]) == list(FEATURES)
    # the index less what stays on this machine (a cached index's path, with a plug-in installed)
    assert {k: v for k, v in data.items() if k != "model"} == {k: v for k, v in load_index().items()
                                                              if not k.startswith("_")}


def test_without_a_model_the_first_stage_order_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An index without the model (or with one of another version): Model.default(), as in Python."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    queries = [*DOCTESTS, *POSTS[:8], *(it["q"] for it in site.load_items()[::40])]
    model = load_model()
    assert model is not None
    runs = []
    for name, data in (("none", load_index()), ("stale", dict(load_index(), model={**model.data, "version": 0}))):
        (tmp_path / name).mkdir()
        runs.append(site.start_node(node, [[q, {}] for q in queries], str(tmp_path / name), data=data))
    monkeypatch.setattr(rank, "load_model", lambda: None)
    py = [site.python_result(q, {}) for q in queries]
    for proc in runs:
        js = site.node_results(proc)["results"]
        rows: list[tuple[str, dict[str, Any], Any, Any]] = [
            (q, {}, p, j) for q, p, j in zip(queries, py, js, strict=True)]
        assert not (d := differences(rows, site.same_result)), d
