"""kbgrules.load / games: names, errors with codes, immutability, user rule directories."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import kbgrules
from kbgrules import DataError, KbgError, PlayerCountError, UnknownNameError, VariantConflictError

WriteRules = Callable[[str, str], Path]


@pytest.mark.parametrize("name,gid", [
    ("kingdomino", "kingdomino"), ("KD", "kingdomino"), ("King Domino", "kingdomino"),
    ("king-of-tokyo", "king-of-tokyo"), ("kot", "king-of-tokyo"), ("King of Tokyo", "king-of-tokyo"),
    ("KING_OF_TOKYO", "king-of-tokyo"), ("킹도미노", "kingdomino"),
])
def test_game_aliases(name: str, gid: str) -> None:
    assert kbgrules.load(name).game.id == gid


@pytest.mark.parametrize("game,name,eid", [
    ("kd", "2nd", "second"), ("kd", "Second", "second"), ("kd", "1st", "first"),
    ("kot", "2011", "2011"), ("kot", "first", "2011"), ("kot", "new", "2016"),
])
def test_edition_aliases(game: str, name: str, eid: str) -> None:
    assert kbgrules.load(game, edition=name).edition.id == eid


def test_defaults_marked() -> None:
    by_id = {g.id: g for g in kbgrules.games()}
    assert {g.id for g in kbgrules.games(plugins=False)} == {"kingdomino", "king-of-tokyo"} <= set(by_id)
    assert by_id["kingdomino"].default_edition.id == "first"
    assert by_id["king-of-tokyo"].default_edition.id == "2016"
    assert {v.id for v in by_id["kingdomino"].variants} >= {"dynasty", "middle-kingdom", "harmony", "mighty-duel"}
    assert (by_id["king-of-tokyo"].min_players, by_id["king-of-tokyo"].max_players) == (2, 6)


def test_unknown_names_suggest() -> None:
    with pytest.raises(UnknownNameError) as info:
        kbgrules.load("kingdomno")
    assert info.value.code == "unknown-game" and info.value.suggestions == ("kingdomino",)
    with pytest.raises(UnknownNameError) as info:
        kbgrules.load("kd", variants=["mighty-dual"])
    assert info.value.code == "unknown-variant" and "mighty-duel" in str(info.value)
    with pytest.raises(UnknownNameError) as info:
        kbgrules.load("kot", edition="origins")
    assert info.value.code == "unknown-edition"


def test_player_counts() -> None:
    for bad in (1, 5, 0):
        with pytest.raises(PlayerCountError) as info:
            kbgrules.load("kd", players=bad)
        assert info.value.code == "player-count"
    with pytest.raises(PlayerCountError, match="2 players"):
        kbgrules.load("kd", variants=["mighty-duel"], players=3)
    with pytest.raises(PlayerCountError):
        kbgrules.load("kot", players=7)
    with pytest.raises(PlayerCountError):
        _ = kbgrules.load("kd").setup  # no player count given


def test_errors_share_one_base() -> None:
    for cls in (DataError, PlayerCountError, UnknownNameError, VariantConflictError):
        assert issubclass(cls, KbgError)


def test_ruleset_is_immutable() -> None:
    rs = kbgrules.load("kd", players=3)
    with pytest.raises(AttributeError):
        rs.players = 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        rs.rules["x"] = rs.rule("kd.place.connect")  # type: ignore[index]
    with pytest.raises(TypeError):
        rs.data["placement"]["kingdom_size"] = 9  # type: ignore[index]
    assert kbgrules.load("kd", players=3).kingdom_size == 5


def test_loads_do_not_leak_into_each_other() -> None:
    assert kbgrules.load("kd", variants=["mighty-duel"], players=2).kingdom_size == 7
    assert kbgrules.load("kd", players=2).kingdom_size == 5
    assert kbgrules.load("kd", edition="second", players=3).setup.dominoes_used == 48
    assert kbgrules.load("kd", players=3).setup.dominoes_used == 36


def test_import_stays_light() -> None:
    code = ("import sys, kbgrules; kbgrules.load('kd', players=3); "
            "bad = [m for m in ('typer', 'rich', 'jsonschema', 'click') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --------------------------------------------------------------------------- user data

HOUSE = """\
kind: variant
game: kingdomino
id: big-kingdom
title: Big kingdoms
aliases: [big]
summary: 6x6 kingdoms with 3 or 4 players (a house rule).
players: [3, 4]
sources: [{doc: R1, section: Connecting dominoes}]
patch:
  placement:
    kingdom_size: 6
  rules:
    kd.house.big-kingdom:
      title: Big kingdoms
      text: House rule. Kingdoms may grow to 6x6; everything else is unchanged.
      sources: [{doc: R1, section: Connecting dominoes}]
"""


def test_user_variant(write_rules: WriteRules) -> None:
    d = write_rules("house.yaml", HOUSE)
    rs = kbgrules.load("kd", variants=["big"], players=4, rules_dirs=[d])
    assert rs.kingdom_size == 6 and rs.rule("kd.house.big-kingdom").title == "Big kingdoms"
    assert any(v.id == "big-kingdom" and v.file for v in kbgrules.games([d])[1].variants)
    assert kbgrules.load("kd", players=4).kingdom_size == 5  # shipped data untouched
    with pytest.raises(PlayerCountError):
        kbgrules.load("kd", variants=["big"], players=2, rules_dirs=[d])


def test_user_loads_for_each_count_share_one_validated_build(write_rules: WriteRules,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules do not depend on the player count: with user data, as with the shipped data, each count
    is checked and the validated build is shared (`kbg --rules DIR site` loads every count: 3.7 s -> 1.5 s)."""
    from kbgrules.core import effective

    d = write_rules("house.yaml", HOUSE)
    validated: list[int | None] = []
    real = effective.validate_effective
    monkeypatch.setattr(effective, "validate_effective", lambda res: validated.append(res.players) or real(res))
    three = kbgrules.load("kd", variants=["big"], players=3, rules_dirs=[d])
    four = kbgrules.load("kd", variants=["big"], players=4, rules_dirs=[d])
    assert (three.players, four.players) == (3, 4) and three.rules is four.rules and validated == [None]
    with pytest.raises(PlayerCountError):
        kbgrules.load("kd", variants=["big"], players=2, rules_dirs=[d])


def test_user_rules_file_extends_rules(write_rules: WriteRules) -> None:
    d = write_rules("extra.yaml", """\
kind: rules
game: king-of-tokyo
rules:
  kot.house.no-sweep:
    title: No sweeping
    text: Our table never sweeps the market.
    sources: [{doc: DZ, section: Power Cards}]
""")
    rs = kbgrules.load("kot", rules_dirs=[d])
    assert "kot.house.no-sweep" in rs.rules and "kot.tokyo.yield" in rs.rules


def _data_error(d: Path, **kw: object) -> list[str]:
    with pytest.raises(DataError) as info:
        kbgrules.load("kd", rules_dirs=[d], **kw)  # type: ignore[arg-type]
    return [str(x) for x in info.value.diagnostics]


def test_user_schema_errors_have_positions(write_rules: WriteRules) -> None:
    d = write_rules("bad.yaml", HOUSE.replace("title: Big kingdoms\naliases", "titel: Big kingdoms\naliases"))
    lines = _data_error(d)
    assert any(x.endswith(":4:1: error schema: unknown key 'titel'; did you mean 'title'?") for x in lines), lines
    assert any("error schema: 'title' is required" in x for x in lines)


def test_number_where_string_belongs(write_rules: WriteRules) -> None:
    d = write_rules("bad.yaml", HOUSE.replace("section: Connecting dominoes}]\npatch", "section: 1.10}]\npatch"))
    (line,) = _data_error(d)
    assert ":8:" in line and '"1.10"' in line


def test_yaml11_boolean_and_duplicate_key(write_rules: WriteRules) -> None:
    d = write_rules("bad.yaml", HOUSE.replace("kingdom_size: 6", "kingdom_size: 6\n    castle_wild: no")
                    .replace("id: big-kingdom", "id: big-kingdom\nid: again"))
    lines = _data_error(d)
    assert any(":4:1: error duplicate-key" in x and "first at line 3" in x for x in lines)
    assert any(":13:18: error yaml11-boolean" in x for x in lines)


def test_overlay_value_error_points_into_the_overlay(write_rules: WriteRules) -> None:
    d = write_rules("house.yaml", HOUSE.replace("kingdom_size: 6", "kingdom_size: huge"))
    lines = _data_error(d, variants=["big"])
    assert lines == [f"{d / 'house.yaml'}:11:19: error schema: 'huge' is not of type 'integer'"]


def test_overlay_unknown_section(write_rules: WriteRules) -> None:
    d = write_rules("house.yaml", HOUSE.replace("  placement:\n", "  placment:\n"))
    (line,) = _data_error(d, variants=["big"])
    assert line.endswith(":10:3: error schema: unknown key 'placment'; did you mean 'placement'?"), line
    d = write_rules("house.yaml", HOUSE.replace("  placement:\n", "  zzz:\n"))
    (line,) = _data_error(d, variants=["big"])
    assert ":10:3: error schema: unknown key 'zzz'; allowed here: " in line  # nothing close: the allowed keys


@pytest.mark.parametrize("text,code", [
    ("kind: game\nid: chess\n", "user-kind"),
    ("kind: variant\ngame: chess\nid: x\ntitle: x\nsummary: x\nsources: [{doc: A, section: b}]\npatch: {}\n",
     "unknown-game"),
    ("kind: spell\n", "unknown-kind"),
    ("- a list\n", "schema"),
    ("a: !!python/name:os.system x\n", "custom-tag"),
    ("kind: variant\n" + "x: " + "[" * 60 + "]" * 60 + "\n", "too-deep"),
])
def test_bad_user_files(write_rules: WriteRules, text: str, code: str) -> None:
    d = write_rules("f.yaml", text)
    with pytest.raises(DataError) as info:
        kbgrules.load("kd", rules_dirs=[d])
    assert info.value.diagnostics[0].code == code


def test_user_duplicate_of_shipped_variant(write_rules: WriteRules) -> None:
    d = write_rules("dup.yaml", HOUSE.replace("id: big-kingdom", "id: harmony"))
    assert "duplicate-id" in _data_error(d)[0]


def test_binary_user_file_refused(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_bytes(b"\x00\x01\x02binary")
    with pytest.raises(DataError) as info:
        kbgrules.load("kd", rules_dirs=[tmp_path])
    assert info.value.diagnostics[0].code == "binary-file"


def test_missing_user_dir(tmp_path: Path) -> None:
    with pytest.raises(DataError) as info:
        kbgrules.load("kd", rules_dirs=[tmp_path / "nope"])
    assert info.value.diagnostics[0].code == "no-such-directory"


def test_user_files_are_not_modified(write_rules: WriteRules) -> None:
    d = write_rules("house.yaml", HOUSE)
    before = (d / "house.yaml").read_bytes()
    kbgrules.load("kd", variants=["big"], players=3, rules_dirs=[d])
    assert (d / "house.yaml").read_bytes() == before


def test_user_references_are_checked(write_rules: WriteRules) -> None:
    text = HOUSE.replace("text: House rule.", "related: [kd.nowhere]\n      text: House rule.")
    text = text.replace("      sources: [{doc: R1, section: Connecting dominoes}]\n",
                        "      sources: [{doc: NOPE, section: x}]\n")
    d = write_rules("house.yaml", text)
    lines = _data_error(d, variants=["big"])
    assert any("unknown-rule" in x and "kd.nowhere" in x for x in lines)
    assert any("unknown-document" in x and "'NOPE'" in x for x in lines)


def test_user_entry_replaces_shipped_entry_whole(write_rules: WriteRules) -> None:
    d = write_rules("cards.yaml", """\
kind: cards
game: king-of-tokyo
cards:
  acid-attack:
    name: Acid Attack
    cost: 5
    type: keep
    effect: Our table's cheaper acid.
    effects: [{when: resolve, add_smash: 1}]
    sources: [{doc: BGA, section: house}]
""")
    card = kbgrules.load("kot", rules_dirs=[d]).card("acid-attack")
    assert (card.cost, card.clarification) == (5, None)


def test_same_directory_twice_is_read_once(write_rules: WriteRules) -> None:
    d = write_rules("house.yaml", HOUSE)
    assert kbgrules.load("kd", variants=["big"], rules_dirs=[d, d, str(d) + "/"]).kingdom_size == 6


def test_overlay_quoting_hint_and_forbidden_section(write_rules: WriteRules) -> None:
    d = write_rules("house.yaml", HOUSE.replace(
        "      sources: [{doc: R1, section: Connecting dominoes}]\n",
        "      sources: [{doc: R1, section: 1.10}]\n"))
    (line,) = _data_error(d, variants=["big"])
    assert 'write "1.10"' in line
    d = write_rules("house.yaml", HOUSE.replace("  placement:\n", "  documents: {}\n  placement:\n"))
    (line,) = _data_error(d)
    assert "'documents' is not allowed here" in line


def test_errors_sorted_by_line(write_rules: WriteRules) -> None:
    d = write_rules("house.yaml", HOUSE.replace("summary:", "sumary:").replace("title: Big kingdoms\naliases",
                                                                              "title: 5\naliases"))
    lines = _data_error(d)
    numbers = [int(x.split(":")[1]) for x in lines]
    assert numbers == sorted(numbers) and len(numbers) >= 2


def test_an_overlay_that_rewrites_a_rule_drops_its_old_translations() -> None:
    base = kbgrules.load("kot").rule("kot.tokyo.enter")
    first = kbgrules.load("kot", edition="2011").rule("kot.tokyo.enter")
    assert base.translations and first.text != base.text
    assert first.translations != base.translations


def test_an_overlay_that_retitles_a_rule_drops_its_old_title_translations() -> None:
    base = kbgrules.load("kot").rule("kot.turn.phases")
    first = kbgrules.load("kot", edition="2011").rule("kot.turn.phases")
    assert base.title_translations["de"] == "Die fünf Phasen eines Zuges"
    assert first.title != base.title and not first.title_translations  # "The four steps": the old titles are wrong
    kept = kbgrules.load("kot", edition="2011").rule("kot.tokyo.yield")  # not rewritten: keeps them
    assert kept.title_translations == kbgrules.load("kot").rule("kot.tokyo.yield").title_translations


def test_loading_every_combination_leaves_the_shared_base_data_untouched() -> None:
    """Loads share the cached base tree below its top level (no deep copy); nothing may write into it."""
    import copy

    from kbgrules.core.effective import _base_tree_cached
    from kbgrules.core.paths import data_root

    games = ("kingdomino", "king-of-tokyo")
    before = {g: copy.deepcopy(_base_tree_cached(str(data_root()), g)) for g in games}
    loaded = 0
    for info in kbgrules.games():
        for ed in info.editions:
            for n in range(1, 7):
                for vs in [(), *((v.id,) for v in info.variants)]:
                    try:
                        kbgrules.setup_sheet(kbgrules.load(info.id, edition=ed.id, variants=vs, players=n))
                        loaded += 1
                    except kbgrules.KbgError:
                        pass
    assert loaded > 20
    assert all(_base_tree_cached(str(data_root()), g) == before[g] for g in games)


def test_a_user_folder_checked_once_is_read_as_it_is_while_it_stays_the_same(
        write_rules: WriteRules, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`--rules` is checked in full once; later runs with the same files (same bytes, same kbg) read them
    without checking them again, as the plug-in games' files are; a change, or KBG_NO_CACHE=1, checks
    them anew, and a bad file is reported at its line every time."""
    from kbgrules.core import data, effective, schema

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KBG_NO_CACHE", raising=False)
    checks: list[str] = []
    real_doc, real_tree = schema.validate_document, effective.validate_effective
    d = write_rules("house.yaml", HOUSE)

    def check_doc(doc: Any, roots: Any) -> Any:
        if doc.file.startswith(str(d)):  # the user's file (a plug-in game's are checked once, cached)
            checks.append("file")
        return real_doc(doc, roots)

    monkeypatch.setattr(schema, "validate_document", check_doc)
    monkeypatch.setattr(effective, "validate_effective", lambda res: checks.append("tree") or real_tree(res))

    def resolve() -> list[str]:
        checks.clear()
        res = data.resolve("kd", None, ["big"], 4, [d])
        assert res.tree["placement"]["kingdom_size"] == 6
        return sorted(set(checks))

    assert resolve() == ["file", "tree"]
    assert resolve() == []  # the same files: nothing checked again
    assert [g.id for g in kbgrules.games([d])] and checks == []
    (d / "house.yaml").write_text(HOUSE.replace("6x6 kingdoms", "Six by six kingdoms"), encoding="utf-8")
    assert resolve() == ["file", "tree"]
    monkeypatch.setenv("KBG_NO_CACHE", "1")
    assert resolve() == ["file", "tree"]
    monkeypatch.delenv("KBG_NO_CACHE")
    (d / "house.yaml").write_text(HOUSE.replace("kingdom_size: 6", "kingdom_size: many"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DataError) as exc:
            data.resolve("kd", None, ["big"], 4, [d])
        assert [(x.file.endswith("house.yaml"), x.line) for x in exc.value.diagnostics] == [(True, 11)]
