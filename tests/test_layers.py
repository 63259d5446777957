"""The import graph of kbgrules and kbg_cli, read with ``ast``: no circle, and no arrow back up the layers.

Every ``import`` counts, at module level or inside a function; imports under ``if TYPE_CHECKING:`` count
for the layers (a type is a dependency too) but not for circles (they never run).
Layers, lowest first: ``kbgrules.errors`` < ``kbgrules.core`` < the games and ``kbgrules.explain`` <
the top package ``kbgrules`` < ``kbg_cli``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"kbgrules": ROOT / "kbgrules", "kbg_cli": ROOT / "cli" / "kbg_cli"}
GAMES = ("kbgrules.kingdomino", "kbgrules.king_of_tokyo")


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for top, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [top, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, typing_only: bool = False) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement under ``tree``, and whether it sits under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, typing_only
        elif isinstance(node, ast.If) and _type_checking(node.test):
            for child in node.body:
                yield from _imports(ast.Module(body=[child], type_ignores=[]), True)
            for child in node.orelse:
                yield from _imports(ast.Module(body=[child], type_ignores=[]), typing_only)
        else:
            yield from _imports(node, typing_only)


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The project modules one import statement loads (a name imported from a package is its submodule
    when there is one, else the package itself)."""
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names if a.name in MODULES)
        return
    base = node.module or ""
    if node.level:
        anchor = module if _is_package(module) else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            anchor = anchor.rpartition(".")[0]
        base = f"{anchor}.{base}" if base else anchor
    if base not in MODULES:
        return
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        yield sub if sub in MODULES else base


@cache
def _arrows() -> dict[str, frozenset[tuple[str, bool]]]:
    """Each module's imports of project modules, and whether each is for the type checker only."""
    arrows: dict[str, frozenset[tuple[str, bool]]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        arrows[name] = frozenset((t, typing_only) for node, typing_only in _imports(tree)
                                 for t in _targets(name, node) if t != name)
    return arrows


def _graph(run_time_only: bool) -> dict[str, set[str]]:
    return {m: {t for t, typing_only in ts if not (run_time_only and typing_only)} for m, ts in _arrows().items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of the graph (its modules, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def _layer(module: str) -> int:
    if module.startswith("kbg_cli"):
        return 4
    if module == "kbgrules":
        return 3
    if module.startswith(("kbgrules.core", "kbgrules.errors")):
        return 1 if module.startswith("kbgrules.core") else 0
    return 2  # the games, explain, and the helpers beside them (kbgrules.dask)


def _family(module: str) -> str:
    """The package a module of the middle layer belongs to: a game's or explain's."""
    return ".".join(module.split(".")[:2])


KNOWN_UPWARD: set[tuple[str, str]] = set()  # arrows still to go: none
KNOWN_CROSSING: set[tuple[str, str]] = set()


def test_the_graph_is_read() -> None:
    """The reader sees the arrows it must: a relative import, a function-level one, a typing-only one."""
    graph = _graph(run_time_only=False)
    assert "kbg_cli.render" in graph["kbg_cli.app"]  # `from . import render`
    assert "kbgrules.core.registry" in graph["kbgrules.core.load"]  # inside a function
    assert "kbgrules.core.setup" in graph["kbgrules.core.registry"]  # under TYPE_CHECKING
    assert "kbgrules.core.setup" not in _graph(run_time_only=True)["kbgrules.core.registry"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("run_time_only", [True, False], ids=["run-time", "with-typing"])
def test_no_import_circle(run_time_only: bool) -> None:
    cycle = _cycle(_graph(run_time_only))
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_no_arrow_runs_back_up() -> None:
    upward = {(m, t) for m, ts in _graph(run_time_only=False).items() for t in ts if _layer(t) > _layer(m)}
    assert sorted(upward - KNOWN_UPWARD) == [], "arrows back up"
    assert sorted(KNOWN_UPWARD - upward) == [], "gone: take them off KNOWN_UPWARD"


def test_the_core_names_no_game_and_no_room_above() -> None:
    graph = _graph(run_time_only=False)
    for module in (m for m in MODULES if m.startswith("kbgrules.core")):
        above = {t for t in graph[module] if t == "kbgrules" or t.startswith((*GAMES, "kbgrules.explain", "kbg_cli"))}
        assert not above, f"{module} imports {sorted(above)}"


def test_games_and_explain_do_not_reach_each_other() -> None:
    graph = _graph(run_time_only=False)
    middle = [m for m in MODULES if _layer(m) == 2]
    crossing = {(m, t) for m in middle for t in graph[m] if _layer(t) == 2 and _family(t) != _family(m)}
    assert sorted(crossing - KNOWN_CROSSING) == []
    assert sorted(KNOWN_CROSSING - crossing) == [], "gone: take them off KNOWN_CROSSING"


def test_the_library_never_imports_the_cli() -> None:
    graph = _graph(run_time_only=False)
    assert not [(m, t) for m in MODULES if m.startswith("kbgrules") for t in graph[m] if t.startswith("kbg_cli")]


CORE_KINDS = {"rule", "faq", "component", "edition", "variant", "option"}  # every game's entries


def _game_words() -> dict[str, str]:
    """Every registered game's ids, aliases, entry prefix, own tables and log tags -> the game."""
    import kbgrules
    from kbgrules.core.data import catalog, data_root
    from kbgrules.core.registry import engine_for

    words: dict[str, str] = {}
    for gid, gf in catalog().games.items():
        d = gf.game.data
        for w in (gid, d.get("short"), *(d.get("aliases") or ()), *(d.get("log_headers") or {})):
            if isinstance(w, str):
                words[w.casefold()] = gid
        for _, _, kinds in engine_for(d).reference_pages:  # the kinds of its own entries
            words.update(dict.fromkeys(set(kinds) - CORE_KINDS, gid))
        for p in (data_root() / "schema").glob(f"{gid}.*.schema.json"):
            kind = p.name.split(".")[1]
            if kind != "game":
                words[kind] = gid
    assert {g.id for g in kbgrules.games()} <= set(words.values())
    return words


# the folders that must not know any game (their strings and names in code; prose may give examples)
NEUTRAL = ("kbgrules.core", "kbgrules.explain", "kbg_cli")


def _code_words(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """The string constants (docstrings left out) and the names of ``tree``, as words."""
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            for w in n.value.replace("_", "-").split():
                yield n.lineno, w.strip(".,:;()[]{}'\"`*#@!?").casefold()
        elif isinstance(n, ast.Name | ast.Attribute):
            name = n.id if isinstance(n, ast.Name) else n.attr
            yield n.lineno, name.replace("_", "-").casefold()


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith(NEUTRAL)))
def test_the_neutral_layers_name_no_game(module: str) -> None:
    """The core, explain and the CLI hold no game's id, alias, entry prefix, table or log tag in
    their code: what they know of a game comes from its data and its engine."""
    words = _game_words()
    found = sorted({w for _, w in _code_words(ast.parse(MODULES[module].read_text(encoding="utf-8")))
                    if w in words})
    assert not found, f"{module} names {found}"
