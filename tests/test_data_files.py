"""The shipped rule data: every file valid, every edition/variant combination valid and consistent."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import kbgrules
from kbgrules.core.data import data_root, resolve
from kbgrules.core.datafiles import shipped_files
from kbgrules.core.effective import validate_effective
from kbgrules.core.schema import validate_document

ROOT = data_root()
FILES = shipped_files(str(ROOT))


@pytest.mark.parametrize("f", FILES, ids=lambda f: f.doc.file)
def test_shipped_file_is_valid(f: object) -> None:
    doc = f.doc  # type: ignore[attr-defined]
    assert doc.diagnostics == []
    assert validate_document(doc, ROOT / "schema") == []


def test_every_yaml_file_is_loaded() -> None:
    on_disk = {p for p in ROOT.rglob("*.yaml")}
    assert len(on_disk) == len(FILES) >= 14


def _combinations() -> list[tuple[str, str, tuple[str, ...]]]:
    out = []
    for g in kbgrules.games():
        for e in g.editions:
            vids = [v.id for v in g.variants if not v.editions or e.id in v.editions]
            for n in range(min(len(vids), 2) + 1):  # every variant alone and every pair
                for combo in itertools.combinations(vids, n):
                    out.append((g.id, e.id, combo))
    return out


@pytest.mark.parametrize("game,edition,variants", _combinations())
def test_every_combination_is_valid(game: str, edition: str, variants: tuple[str, ...]) -> None:
    validate_effective(resolve(game, edition, variants))
    rs = kbgrules.load(game, edition=edition, variants=variants)
    for r in rs.rules.values():
        assert set(r.related) <= set(rs.rules), r.id
        assert r.sources and all(s.doc in rs.documents for s in r.sources), r.id
    for card in getattr(rs, "cards", ()):
        assert all(s.doc in rs.documents for s in card.sources), card.id


def test_rule_ids_carry_the_game_prefix() -> None:
    for gid, prefix in (("kingdomino", "kd."), ("king-of-tokyo", "kot.")):
        rs = kbgrules.load(gid)
        assert rs.rules and all(rid.startswith(prefix) for rid in rs.rules)


@pytest.mark.parametrize("rule_id", [
    "kd.place.connect", "kd.place.castle", "kd.place.size", "kd.place.discard", "kd.score.property",
    "kd.score.tiebreak", "kd.turn.order", "kd.turn.last-round", "kd.setup.players",
    "kot.tokyo.yield", "kot.tokyo.enter", "kot.roll.count", "kot.resolve.numbers", "kot.resolve.heal",
    "kot.end.victory", "kot.buy.sweep", "kot.life.max", "kot.variant.two-player",
])
def test_core_rule_ids_exist(rule_id: str) -> None:
    rs = kbgrules.load("kd" if rule_id.startswith("kd.") else "kot")
    entry = rs.rule(rule_id)
    assert len(entry.text) > 40 and entry.title


def test_editions_change_rule_texts() -> None:
    first = kbgrules.load("kd").rule("kd.score.tiebreak").text
    second = kbgrules.load("kd", edition="second").rule("kd.score.tiebreak").text
    assert first != second and "crown" in first.lower()
    assert "kd.setup.three-player-leftover" in kbgrules.load("kd", edition="second").rules
    assert "kd.setup.three-player-leftover" not in kbgrules.load("kd").rules


def test_conflicts_are_recorded() -> None:
    kd = kbgrules.load("kd")
    for rid in ("kd.place.no-voluntary-discard", "kd.variant.middle-kingdom", "kd.variant.harmony"):
        assert kd.rule(rid).conflict
    kot = kbgrules.load("kot")
    for rid in ("kot.tokyo.take-vacated", "kot.buy.deck-exhausted", "kot.end.shared-win"):
        assert kot.rule(rid).conflict


def test_overlays_do_not_copy_the_base() -> None:
    """An overlay patches only what changes: none repeats a whole base section."""
    for f in FILES:
        if f.kind not in ("edition", "variant"):
            continue
        patch = f.data["patch"]
        assert "dominoes" not in patch and "documents" not in patch
        assert len(patch.get("cards", {})) < 30
        if "setup" in patch:
            base = next(g for g in FILES if g.kind == "game" and g.data["id"] == f.data["game"])
            assert set(patch["setup"]) < set(base.data["setup"]), f.doc.file


def test_schemas_are_draft_2020_12() -> None:
    import json

    for p in sorted(Path(ROOT / "schema").glob("*.json")):
        s = json.loads(p.read_text())
        assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema", p.name


def test_compiled_data_is_current() -> None:
    """rules_data/compiled/GAME.json (fast start-up) matches the YAML: rebuild with python -m kbgrules.core.datafiles
    --build. Each game's directory is named by its id (a load by id reads that directory only)."""
    from kbgrules.core.datafiles import COMPILED, compiled_text, game_dirs, shipped_files
    from kbgrules.core.paths import data_root

    root = data_root()
    games = game_dirs(str(root))
    assert games == ("king-of-tokyo", "kingdomino")
    assert sorted(p.name for p in (root / COMPILED).iterdir()) == [f"{g}.json" for g in games]
    for g in games:
        assert (root / COMPILED / f"{g}.json").read_text(encoding="utf-8") == compiled_text(g), \
            "stale: run python -m kbgrules.core.datafiles --build"
        assert [f.data["id"] for f in shipped_files(str(root), game=g) if f.kind == "game"] == [g]


def test_compiled_data_gives_the_same_rules() -> None:
    from kbgrules.core.datafiles import shipped_files
    from kbgrules.core.paths import data_root

    fast = {f.doc.file: f.data for f in shipped_files(str(data_root()))}
    slow = {f.doc.file: f.data for f in shipped_files(str(data_root()), marks=True)}
    assert fast == slow and len(fast) >= 29
