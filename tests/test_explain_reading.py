"""How kbg explain reads a question: glossary concepts, languages, games, dice notation, names,
confidence; and the real-players corpus it is measured on."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

import kbgrules
from kbg_cli.explain_cmd import run
from kbg_cli.explain_strings import STRINGS, game_name, say
from kbg_cli.explain_strings import title as entry_title
from kbgrules.core.closest import closest, edits
from kbgrules.explain import games, load_index, lookup, search
from kbgrules.explain.concepts import analyze
from kbgrules.explain.packed import Packed
from kbgrules.explain.text import detect_language, stem, unsupported_script, words

ROOT = Path(__file__).resolve().parent.parent
REAL = {part: yaml.safe_load((ROOT / "tests" / "explain" / "real" / f"{part}.yaml").read_text(encoding="utf-8"))
        ["questions"] for part in ("test", "dev")}
LANGS = {"en", "ko", "fr", "vi", "de", "es"}
WRITTEN = [q for name in ("kd", "kot") for q in yaml.safe_load(
    (ROOT / "tests" / "explain" / f"questions-{name}.yaml").read_text(encoding="utf-8"))["questions"]]


def concepts(text: str) -> set[str]:
    return {c for c, _ in analyze(text, load_index()["glossary"]).concepts}


# --------------------------------------------------------------------------- the glossary


@pytest.mark.parametrize("game", ["kingdomino", "king-of-tokyo"])
def test_every_glossary_concept_speaks_six_languages(game: str) -> None:
    glossary = kbgrules.load(game).data["glossary"]
    assert len(glossary) >= 30
    for cid, concept in glossary.items():
        assert set(concept["words"]) == LANGS, cid


@pytest.mark.parametrize("words,concept", [
    (["yield", "leave Tokyo", "fuir", "항복", "nhường", "verlassen", "abandonar", "yielding", "fled"], "~yield"),
    (["smash", "claw", "griffe", "공격", "vuốt", "Klaue", "garra", "attacking"], "~smash"),
    (["heal", "hearts", "soigner", "회복", "hồi máu", "heilen", "curar"], "~heal"),
    (["crown", "couronne", "왕관", "vương miện", "Krone", "corona"], "~crown"),
    (["castle", "château", "성을", "lâu đài", "Burg", "castillo"], "~castle"),
])
def test_words_of_every_language_meet_in_one_concept(words: list[str], concept: str) -> None:
    for w in words:
        assert concept in concepts(w), w


def test_korean_particles_and_german_compounds() -> None:
    assert "~tokyo" in concepts("도쿄에서") and "~heal" in concepts("회복할")
    assert {"~smash"} <= concepts("Klauensymbol") and "~extra-die" in concepts("Zusatzwürfel")
    assert "~dice" in concepts("Würfelsymbol") and "~heal" in concepts("Herzsymbol")


def test_a_common_word_of_the_text_is_not_another_language_s_game_word() -> None:
    """German "die" is an article, not the English die; English words hold no German compounds
    ("outside" is not a side, "attacker" no field); "a 3" in English is not French "à trois"."""
    glossary = load_index()["glossary"]

    def read(text: str, lang: str) -> set[str]:
        return {c for c, _ in analyze(text, glossary, lang=lang).concepts}

    assert not {"~dice", "~eliminate"} & read("die Plättchen und die Karten", "de")
    assert "~dice" in read("roll one die", "en") and "~dice" in read("les dés", "fr")
    assert not {"~square", "~wheat"} & read("the attacker outside Tokyo", "en")
    assert "~three-player" not in read("if you roll a 3 of a kind", "en")
    assert "~three-player" in read("une partie à trois", "fr")
    # a word of two languages means in a text what it means in the text's language
    assert "~yield" not in read("le pion du roi", "fr") and "~yield" in read("rời khỏi tokyo", "vi")
    assert "~heal" not in read("every time someone attacks", "en") and "~heal" in read("trái tim", "vi")


def test_accents_matter_only_where_a_word_would_be_a_stopword() -> None:
    assert "~dice" in concepts("les dés") and "~dice" not in concepts("la plupart des joueurs")
    assert "~yield" in concepts("nhuong") and "~heal" in concepts("hoi mau")


@pytest.mark.parametrize("text,face", [("three 2s", "2"), ("1-1-1", "1"), ("2-2-2-2", "2"), ("trois 3", "3"),
                                       ("drei 1er", "1"), ("333", "3")])
def test_dice_notation(text: str, face: str) -> None:
    assert {"~number-set", f"~face-{face}"} <= concepts(text)


def test_stem_is_consistent() -> None:
    assert stem("yielding") == stem("yield") == stem("yields") == stem("yielded")
    assert stem("placing") == stem("place") == stem("placed")
    assert stem("energies") == stem("energy")


def test_closest_counts_typing_mistakes() -> None:
    assert edits("yeild", "yield") == 1 and edits("track", "stack") == 2
    assert closest("yeild", ["yield", "field"]) == ["yield"]
    assert closest("track", ["stack"]) == []
    assert closest("Bernad", ["Bernard", "Bertrand"]) == ["Bernard"]


# --------------------------------------------------------------------------- languages


@pytest.mark.parametrize("text,lang", [
    ("can I heal in tokyo?", "en"), ("peut-on se soigner dans Tokyo ?", "fr"), ("도쿄에서 회복할 수 있나요", "ko"),
    ("có hồi máu ở tokyo không", "vi"), ("kann ich in Tokio heilen?", "de"), ("¿puedo curarme en Tokio?", "es"),
    ("co hoi mau o tokyo khong", "vi"), ("muss ich Tokio verlassen, wenn ich angegriffen werde", "de"),
    ("¿el castillo tiene que estar en el centro?", "es"),
])
def test_language_of_the_question(text: str, lang: str) -> None:
    found, sure = detect_language(text)
    assert found == lang and (sure or lang == "en")
    assert search(text).lang == lang


@pytest.mark.parametrize("text,lang", [
    # French with â ê ô, which Vietnamese writes too, and without its accents
    ("Est-ce que le château compte comme un terrain ?", "fr"), ("où placer le château ?", "fr"),
    ("puis-je quand même me soigner à Tokyo ?", "fr"), ("est-ce que le chateau compte comme un terrain", "fr"),
    ("ou placer le chateau", "fr"),
    # Vietnamese with its marks and without them
    ("đặt domino ở đâu", "vi"), ("dat domino o dau", "vi"), ("ai di truoc", "vi"), ("khi nao duoc nhuong tokyo", "vi"),
    ("lâu đài có phải ở giữa vương quốc không", "vi"), ("lau dai co phai o giua vuong quoc khong", "vi"),
    # German with ß and with ss
    ("Wie groß darf das Königreich sein?", "de"), ("wie gross darf das koenigreich sein", "de"),
    ("Muß ich Tokio verlassen?", "de"), ("Straße", "de"),
    # Spanish with ¿ and ñ, and without them
    ("¿Cuántas coronas tiene el reino pequeño?", "es"), ("cuantas coronas tiene el reino pequeno", "es"),
    ("el castillo tiene que estar en el centro", "es"), ("año", "es"),
    # Korean, with a card's English name in it; English, with words Vietnamese writes with marks
    ("Armor Plating 카드는 어떻게 쓰나요", "ko"), ("what do the dice do", "en"), ("can the castle be anywhere", "en"),
    ("when is Tokyo Bay used", "en"),
])
def test_language_by_its_words(text: str, lang: str) -> None:
    assert detect_language(text) == (lang, True)
    assert search(text).lang == lang


def test_number_words_belong_to_their_language() -> None:
    """A number word that is another word too is a digit only in its language: Vietnamese ``bảy``
    (7) folds to ``bay``, so Tokyo Bay was 7; French ``dos`` is a back, ``très`` is very."""
    mixed = "un dos tres sept ten eine bảy sáu sau 7"
    assert words(mixed) == ["un", "dos", "tres", "sept", "ten", "eine", "bay", "sau", "sau", "7"]
    assert words(mixed, "es")[:3] == ["1", "2", "3"] and words(mixed, "fr")[:4] == ["1", "dos", "tres", "7"]
    assert words(mixed, "vi")[6:] == ["7", "6", "sau", "7"] and words(mixed, "en")[4] == "10"
    assert words("three trois drei cuatro", "vi") == ["3", "3", "3", "4"]  # no other word: digits anywhere
    assert words("có không", "vi") == ["co", "khong"]  # không is first "not"
    bay = search("Tokyo Bay")
    assert "7" not in bay.terms and "bay" in bay.terms
    assert search("tokyo bảy người chơi").lang == "vi" and "7" in search("tokyo bảy người chơi").terms
    postings = Packed(load_index()["postings"])
    with_7 = {load_index()["meta"][int(pair.split(":")[0])][0] for pair in postings["7"].split()}
    assert "kd.domino.7" in with_7 and not any("bay" in e for e in with_7)


def test_scripts_kbg_cannot_read() -> None:
    assert unsupported_script("ทำไม") and unsupported_script("Почему")
    assert not unsupported_script("tokyo ทำไม") and not unsupported_script("1-1-1") and not unsupported_script("항복")


def test_answer_in_the_language_of_the_question(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["도쿄에서 회복할 수 있나요", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lang"] == "ko" and data["best"]["answer_lang"] == "ko"
    assert data["best"]["answer"] == data["best"]["translations"]["ko"]
    assert run(["도쿄에서 회복할 수 있나요", "--lang", "en", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["best"]["answer_lang"] == "en"


def test_an_answer_with_no_text_in_the_language_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    entry = lookup(next(m[0] for m in load_index()["meta"] if m[2] == "card"))
    assert entry is not None
    assert run([entry["title"], "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Für diesen Eintrag gibt es noch keinen deutschen Text; hier ist er auf Englisch." in out
    assert run([entry["title"], "--lang", "en"]) == 0
    assert "text for this entry yet" not in capsys.readouterr().out


# --------------------------------------------------------------------------- the whole answer in one language

HEAL = {"de": "kann ich in Tokio heilen?", "ko": "도쿄에서 회복할 수 있나요", "fr": "peut-on se soigner dans Tokyo ?",
        "vi": "có hồi máu ở tokyo không", "es": "¿puedo curarme en Tokio?"}


def _ids_under(out: str, label: str) -> list[str]:
    """The entry ids listed under ``label`` (a block of indented lines) in plain output."""
    lines = out.splitlines()
    if label not in lines:
        return []
    ids = []
    for line in lines[lines.index(label) + 1:]:
        if not line.startswith("  "):
            break
        m = re.match(r"  ((?:kd|kot)\.[a-z0-9.-]+)(?:  |$)", line)
        if m:
            ids.append(m.group(1))
    return ids


@pytest.mark.parametrize("lang", sorted(HEAL))
def test_the_heading_labels_and_title_are_in_the_language_of_the_question(
        lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    result = search(HEAL[lang])
    assert result.lang == lang and result.best.id == "kot.faq.heal-in-tokyo"
    best = result.best.entry
    title = best["title_translations"][lang]
    if result.confident:
        assert run([HEAL[lang]]) == 0
    else:  # the answer as it is shown once kbg is sure (the not-sure list is tested below)
        from kbg_cli.explain_cmd import Args, render
        from kbgrules.explain import document_title

        render(result, Args(), lookup, document_title, lang).show()
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"{title}  [{best['id']}, {game_name(games(), best['game'], lang)}]"
    for label in ("sources", "read-next"):
        assert say(label, lang) in out.splitlines()
    for english in ("Sources:", "Read next:", "Also close:", best["title"]):
        assert english not in out
    for rid in _ids_under(out, say("read-next", lang)):  # the titles of what to read next, where written
        entry = lookup(rid)
        assert entry is not None
        assert f"  {rid}  {entry.get('title_translations', {}).get(lang, entry['title'])}" in out


def test_lang_overrides_the_language_of_the_question(capsys: pytest.CaptureFixture[str]) -> None:
    assert run([HEAL["de"], "--lang", "es"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("¿Puedo curarme mientras mi monstruo está en Tokio?  [kot.faq.heal-in-tokyo, King of Tokyo]")
    assert "Fuentes:" in out and "Quellen:" not in out
    assert run([HEAL["ko"], "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Can I heal while my monster is in Tokyo?  [kot.faq.heal-in-tokyo, King of Tokyo]")
    assert "Sources:" in out and "출처:" not in out and "킹 오브 도쿄" not in out


def test_the_json_answer_has_its_title_in_the_answer_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert run([HEAL["fr"], "--json"]) == 0
    best = json.loads(capsys.readouterr().out)["best"]
    assert best["answer_lang"] == best["answer_title_lang"] == "fr"
    assert best["answer_title"] == "Puis-je me soigner quand mon monstre est dans Tokyo ?"
    assert best["title"] == "Can I heal while my monster is in Tokyo?"
    assert run(["kd.score.tiebreak", "--lang", "vi", "--json"]) == 0
    best = json.loads(capsys.readouterr().out)["best"]
    assert best["answer_title"] == best["title_translations"]["vi"] and best["answer_lang"] == "vi"
    assert best["edition_note"] == best["answer_notes"][0] and best["edition_note"].startswith("Khác trong phiên bản")


def test_an_entry_without_a_translated_title_keeps_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["kot.card.acid-attack", "--lang", "ko"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first == "Acid Attack  [kot.card.acid-attack, 킹 오브 도쿄]"  # cards keep their English names
    assert say("no-text", "ko") in out and say("sources", "ko") in out.splitlines()
    assert run(["kot.card.acid-attack", "--lang", "ko", "--json"]) == 0
    best = json.loads(capsys.readouterr().out)["best"]
    assert best["answer_title"] == "Acid Attack" and best["answer_title_lang"] == best["answer_lang"] == "en"
    assert entry_title({"title": "Yielding Tokyo", "title_translations": {"ko": "도쿄에서 떠나기"}}, "fr") == \
        "Yielding Tokyo"
    assert entry_title({"title": "Yielding Tokyo"}, "de") == "Yielding Tokyo"


def test_a_string_missing_in_a_language_is_english_whole() -> None:
    """Every string is written in English; another language has it whole, with the same fields, or not
    at all (then the English string is shown, never half of each)."""
    for key, texts in STRINGS.items():
        fields = set(re.findall(r"{(\w+)}", texts["en"])) - {"language"}
        for lang, text in texts.items():
            assert lang in LANGS and set(re.findall(r"{(\w+)}", text)) - {"language"} == fields, (key, lang)
    assert say("applies", "de", note="in the house rules") == "Applies in the house rules."
    assert say("no-text", "en") == "No English text for this entry yet; here it is in English."
    assert game_name(games(), "kingdomino", "fr") == "Kingdomino"
    assert game_name(games(), "kingdomino", "ko") == "킹도미노"


QUESTIONS_SHOWN = [*(q["q"] for q in REAL["dev"][:60]), *(q["q"] for q in WRITTEN), *HEAL.values(), "yield",
                   "who goes first", "kd.score.tiebreak"]


def test_also_close_never_repeats_read_next(capsys: pytest.CaptureFixture[str]) -> None:
    for q in QUESTIONS_SHOWN:
        result = search(q)
        if not result.confident:
            continue
        best, other = result.best, result.other_game
        assert run([q]) == 0
        out = capsys.readouterr().out
        lang = result.lang
        close = _ids_under(out, say("also-close", lang))
        assert not set(close) & {*_ids_under(out, say("read-next", lang)), best.id, *([other.id] if other else [])}, q
    # an answer whose runners-up are what it links to, and one that is not: only that one is "also close"
    from kbg_cli.explain_cmd import Args, render
    from kbgrules.explain import Hit, Result

    result = search("can I heal in tokyo?")
    related = result.best.entry["related"]
    hits = (result.best, Hit(related[0], 0.3, lookup(related[0])), Hit("kot.faq.poison-stacks", 0.2,
                                                                        lookup("kot.faq.poison-stacks")))
    render(Result("q", hits, True), Args(), lookup, lambda g, k: k, "en").show()
    out = capsys.readouterr().out
    assert _ids_under(out, "Also close:") == ["kot.faq.poison-stacks"] and related[0] in _ids_under(out, "Read next:")


def test_not_sure_and_nothing_found_in_another_language(capsys: pytest.CaptureFixture[str]) -> None:
    result = search("comment faire du pain")
    assert result.lang == "fr" and not result.confident and result.coverage > 0
    assert run(["comment faire du pain"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "kbg ne sait pas bien de quelle règle parle 'comment faire du pain'. Les trois plus proches :"
    assert lines[-1] == "Pour en lire un : kbg explain ID   Pour lister tous les sujets : kbg explain"
    for line, hit in zip(lines[1:-1], result.hits[:3], strict=True):
        assert line == f"  {hit.id}  {entry_title(hit.entry, 'fr')}"
    assert run(["zzzz qqqq", "--lang", "ko"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "'zzzz qqqq': kbg의 규칙에는 여기에 잘 맞는 답이 없습니다. 가장 가까운 주제:"
    assert lines[-1] == say("read-one", "ko")


def test_control_characters_in_the_rule_data_stay_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    """User rule data (--rules) can hold any character in a title or a translation: none reaches the terminal."""
    from kbg_cli.explain_cmd import Args, render
    from kbgrules.explain import Hit, Result

    bad = {"id": "kot.house.x", "game": "king-of-tokyo", "kind": "rule", "title": "T\x1b[31m", "text": "x\x07",
           "title_translations": {"de": "Titel\x1b]0;owned\x07"}, "related": ["kot.house.y"],
           "sources": [{"doc": "R1", "section": "S\x1b[2J"}], "conflict": "c\x1b", "notes": ["with the variant v\x1b"]}
    other = {**bad, "id": "kot.house.y", "title_translations": {"de": "Nah\x1b[5m"}}
    result = Result("q", (Hit("kot.house.x", 10.0, bad), Hit("kot.house.z", 9.0, other)), True, lang="de")
    doc = render(result, Args(), lambda i: other, lambda g, k: "Doc\x1b", "de")
    out = doc.plain()
    assert "\x1b" not in out and "\x07" not in out and "\\x1b" in out
    assert "Titel\\x1b]0;owned\\x07  [kot.house.x, King of Tokyo]" in out
    monkey = pytest.MonkeyPatch()
    try:
        monkey.setattr("kbgrules.explain.search", lambda *a, **k: Result("q", result.hits, False, lang="de"))
        assert run(["q"]) == 0
    finally:
        monkey.undo()
    out = capsys.readouterr().out
    assert "\x1b" not in out and "Titel\\x1b]0;owned\\x07" in out


# --------------------------------------------------------------------------- games


@pytest.mark.parametrize("question,game", [
    ("does poison stack", "king-of-tokyo"), ("can I discard a domino", "kingdomino"),
    ("do crowns on the castle count", "kingdomino"), ("can I stack dominoes", "kingdomino"),
    ("what if I roll three 2s", "king-of-tokyo"), ("kann ich einen Domino abwerfen", "kingdomino"),
    ("도쿄가 그려진 게임판을 가운데 놓는다", "king-of-tokyo"), ("king of tokyo who goes first", "king-of-tokyo"),
    ("kingdomino: who goes first", "kingdomino"), ("킹도미노 선 플레이어", "kingdomino"),
])
def test_words_of_one_game_keep_the_answer_in_that_game(question: str, game: str) -> None:
    result = search(question)
    assert result.game == game
    assert all(h.entry["game"] == game for h in result.hits)


def test_a_question_that_fits_both_games_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    result = search("who goes first")
    assert result.game is None and result.other_game is not None
    assert {result.best.entry["game"], result.other_game.entry["game"]} == {"kingdomino", "king-of-tokyo"}
    assert run(["who goes first"]) == 0
    out = capsys.readouterr().out
    if result.confident:
        assert "This question fits both games" in out
    else:  # the closest three show both games' entries
        assert result.other_game.id in out and result.best.id in out
    from kbg_cli.explain_cmd import Args, render  # an answer that is sure names the other game's entry

    render(result, Args(), lookup, lambda g, k: k, "en").show()
    other = games()[result.other_game.entry["game"]]["name"]  # either game's FAQ entry may come first
    assert f"This question fits both games. In {other}: {result.other_game.id}" in capsys.readouterr().out


def test_card_names_with_typos_and_their_faq() -> None:
    assert search("armour plating").best.id == "kot.card.armor-plating"
    assert search("psychic prob").best.id in ("kot.card.psychic-probe", "kot.faq.psychic-probe")
    top = [h.id for h in search("does It Has a Child let you keep your energy").hits[:2]]
    assert set(top) == {"kot.card.it-has-a-child", "kot.faq.it-has-a-child"}  # the card, and the FAQ about it


def test_entries_of_an_edition_wait_until_it_is_named() -> None:
    assert not search("can I heal in tokyo").best.id.startswith(("kot.godzilla", "kot.dark", "kot.tile"))
    assert search("wickedness tiles").best.entry["id"].startswith(("kot.dark", "kot.faq", "kot.tile"))


# --------------------------------------------------------------------------- confidence and debugging


@pytest.mark.parametrize("query", ["flux capacitor warp drive", "what is the airspeed of an unladen swallow",
                                   "zzzz qqqq", "how do I bake bread", "who won the world cup"])
def test_questions_about_nothing_in_the_rules_are_not_answered(query: str, capsys: pytest.CaptureFixture[str]) -> None:
    result = search(query)
    assert not result.confident and result.coverage == 0
    assert run([query]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Nothing in kbg's rules answers") and out.count("\n  ") <= 3


def test_a_weak_match_shows_the_closest_three(capsys: pytest.CaptureFixture[str]) -> None:
    result = search("best pizza in tokyo")
    assert not result.confident and result.coverage > 0
    assert run(["best pizza in tokyo"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("kbg is not sure which rule") and out.count("\n  ") == 3
    assert run(["best pizza in tokyo", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["confident"] is False and len(data["candidates"]) >= 2


def test_debug_shows_why(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--debug", "does poison stack"]) == 0
    out = capsys.readouterr().out
    assert "terms: ~poison" in out and "  kot.faq.poison-stacks\n" in out and "~poison " in out
    assert "second stage: " in out and "first stage: =phrase" in out
    assert run(["--debug", "--json", "does poison stack"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "~poison" in data["debug"]["terms"] and data["debug"]["why"]["kot.faq.poison-stacks"]
    assert data["debug"]["features"]["kot.faq.poison-stacks"] and 0.9 <= data["confidence"] <= 1


# --------------------------------------------------------------------------- the real-players corpus


def test_real_corpus_is_well_formed() -> None:
    assert len(REAL["test"]) >= 100 and len(REAL["test"]) + len(REAL["dev"]) >= 250
    seen = set()
    for part, items in REAL.items():
        for q in items:
            assert q["lang"] in LANGS and q["game"] in ("kingdomino", "king-of-tokyo") and q["kind"] in (
                "question", "statement")
            assert q["source"].startswith("http") and q["answer"] and q["expect"], q
            for e in q["expect"]:
                assert lookup(e) is not None, (part, e)
            assert q["q"] not in seen
            seen.add(q["q"])


def hit_rates(items: list[dict[str, object]]) -> tuple[float, float]:
    h1 = h3 = 0
    for q in items:
        ids = [h.id for h in search(str(q["q"])).hits[:3]]
        expect = q["expect"]
        assert isinstance(expect, list)
        h1 += bool(ids) and ids[0] in expect
        h3 += any(i in expect for i in ids)
    return h1 / len(items), h3 / len(items)


def test_real_test_part_does_not_regress() -> None:
    """Floors just under the figures docs/explain.md reports; raise them when the figures rise."""
    h1, h3 = hit_rates(REAL["test"])
    assert h1 >= 0.47 and h3 >= 0.70, (h1, h3)


def test_a_reader_that_goes_away_is_not_an_error() -> None:
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "from kbg_cli.entry import main; raise SystemExit(main())",
                             "explain", "--debug", "can I heal in tokyo"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before kbg writes anything
    err = proc.stderr.read()
    assert proc.wait() == 0 and err == b""


def test_an_eszett_says_german() -> None:
    """casefold() writes ß as "ss", so the sign was looked for after it was gone (found while porting
    the search to JavaScript); ẞ, the capital, says German too."""
    from kbgrules.explain.text import detect_language

    assert detect_language("Maß")[0] == detect_language("MAẞ")[0] == "de"
    assert detect_language("Mass") == ("en", False)


@given(st.dictionaries(st.text(st.characters(blacklist_characters="\t\n", blacklist_categories=("Cs",)), max_size=6),
                       st.text(st.characters(blacklist_characters="\n", blacklist_categories=("Cs",)), max_size=4),
                       max_size=40),
       st.lists(st.text(max_size=6), max_size=20))
def test_a_packed_table_finds_what_a_dict_finds(table: dict[str, str], probes: list[str]) -> None:
    """Packed looks keys up by binary search over its sorted lines: the same answers as the dict."""
    from kbgrules.explain.packed import Packed

    packed = Packed(Packed.pack(table))
    for key in [*table, *probes]:
        assert packed.get(key) == table.get(key) and (key in packed) == (key in table)
    assert len(packed) == len(table) and dict(packed.items()) == table


@given(st.text("abcdé한", max_size=9), st.text("abcdé한", max_size=9), st.integers(0, 4))
def test_bounded_edits_are_exact_within_the_bound(a: str, b: str, limit: int) -> None:
    """``edits(a, b, limit)`` stops once every alignment costs more than ``limit`` (explain's name
    matching: 16 -> 8 ms a question); within the bound it is the exact count."""
    full, bounded = edits(a, b), edits(a, b, limit)
    assert bounded == full if full <= limit else bounded > limit


def test_games_and_their_names_come_from_the_rule_data() -> None:
    """explain names no game: ids, aliases, names in other languages and entry prefixes are each game's
    game.yaml (issue 23)."""
    from kbgrules.explain import game_id

    info = games()
    assert {g: i["short"] for g, i in info.items()}.items() >= {"kingdomino": "kd", "king-of-tokyo": "kot"}.items()
    assert game_id("King_Domino") == "kingdomino" and game_id("킹오브도쿄") == "king-of-tokyo"
    assert game_id("chess") is None
    assert game_name(info, "king-of-tokyo", "ko") == "킹 오브 도쿄"


def test_an_entry_found_by_its_number_takes_its_games_words_only() -> None:
    for q in ("37", "#37", "domino 37", "tile 37", "Domino #37"):
        assert search(q).best.id == "kd.domino.37", q
        assert search(q).confident
    assert search("card 37").best.id != "kd.domino.37" or not search("card 37").confident
