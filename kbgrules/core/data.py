"""Finding, reading and resolving rule data: base files + edition + variants -> one effective tree.

The games are the shipped ones (``rules_data/``), then the plug-in games of other installed
distributions (:mod:`kbgrules.core.plugins`), each read from its package's ``rules_data`` folder as
shipped data is, but checked against its schemas as it is read (no test suite of ours has seen it).
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from kbgrules.core.closest import closest
from kbgrules.core.paths import data_root
from kbgrules.core.yamlsafe import MAX_BYTES, YamlDocument, YamlPath, parse_bytes
from kbgrules.errors import (
    DataError,
    Diagnostic,
    KbgError,
    PlayerCountError,
    UnknownNameError,
    VariantConflictError,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kbgrules.core.plugins import Plugin

# every game's kinds of file; a game adds its own tables (a kind with a ``GAME.KIND.schema.json``)
COMMON_KINDS = ("edition", "variant", "rules", "faq", "aliases", "glossary")
OVERLAYS = ("game", "edition", "variant")  # the other kinds are parts of a game's base data
MAX_USER_FILES = 500


def normalize(name: str) -> str:
    """Case-, space- and underscore-insensitive form of a name used for lookups."""
    return re.sub(r"[\s_]+", "-", name.strip().casefold())


@dataclass
class DataFile:
    """One parsed YAML file of rule data."""

    doc: YamlDocument
    user: bool
    plugin: Plugin | None = None  # the plug-in game it belongs to (None: shipped or the user's)
    checked: bool = False  # a plug-in game's file whose loads were all checked (see plugin_files)

    @property
    def data(self) -> dict[str, Any]:
        d = self.doc.data
        return d if isinstance(d, dict) else {}

    @property
    def kind(self) -> str:
        return str(self.data.get("kind", ""))


@dataclass
class GameFiles:
    game: DataFile
    parts: list[DataFile] = field(default_factory=list)
    editions: dict[str, DataFile] = field(default_factory=dict)
    variants: dict[str, DataFile] = field(default_factory=dict)

    @property
    def plugin(self) -> Plugin | None:
        """The plug-in this game comes from; None for a shipped game."""
        return self.game.plugin


def _read(path: Path, shown: str, user: bool) -> DataFile:
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_BYTES + 1)  # anything longer is refused without reading it all
    except OSError as exc:
        raise DataError([Diagnostic(shown, 1, 1, "unreadable", exc.strerror or str(exc))]) from None
    return DataFile(parse_bytes(shown, raw), user)


def _yaml_files(root: Path) -> list[Path]:
    files = [p for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()]
    return sorted(p for p in files if "schema" not in p.relative_to(root).parts)


COMPILED = "compiled"  # the shipped YAML files, parsed, one JSON file per game: python -m kbgrules.core.data --build


def _digest(raw: bytes) -> str:
    import hashlib

    return hashlib.blake2b(raw, digest_size=16).hexdigest()


@lru_cache(maxsize=1)
def game_dirs(root: str) -> tuple[str, ...]:
    """The shipped games' directories (each holds a ``game.yaml``; its name is the game's id)."""
    return tuple(sorted(d for d in os.listdir(root) if os.path.isfile(os.path.join(root, d, "game.yaml"))))


@lru_cache(maxsize=6)
def _shipped(root: str, marks: bool = False, game: str | None = None) -> tuple[DataFile, ...]:
    """The shipped files (with ``game``, only that game's directory). Without ``marks``, a file whose
    bytes match the game's compiled JSON is taken from there (no YAML parsing: faster start-up) and
    carries no positions; diagnostics need ``marks``."""
    if game is None:
        return tuple(f for d in game_dirs(root) for f in _shipped(root, marks, d))
    import json

    base = Path(root)
    compiled: dict[str, Any] = {}
    packed = base / COMPILED / f"{game}.json"
    if not marks and packed.is_file():
        compiled = json.loads(packed.read_text(encoding="utf-8"))["files"]
    out = []
    for p in _yaml_files(base / game):
        shown = f"rules_data/{game}/" + p.relative_to(base / game).as_posix()
        entry = compiled.get(shown)
        if entry is not None:
            raw = p.read_bytes()
            if entry["digest"] == _digest(raw):
                out.append(DataFile(YamlDocument(shown, entry["data"]), user=False))
                continue
        f = _read(p, shown, user=False)
        if f.doc.diagnostics:
            raise DataError(f.doc.diagnostics)
        out.append(f)
    return tuple(out)


def compiled_text(game: str, root: Path | None = None) -> str:
    """What ``compiled/GAME.json`` should hold: the digest and parsed data of each of the game's files."""
    import json

    base = root or data_root()
    files = {}
    for f, p in zip(_shipped(str(base), marks=True, game=game), _yaml_files(base / game), strict=True):
        files[f.doc.file] = {"digest": _digest(p.read_bytes()), "data": f.doc.data}
    return json.dumps({"kbg_compiled": 2, "files": files}, ensure_ascii=False, separators=(",", ":")) + "\n"


def build_compiled(root: Path | None = None) -> list[Path]:
    base = root or data_root()
    (base / COMPILED).mkdir(exist_ok=True)
    out = []
    for game in game_dirs(str(base)):
        path = base / COMPILED / f"{game}.json"
        path.write_text(compiled_text(game, base), encoding="utf-8")
        out.append(path)
    return out


def read_user_dir(directory: str | os.PathLike[str], schema_root: Sequence[Path] | None = None) -> list[DataFile]:
    """Read and schema-validate every YAML file in a user's rule directory (or one file); ``schema_root``:
    the schema folders (default: the shipped one; the plug-in games' too where they are installed)."""
    from kbgrules.core.schema import validate_document

    path = Path(directory)
    if path.is_file():
        paths = [path]
    elif path.is_dir():
        paths = _yaml_files(path)
        if len(paths) > MAX_USER_FILES:
            raise DataError([Diagnostic(str(directory), 1, 1, "too-many-files",
                                        f"more than {MAX_USER_FILES} YAML files")])
    elif path.exists():
        raise DataError([Diagnostic(str(directory), 1, 1, "no-such-directory",
                                    "not a directory or a regular file")])
    else:
        raise DataError([Diagnostic(str(directory), 1, 1, "no-such-directory", "no such file or directory")])
    files: list[DataFile] = []
    diags: list[Diagnostic] = []
    roots = schema_roots() if schema_root is None else tuple(schema_root)
    inside = path.resolve() if path.is_dir() else None
    for p in paths:
        if inside is not None and (p.is_symlink() or not p.resolve().is_relative_to(inside) or any(
                (path / q).is_symlink() for q in p.relative_to(path).parents if str(q) != ".")):
            # never read: the error must not quote a file the folder only points at
            diags.append(Diagnostic(str(p), 1, 1, "symlink", "a rule file must lie in its folder: no symbolic links"))
            continue
        f = _read(p, str(p), user=True)
        diags.extend(f.doc.diagnostics)
        if f.doc.data is not None:
            d = f.data
            kind = d.get("kind") if d else None
            if kind == "game" or (isinstance(kind, str) and isinstance(d.get(kind), list)):
                diags.append(f.doc.diag(("kind",), "user-kind",
                                        f"a user rule file may be of kind {', '.join(COMMON_KINDS)} or one of the "
                                        "game's tables given by id; a new game needs code, not only data"))
                continue
            diags.extend(validate_document(f.doc, roots))
        files.append(f)
    if diags:
        raise DataError(sorted(diags, key=lambda d: (d.file, d.line, d.col)))
    return files


def schema_roots(plugin: Plugin | None = None) -> tuple[Path, ...]:
    """The schema folders a game's files are checked against: the shipped one, and a plug-in game's own."""
    base = data_root() / "schema"
    return (base,) if plugin is None else (base, Path(plugin.folder) / "schema")


def plugins() -> tuple[Plugin, ...]:
    """The plug-in games installed (:func:`kbgrules.core.plugins.installed`); one that gives the id of a
    shipped game is refused (:class:`KbgError` ``plugin-clash``)."""
    from kbgrules.core.plugins import installed

    found = installed()
    shipped = game_dirs(str(data_root()))
    for p in found:
        if p.game in shipped:
            raise KbgError(f"the plug-in {p.distribution} gives the game {p.game!r}, which kbg ships: uninstall it, "
                           "or give its game another id (the name of its entry point and the id of its game.yaml)",
                           code="plugin-clash")
    return found


@lru_cache(maxsize=8)
def plugin_files(plugin: Plugin, marks: bool = False) -> tuple[DataFile, ...]:
    """A plug-in game's files (every YAML file below its ``rules_data`` folder but ``schema/``), each
    checked against its schema and all about that game, then every load the game offers (each edition,
    with each variant alone and each pair of variants) checked against the game's schema:
    :class:`DataError` with every problem, each at its file, line and column.

    Once all that passes, the parsed files are kept in the user's cache folder under the digest of their
    bytes (and of kbg's own schemas), so that later runs parse no YAML and check nothing again, as the
    shipped data's compiled JSON spares the shipped games. ``marks``: read the files anew, with the
    positions of their values (the user's rule files need them to be checked against these), the loads
    left to be checked as they are made; so too with ``KBG_NO_CACHE=1``."""
    from kbgrules.core.paths import cache_dir

    raw = _plugin_bytes(plugin)
    folder = None if marks else cache_dir()
    cached = None if folder is None else \
        os.path.join(folder, f"plugin-{plugin.game}-{_plugin_digest(plugin, raw)}.json")
    if cached is not None:
        try:
            with open(cached, encoding="utf-8") as fh:
                stored = json.load(fh)
            return tuple(DataFile(YamlDocument(str(f), d), user=False, plugin=plugin, checked=True)
                         for f, d in stored["files"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
    files = _read_plugin(plugin, raw)
    if cached is not None:
        _check_plugin_loads(plugin, files)
        for f in files:
            f.checked = True
        try:
            os.makedirs(os.path.dirname(cached), exist_ok=True)
            tmp = f"{cached}.{os.getpid()}.tmp"
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump({"kbg_plugin_cache": 1, "files": [[f.doc.file, f.doc.data] for f in files]}, fh,
                          ensure_ascii=False, separators=(",", ":"))
            os.replace(tmp, cached)
        except OSError:  # a read-only home: no cache, the same files
            pass
    return files


def _plugin_bytes(plugin: Plugin) -> list[tuple[str, bytes]]:
    """The path and bytes of each of a plug-in game's YAML and schema files."""
    base = Path(plugin.folder)
    paths = _yaml_files(base)
    if len(paths) > MAX_USER_FILES:
        raise DataError([Diagnostic(str(base), 1, 1, "too-many-files", f"more than {MAX_USER_FILES} YAML files")])
    out = []
    for p in [*paths, *sorted((base / "schema").glob("*.schema.json"))]:
        try:
            with p.open("rb") as fh:
                out.append((str(p), fh.read(MAX_BYTES + 1)))
        except OSError as exc:
            raise DataError([Diagnostic(str(p), 1, 1, "unreadable", exc.strerror or str(exc))]) from None
    return out


def _plugin_digest(plugin: Plugin, raw: list[tuple[str, bytes]]) -> str:
    """What a plug-in game's checked files depend on: their names and bytes, kbg's schemas, and the
    code that reads and checks them (its files' sizes and times)."""
    import hashlib

    h = hashlib.sha256(f"kbg-plugin|1|{plugin.game}|{plugin.package}|{plugin.folder}".encode("utf-8", "replace"))
    for name in ("data.py", "schema.py", "yamlsafe.py", "plugins.py"):
        st = os.stat(os.path.join(os.path.dirname(__file__), name))
        h.update(f"|{name}|{st.st_size}|{st.st_mtime_ns}".encode())
    for p in sorted((data_root() / "schema").glob("*.schema.json")):
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    for shown, data in raw:
        h.update(shown.encode("utf-8", "surrogateescape") + b"\0" + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()[:32]


def _read_plugin(plugin: Plugin, raw: list[tuple[str, bytes]]) -> tuple[DataFile, ...]:
    """Parse and check a plug-in game's files (with the positions of their values)."""
    from kbgrules.core.schema import plugin_schema_problems, validate_document

    base = Path(plugin.folder)
    diags = plugin_schema_problems(plugin.game, base / "schema", str(base / "schema"))
    if diags:
        raise DataError(diags)
    roots = schema_roots(plugin)
    files: list[DataFile] = []
    for shown, data in raw:
        if shown.endswith(".json"):
            continue
        f = DataFile(parse_bytes(shown, data), user=False, plugin=plugin)
        diags.extend(f.doc.diagnostics)
        if f.doc.data is None:
            continue
        found = validate_document(f.doc, roots)
        diags.extend(found)
        key = "id" if f.kind == "game" else "game"
        if not found and f.data.get(key) != plugin.game:
            diags.append(f.doc.diag((key,), "plugin-id", f"the plug-in {plugin.distribution} gives the game "
                                                          f"{plugin.game!r} (its entry point's name): its files are "
                                                          f"about that game, not {f.data.get(key)!r}"))
            continue
        files.append(f)
    if not diags and sum(f.kind == "game" for f in files) != 1:
        diags.append(Diagnostic(str(base / "game.yaml"), 1, 1, "plugin-id",
                                "a plug-in game has exactly one file of kind game"))
    if diags:
        raise DataError(sorted(set(diags), key=lambda d: (d.file, d.line, d.col, d.code, d.message)))
    return tuple(files)


def _check_plugin_loads(plugin: Plugin, files: Sequence[DataFile]) -> None:
    """Check every load of a plug-in game against its schema: each edition, with no variant, each
    variant alone and each pair the rules allow (:class:`DataError` at the first that fails)."""
    from itertools import combinations

    gf = Catalog(files).games[plugin.game]
    for eid in (str(gf.game.data["base_edition"]["id"]), *gf.editions):
        vids = sorted(v for v, f in gf.variants.items() if not f.data.get("editions") or eid in f.data["editions"])
        for n in range(min(2, len(vids)) + 1):
            for combo in combinations(vids, n):
                try:
                    res = _resolve(gf, eid, combo, None, validate=False)
                except (PlayerCountError, VariantConflictError):
                    continue
                validate_effective(res)


@lru_cache(maxsize=8)
def _plugin_catalog(found: tuple[Plugin, ...], root: str | None = None) -> Catalog:
    """The plug-in games' files (with ``root``, after the shipped games' files)."""
    shipped = _shipped(root) if root is not None else ()
    return Catalog([*shipped, *(f for p in found for f in plugin_files(p))])


class Catalog:
    """Every game known from the shipped data plus the user's directories."""

    def __init__(self, files: Iterable[DataFile]) -> None:
        self.games: dict[str, GameFiles] = {}
        diags: list[Diagnostic] = []
        files = list(files)
        for f in files:
            if f.kind == "game":
                gid = str(f.data["id"])
                self.games[gid] = GameFiles(f)
        for f in files:
            kind = f.kind
            if kind == "game":
                continue
            gid = str(f.data.get("game", ""))
            gf = self.games.get(gid)
            if gf is None:
                diags.append(f.doc.diag(("game",), "unknown-game",
                                        f"no game {gid!r}; known: {', '.join(sorted(self.games))}"))
                continue
            if kind not in OVERLAYS:
                gf.parts.append(f)
            else:
                table = gf.editions if kind == "edition" else gf.variants
                oid = str(f.data["id"])
                base_id = str(gf.game.data["base_edition"]["id"])
                if oid in table or (kind == "edition" and oid == base_id):
                    diags.append(f.doc.diag(("id",), "duplicate-id", f"{kind} {oid!r} is already defined"))
                    continue
                table[oid] = f
        for gf in self.games.values():
            known = {str(gf.game.data["base_edition"]["id"]), *gf.editions}
            for f in gf.parts:
                scope = f.data.get("edition")
                if scope is not None and scope not in known:
                    diags.append(f.doc.diag(("edition",), "unknown-edition",
                                            f"no edition {scope!r} in {gf.game.data['id']}; known: "
                                            f"{', '.join(sorted(known))}"))
            for f in gf.variants.values():
                for i, other in enumerate(f.data.get("conflicts") or ()):
                    if other not in gf.variants:
                        diags.append(f.doc.diag(("conflicts", i), "unknown-variant",
                                                f"conflicts names no variant {other!r}"))
        if diags:
            raise DataError(diags)


@lru_cache(maxsize=3)
def _shipped_catalog(root: str, game: str | None = None) -> Catalog:
    return Catalog(_shipped(root, game=game))


def catalog(rules_dirs: Sequence[str | os.PathLike[str]] = (), with_plugins: bool = True) -> Catalog:
    """Every game: the shipped ones, the plug-in games (unless ``with_plugins`` is False), and what the
    user's rule folders add."""
    root = str(data_root())
    found = plugins() if with_plugins else ()
    if not rules_dirs:
        return _plugin_catalog(found, root) if found else _shipped_catalog(root)
    # with user files, errors may point into shipped files: read those with their positions
    extra: list[DataFile] = []
    seen: set[Path] = set()
    roots = (*schema_roots(), *(Path(p.folder) / "schema" for p in found))
    for d in rules_dirs:
        if "\x00" in os.fspath(d):
            raise DataError([Diagnostic(os.fspath(d), 1, 1, "no-such-directory", "a path cannot hold a NUL character")])
        key = Path(d).resolve()
        if key not in seen:
            seen.add(key)
            extra.extend(read_user_dir(d, roots))
    return Catalog([*_shipped(root, marks=True), *(f for p in found for f in plugin_files(p, marks=True)), *extra])


def catalog_for(game: str, rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> Catalog:
    """A catalog that knows ``game``: only that game's shipped files when it is named by its id (the
    usual case: less to read on start-up), the shipped games' when one has that name (plug-ins are not
    even looked for), one plug-in game's files when it is named by its id, else every game's."""
    root = str(data_root())
    if not rules_dirs:
        if game in game_dirs(root):
            return _shipped_catalog(root, game)
        shipped = _shipped_catalog(root)
        if _knows(shipped, game):
            return shipped
        for p in plugins():
            if p.game == game:
                return _plugin_catalog((p,))
    return catalog(rules_dirs)


def _knows(cat: Catalog, name: str) -> bool:
    q = normalize(name)
    return any(normalize(n) == q for gid, gf in cat.games.items()
               for n in _names(gid, gf.game.data, str(gf.game.data.get("name", ""))))


def user_dirs_stamp(rules_dirs: Sequence[str | os.PathLike[str]]) -> tuple[tuple[str, int, int], ...]:
    """What the user's rule files are now (path, modification time, size): loads made from them can be
    reused while it stays the same."""
    stamp: list[tuple[str, int, int]] = []
    for d in rules_dirs:
        path = Path(d)
        paths = _yaml_files(path) if path.is_dir() else [path]
        for p in paths:
            try:
                st = p.stat()
                stamp.append((str(p.resolve()), st.st_mtime_ns, st.st_size))
            except (OSError, ValueError):  # ValueError: a NUL in the name (the load then says why)
                stamp.append((str(p), -1, -1))
    return tuple(stamp)


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
    return _base_tree(_shipped_catalog(root, gid if gid in game_dirs(root) else None).games[gid])


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


@dataclass
class Resolved:
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


def resolve(
    game: str,
    edition: str | None = None,
    variants: Sequence[str] = (),
    players: int | None = None,
    rules_dirs: Sequence[str | os.PathLike[str]] = (),
    validate: bool = True,
) -> Resolved:
    """One load's effective data: base, edition, variants; the player count checked. With user data, or
    for a plug-in game whose loads were not all checked before (unless ``validate`` is False: the caller
    has validated this same load without a count), the effective tree is validated against the game's
    schema."""
    cat = catalog_for(game, rules_dirs)
    return _resolve(cat.games[resolve_game(cat, game)], edition, variants, players, validate)


def _resolve(gf: GameFiles, edition: str | None, variants: Sequence[str], players: int | None,
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
            raise VariantConflictError(f"{title} applies to the edition(s) {', '.join(eds)}, not {eid!r}")
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


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m kbgrules.core.data --build``: rewrite rules_data/compiled/ after editing rule data."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if args != ["--build"]:
        print("usage: python -m kbgrules.core.data --build", file=sys.stderr)
        return 2
    for path in build_compiled():
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
