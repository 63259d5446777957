"""``kbg explain`` knows a game's entries by role, never by the game's own kind names (issue 23).

Each engine declares the role of the kinds of its own entries (``reference_kinds``:
:mod:`kbgrules.core.kinds`); the index keeps them per game, and the ranking, the answer's wording
and the site's search read roles only. Checked three ways: the declarations cover the entries, the
explain code names no game, and renaming every game's own kinds in the index changes no answer.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from kbg_cli.explain_cmd import run
from kbgrules.core.kinds import CORE_KINDS, NAMED_PIECE, PIECE, PIECE_ROLES, is_piece, role
from kbgrules.core.load import games
from kbgrules.core.registry import engine_of
from kbgrules.errors import KbgError
from kbgrules.explain import entries_path, load_index, rank, role_of, search, store
from kbgrules.explain.index import _declared_kinds

ROOT = Path(__file__).resolve().parent.parent
# the code of kbg explain and of the site's search: none of it may name a game or a game's own kind
EXPLAIN_CODE = [*sorted((ROOT / "kbgrules" / "explain").glob("*.py")), ROOT / "kbgrules" / "core" / "kinds.py",
                ROOT / "cli" / "kbg_cli" / "explain_cmd.py", ROOT / "cli" / "kbg_cli" / "explain_strings.py",
                ROOT / "cli" / "kbg_cli" / "web" / "static" / "search.js"]
# the issue's own check, words of the two games' tables and stories included
ISSUE_GREP = re.compile(r"king-of-tokyo|kingdomino|\bkot\b|\bkd\b|dynasty|monsters|power-up|godzilla|domino|"
                        r"wickedness|tokyo|kingdom|\bcard|evolution|\btile|terrain", re.IGNORECASE)
QUESTIONS = ["Armor Plating", "armor platting", "domino 37", "can I heal in tokyo?", "who goes first",
             "does poison stack", "what happens when two dominoes cannot be placed", "forest",
             "wickedness tiles", "can I play an evolution on another player's turn?", "Mimic", "swamp crowns",
             "kann ich in Tokio heilen?", "We played with five. Bob bought Flame Thrower. Can Bob yield now?"]


def _declared() -> dict[str, dict[str, str]]:
    return {g.id: dict(engine_of(g.id).reference_kinds) for g in games()}


def test_each_engine_declares_a_role_for_each_kind_of_its_entries() -> None:
    index = load_index()
    declared = _declared()
    assert declared and any(declared.values())  # a game with no table of its own (a plug-in's) declares none
    for gid, kinds in declared.items():
        assert not set(kinds) & set(CORE_KINDS), gid
        assert set(kinds.values()) <= set(PIECE_ROLES), gid
        carried = {m[2] for m in index["meta"] if m[1] == gid}
        assert carried - set(CORE_KINDS) <= set(kinds), gid  # every kind its engine adds is declared
        assert index["game_info"][gid]["kinds"] == {k: role(k, kinds) for k in sorted(carried)}


def test_the_index_finds_by_name_only_named_pieces() -> None:
    index = load_index()
    view = store.index_view(index)
    named = {int(n) for ns in index["names"].values() for n in ns.split()}
    assert named and {view.role(n) for n in named} == {NAMED_PIECE}
    assert {view.role(n) for n in index["numbered"].values()} == {PIECE}


def test_a_wrong_declaration_is_refused() -> None:
    assert _declared_kinds("g", {"widget": NAMED_PIECE, "gadget": PIECE}) == {"widget": NAMED_PIECE, "gadget": PIECE}
    for bad in ({"rule": PIECE}, {"widget": "faq"}, {"widget": "boss"}):
        with pytest.raises(KbgError) as exc:
            _declared_kinds("g", bad)
        assert exc.value.code == "engine-kinds"


def test_role_of_a_kind() -> None:
    assert role("faq", {}) == "faq" and role("rule", {"rule": PIECE}) == "rule"
    assert role("widget", {"widget": NAMED_PIECE}) == NAMED_PIECE and role("widget", {}) == PIECE
    assert is_piece(NAMED_PIECE) and is_piece(PIECE) and not any(is_piece(k) for k in CORE_KINDS)


def _forbidden_words() -> re.Pattern[str]:
    """Every game's id, aliases, name, id prefix, own kinds (and their plurals) and number words."""
    words: set[str] = set()
    for g in games():
        engine = engine_of(g.id)
        words |= {g.id, g.name, g.short, *g.aliases, *engine.reference_kinds, *engine.number_words}
    alts = sorted((r"\s+".join(map(re.escape, w.split())) for w in words if w), key=len, reverse=True)
    return re.compile(rf"\b(?:{'|'.join(alts)})(?:s|es)?\b", re.IGNORECASE)


@pytest.mark.parametrize("path", EXPLAIN_CODE, ids=lambda p: p.name)
def test_explain_names_no_game(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [(n, m.group(0)) for n, line in enumerate(text.splitlines(), 1)
             for pattern in (_forbidden_words(), ISSUE_GREP) for m in pattern.finditer(line)]
    assert not found, f"{path.relative_to(ROOT)} names a game or a game's own kind: {found}"


def _renamed(index: dict[str, Any]) -> dict[str, Any]:
    """The index with each game's own kinds renamed (``kind-1``, ``kind-2``...): what a third game's
    entries look like to explain."""
    out = copy.copy(index)
    new: dict[tuple[str, str], str] = {}
    out["game_info"] = {}
    for gid, info in index["game_info"].items():
        kinds = {}
        for k, r in info["kinds"].items():
            if k not in CORE_KINDS:
                k = new.setdefault((gid, k), f"kind-{len(new) + 1}")
            kinds[k] = r
        out["game_info"][gid] = {**info, "kinds": kinds}
    out["meta"] = [[i, g, new.get((g, k), k), t] for i, g, k, t in index["meta"]]
    shown = [json.loads(line) for line in Path(entries_path()).read_text(encoding="utf-8").splitlines()]
    out["entries"] = [json.dumps({**e, "kind": new.get((e["game"], e["kind"]), e["kind"])}) for e in shown]
    assert new and out["meta"] != index["meta"]
    return out


def test_renaming_a_games_own_kinds_changes_no_answer(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    shipped = load_index()
    before = [search(q) for q in QUESTIONS]
    renamed = _renamed(shipped)
    for module in (rank, store):  # the ranking, and what the answer reads (role_of, lookup)
        monkeypatch.setattr(module, "load_index", lambda rules_dirs=(): renamed)
    after = [search(q) for q in QUESTIONS]
    for q, b, a in zip(QUESTIONS, before, after, strict=True):
        assert [(h.id, h.score, h.shares) for h in a.hits] == [(h.id, h.score, h.shares) for h in b.hits], q
        assert (a.confidence, a.confident, a.game) == (b.confidence, b.confident, b.game), q
    # an answer's clarification is labelled by role too
    view = store.index_view(renamed)
    piece = next(view.entry(n) for n in range(len(renamed["meta"]))
                 if is_piece(view.role(n)) and view.entry(n).get("conflict"))
    assert piece["kind"].startswith("kind-") and role_of(piece) in PIECE_ROLES
    assert run([piece["id"]]) == 0
    assert "Clarification: " in capsys.readouterr().out
