"""One load's effective rule tree: the edition and variants named, the game's files merged (base data, then the
edition and the variants as JSON merge patches), the player count checked, and the tree validated against the
game's schema, each problem traced back to the file that set the value."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kbgrules.core.closest import closest
from kbgrules.core.datafiles import (
    OVERLAYS,
    Catalog,
    DataFile,
    GameFiles,
    game_dirs,
    normalize,
    schema_roots,
    shipped_catalog,
)
from kbgrules.core.paths import data_root
from kbgrules.core.value import Value
from kbgrules.core.words import plural
from kbgrules.core.yamlsafe import YamlDocument, YamlPath
from kbgrules.errors import DataError, Diagnostic, PlayerCountError, UnknownNameError, VariantConflictError

# --------------------------------------------------------------------------- name lookup


def _names(fid: str, data: dict[str, Any], *extra: str) -> list[str]:
    return [fid, *extra, *(str(a) for a in data.get("aliases", ()) or ())]


def _lookup(kind: str, query: str, table: dict[str, list[str]]) -> str:
    q = normalize(query)
    for key, names in table.items():
        if any(normalize(n) == q for n in names):
            return key
    everything = {normalize(n): key for key, names in table.items() for n in names}
    close = closest(q, everything, n=3, cutoff=0.7)
    suggestions = list(dict.fromkeys(everything[c] for c in close))
    raise UnknownNameError(kind, query, sorted(table), suggestions)


def resolve_game(cat: Catalog, name: str) -> str:
    return _lookup("game", name, {gid: _names(gid, gf.game.data, str(gf.game.data.get("name", "")))
                                  for gid, gf in cat.games.items()})


def knows_game(cat: Catalog, name: str) -> bool:
    """Whether a game of ``cat`` goes by ``name`` (its id, its name or an alias), as :func:`resolve_game` reads it."""
    q = normalize(name)
    return any(normalize(n) == q for gid, gf in cat.games.items()
               for n in _names(gid, gf.game.data, str(gf.game.data.get("name", ""))))


def _edition_table(gf: GameFiles) -> dict[str, list[str]]:
    base = gf.game.data["base_edition"]
    table = {str(base["id"]): _names(str(base["id"]), base)}
    for eid, f in gf.editions.items():
        table[eid] = _names(eid, f.data)
    return table


def _variant_table(gf: GameFiles) -> dict[str, list[str]]:
    return {vid: _names(vid, f.data) for vid, f in gf.variants.items()}


# --------------------------------------------------------------------------- merging


def merge_patch(target: Any, patch: Any) -> Any:
    """JSON merge patch (RFC 7396) semantics: mappings merge, null deletes, anything else replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            result.pop(k, None)
        else:
            result[k] = merge_patch(result.get(k), v)
    return result


@lru_cache(maxsize=8)
def _base_tree_cached(root: str, gid: str) -> dict[str, Any]:
    return _base_tree(shipped_catalog(root, gid if gid in game_dirs(root) else None).games[gid])


def _base_tree(gf: GameFiles, edition: str | None = None) -> dict[str, Any]:
    """The game file plus its parts; with ``edition``, only the parts that file names that edition."""
    tree: dict[str, Any] = {k: v for k, v in gf.game.data.items()} if edition is None else {}
    diags: list[Diagnostic] = []
    for part in gf.parts:
        d = part.data
        if d.get("edition") != edition:
            continue
        section = part.kind
        if isinstance(d.get(section), list):  # a table as a list (numbered pieces): given whole, once
            tree[section] = list(d[section])
            continue
        mapping = d.get(section) or {}
        if section == "aliases":  # players' words per topic; the game's own `aliases` are its names
            section = "words"
        existing = tree.setdefault(section, {})
        for key, value in mapping.items():
            if key in existing and not part.user:
                diags.append(part.doc.diag((section, key), "duplicate-id", f"{section[:-1]} {key!r} defined twice",
                                           key=True))
            existing[key] = value  # a user entry with a shipped id replaces it whole
    if diags:
        raise DataError(diags)
    return tree


@dataclass(repr=False, eq=False)
class Resolved(Value):
    """The effective tree of one load, and how it was made."""

    game_id: str
    files: GameFiles
    edition_id: str
    variant_ids: tuple[str, ...]
    players: int | None
    tree: dict[str, Any]
    applied: list[DataFile]


def _check_players(gid: str, data: dict[str, Any], players: int | None) -> None:
    if players is None:
        return
    lo, hi = int(data["players"]["min"]), int(data["players"]["max"])
    if not lo <= players <= hi:
        raise PlayerCountError(f"{data['name']} is for {lo} to {hi} players, not {players}")


def resolve_files(gf: GameFiles, edition: str | None, variants: Sequence[str], players: int | None,
             validate: bool) -> Resolved:
    gdata = gf.game.data
    gid = str(gdata["id"])
    _check_players(gid, gdata, players)
    base_id = str(gdata["base_edition"]["id"])
    eid = base_id if edition is None else _lookup("edition", edition, _edition_table(gf))
    vids: list[str] = []
    vtable = _variant_table(gf)
    for v in variants:
        vid = _lookup("variant", v, vtable)
        if vid not in vids:
            vids.append(vid)
    applied: list[DataFile] = []
    if eid != base_id:
        applied.append(gf.editions[eid])
    for vid in vids:
        vf = gf.variants[vid]
        vd = vf.data
        title = vd.get("title", vid)
        allowed = vd.get("players")
        if players is not None and allowed and players not in allowed:
            counts = " or ".join([", ".join(map(str, allowed[:-1])), str(allowed[-1])] if len(allowed) > 1
                                 else [str(allowed[0])])
            raise PlayerCountError(f"{title} is played with {counts} players, not {players}")
        eds = vd.get("editions")
        if eds and eid not in eds:
            raise VariantConflictError(f"{title} applies to the {plural(len(eds), 'edition')} {', '.join(eds)}, "
                                       f"not {eid!r}")
        for other in vd.get("conflicts", ()) or ():
            if other in vids:
                raise VariantConflictError(f"{title} cannot be combined with {other!r}")
        applied.append(vf)
    user_involved = any(f.user for f in gf.parts) or any(f.user for f in applied)
    # data no test of ours has checked is validated (a plug-in's, unless plugin_files checked this load)
    checked = user_involved or (gf.plugin is not None and not (gf.game.checked and len(vids) <= 2))
    # the cached tree is shared below its top level: merge_patch copies what it changes
    tree = _base_tree(gf) if checked or gf.plugin is not None else dict(_base_tree_cached(str(data_root()), gid))
    for f in applied:
        for section in f.data.get("replace", ()) or ():
            tree.pop(section, None)
        patch = f.data.get("patch") or {}
        tree = merge_patch(tree, patch)
        for rid, r in (patch.get("rules") or {}).items():  # a new text or title makes the old translations wrong
            if isinstance(r, dict) and rid in tree.get("rules", {}):
                for key, translated in (("text", "translations"), ("title", "title_translations")):
                    if key in r and translated not in r:
                        tree["rules"][rid].pop(translated, None)
    if any(f.data.get("edition") == eid for f in gf.parts):  # parts that belong to this edition only
        tree = merge_patch(tree, _base_tree(gf, eid))
    res = Resolved(gid, gf, eid, tuple(vids), players, tree, applied)
    if players is not None and str(players) not in (tree.get("setup") or {}):
        raise PlayerCountError(f"{gdata['name']} has no setup for {players} players in this edition")
    if checked and validate:
        validate_effective(res)
    return res


# --------------------------------------------------------------------------- validating


def _path_depth(data: Any, path: YamlPath) -> int:
    """How many leading steps of ``path`` exist in ``data``."""
    n = 0
    cur = data
    for step in path:
        in_list = isinstance(cur, list) and isinstance(step, int) and 0 <= step < len(cur)
        if in_list or (isinstance(cur, dict) and step in cur):
            cur = cur[step]
        else:
            break
        n += 1
    return n


def locate(res: Resolved, path: YamlPath, key: bool = False) -> tuple[YamlDocument, YamlPath]:
    """The file and in-file path that produced ``path`` of the effective tree."""
    best: tuple[int, YamlDocument, YamlPath] | None = None
    for f in reversed(res.applied):
        patch = f.data.get("patch") or {}
        depth = _path_depth(patch, path)
        if depth and (best is None or depth > best[0]):
            best = (depth, f.doc, ("patch", *path))
    for f in [res.files.game, *res.files.parts]:
        section = "words" if f.kind == "aliases" else f.kind
        by_id = f.kind not in OVERLAYS and isinstance(f.data.get(f.kind), dict)
        inner = path[1:] if by_id and path[:1] == (section,) else None
        if inner is not None:
            depth = _path_depth(f.data.get(f.kind) or {}, inner) + 1
            cand: YamlPath = (f.kind, *inner)
        else:
            depth = _path_depth(f.data, path)
            cand = path
        if depth and (best is None or depth > best[0]):
            best = (depth, f.doc, cand)
    if best is None:
        return res.files.game.doc, ()
    return best[1], best[2]


def _walk(value: Any, path: YamlPath = ()) -> Iterable[tuple[YamlPath, Any]]:
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, (*path, i))


def check_references(res: Resolved) -> list[Diagnostic]:
    """Every cited document is declared, and every related rule exists."""
    tree = res.tree
    docs = tree.get("documents") or {}
    rules = tree.get("rules") or {}
    out: list[Diagnostic] = []

    def report(path: YamlPath, code: str, message: str) -> None:
        doc, p = locate(res, path)
        out.append(doc.diag(p, code, message))

    for path, value in _walk(tree):
        if len(path) >= 2 and path[-2] == "sources" and isinstance(value, dict):
            key = value.get("doc")
            if isinstance(key, str) and key not in docs:
                report((*path, "doc"), "unknown-document",
                       f"document {key!r} is not declared in {res.game_id}'s documents")
        related = len(path) == 4 and path[0] == "rules" and path[2] == "related"
        if related and isinstance(value, str) and value not in rules:
            report(path, "unknown-rule", f"related rule {value!r} does not exist here")
    for f in res.applied:
        for i, src in enumerate(f.data.get("sources") or ()):
            key = src.get("doc") if isinstance(src, dict) else None
            if isinstance(key, str) and key not in docs:
                out.append(f.doc.diag(("sources", i, "doc"), "unknown-document",
                                      f"document {key!r} is not declared in {res.game_id}'s documents"))
    return out


def validate_effective(res: Resolved) -> None:
    """Validate the effective tree against the game's schema; errors point at the file that set the value."""
    from kbgrules.core.schema import hint, validate_instance

    def loc(path: YamlPath, key: bool, message: str, err: Any) -> Diagnostic:
        doc, p = locate(res, path, key)
        return doc.diag(p, "schema", message + hint(err, doc, p), key=key)

    diags = validate_instance(res.tree, f"{res.game_id}.game.schema.json", schema_roots(res.files.plugin), loc)
    if not diags:
        diags = check_references(res)
    if diags:
        raise DataError(sorted(set(diags), key=lambda d: (d.file, d.line, d.col, d.code, d.message)))
