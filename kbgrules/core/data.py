"""Finding the games' rule data and resolving one load: the catalog of the shipped games, the plug-in games
(their files read, checked against their schemas and cached) and the user's rule folders; the effective tree
itself is made by :mod:`kbgrules.core.effective`.

The games are the shipped ones (``rules_data/``), then the plug-in games of other installed
distributions (:mod:`kbgrules.core.plugins`), each read from its package's ``rules_data`` folder as
shipped data is, but checked against its schemas as it is read (no test suite of ours has seen it).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from kbgrules.core.datafiles import (
    MAX_USER_FILES,
    Catalog,
    DataFile,
    game_dirs,
    read_user_dir,
    schema_roots,
    shipped_catalog,
    shipped_files,
    yaml_files,
)
from kbgrules.core.effective import Resolved as Resolved  # public: a plug-in game's model reads it from here
from kbgrules.core.effective import knows_game, resolve_files, resolve_game, validate_effective
from kbgrules.core.effective import locate as locate  # public, as Resolved
from kbgrules.core.paths import data_root
from kbgrules.core.yamlsafe import MAX_BYTES, YamlDocument, parse_bytes
from kbgrules.errors import DataError, Diagnostic, KbgError, PlayerCountError, VariantConflictError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kbgrules.core.plugins import Plugin


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
    paths = yaml_files(base)
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
    from kbgrules.core.digest import sha256

    h = sha256(f"kbg-plugin|1|{plugin.game}|{plugin.package}|{plugin.folder}".encode("utf-8", "replace"))
    for name in ("data.py", "datafiles.py", "effective.py", "schema.py", "yamlsafe.py", "plugins.py"):
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
                    res = resolve_files(gf, eid, combo, None, validate=False)
                except (PlayerCountError, VariantConflictError):
                    continue
                validate_effective(res)


@lru_cache(maxsize=8)
def _plugin_catalog(found: tuple[Plugin, ...], root: str | None = None) -> Catalog:
    """The plug-in games' files (with ``root``, after the shipped games' files)."""
    shipped = shipped_files(root) if root is not None else ()
    return Catalog([*shipped, *(f for p in found for f in plugin_files(p))])


def read_plugins() -> None:
    """Read the plug-in games as :func:`catalog` does, raising what it would raise for them."""
    found = plugins()
    if found:
        _plugin_catalog(found)


def catalog(rules_dirs: Sequence[str | os.PathLike[str]] = (), with_plugins: bool = True,
            checked: bool = True) -> Catalog:
    """Every game: the shipped ones, the plug-in games (unless ``with_plugins`` is False), and what the
    user's rule folders add. ``checked=False`` reads the user's files without checking them against the
    schemas, and every other file as fast as it can (no positions in any): a catalog to look names up in
    (shell completion), never to load rules from, which a broken user file may fail to make with more
    than a :class:`DataError`."""
    root = str(data_root())
    found = plugins() if with_plugins else ()
    if not rules_dirs:
        return _plugin_catalog(found, root) if found else shipped_catalog(root)
    if not checked:  # only to look names up in: nothing checked, nothing remembered
        return _user_catalog(rules_dirs, found, trusted=True)
    mark = _user_mark(rules_dirs, found, "catalog")
    if mark is not None and os.path.exists(mark):
        return _user_catalog(rules_dirs, found, trusted=True)
    cat = _user_catalog(rules_dirs, found, trusted=False)
    _touch(mark)
    return cat


def _user_catalog(rules_dirs: Sequence[str | os.PathLike[str]], found: Sequence[Plugin], trusted: bool) -> Catalog:
    """The catalog with the user's files: read and checked (then, since errors may point into shipped
    files, those are read with their positions too), or ``trusted`` as they are (checked before and
    unchanged since, or a catalog only to look names up in)."""
    root = str(data_root())
    extra: list[DataFile] = []
    seen: set[Path] = set()
    roots = (*schema_roots(), *(Path(p.folder) / "schema" for p in found))
    for d in rules_dirs:
        if "\x00" in os.fspath(d):
            raise DataError([Diagnostic(os.fspath(d).replace("\x00", "\\0"), 1, 1, "no-such-directory",
                                        "a path cannot hold a NUL character")])
        key = Path(d).resolve()
        if key not in seen:
            seen.add(key)
            extra.extend(read_user_dir(d, roots, check=not trusted))
    marks = not trusted
    return Catalog([*shipped_files(root, marks=marks), *(f for p in found for f in plugin_files(p, marks=marks)),
                    *extra])


def _user_mark(rules_dirs: Sequence[str | os.PathLike[str]], found: Sequence[Plugin], what: str) -> str | None:
    """The cache file that says a catalog or a load (``what``) with these user folders was checked and
    found valid: named by a digest of the user's files (names and bytes), the shipped data, the plug-in
    games and the code that checks them. None without a cache folder (``KBG_NO_CACHE=1``) or where a file
    cannot be read (the checks then say why)."""
    from kbgrules.core.datafiles import COMPILED
    from kbgrules.core.digest import sha256
    from kbgrules.core.paths import cache_dir

    folder = cache_dir()
    if folder is None:
        return None
    h = sha256(f"kbg-user|1|{what}".encode("utf-8", "surrogateescape"))
    try:
        here = os.path.dirname(__file__)
        for name in ("data.py", "datafiles.py", "effective.py", "schema.py", "yamlsafe.py", "plugins.py"):
            st = os.stat(os.path.join(here, name))
            h.update(f"|{name}|{st.st_size}|{st.st_mtime_ns}".encode())
        base = data_root()
        for p in sorted([*(base / COMPILED).glob("*.json"), *(base / "schema").glob("*.schema.json")]):
            st = p.stat()
            h.update(f"|{p.name}|{st.st_size}|{st.st_mtime_ns}".encode())
        for plugin in found:
            for shown, data in _plugin_bytes(plugin):
                h.update(shown.encode("utf-8", "surrogateescape") + b"\0" + data)
        for d in rules_dirs:
            path = Path(d)
            paths = yaml_files(path) if path.is_dir() else [path]
            if len(paths) > MAX_USER_FILES:
                return None
            for p in paths:
                with p.open("rb") as fh:
                    data = fh.read(MAX_BYTES + 1)
                h.update(f"|{p.resolve()}|{p.is_symlink()}|{len(data)}|".encode("utf-8", "surrogateescape") + data)
    except (OSError, ValueError, DataError):
        return None
    return os.path.join(folder, f"user-{h.hexdigest()[:32]}.ok")


def _touch(mark: str | None) -> None:
    if mark is None:
        return
    try:
        os.makedirs(os.path.dirname(mark), exist_ok=True)
        with open(mark, "w", encoding="utf-8"):
            pass
    except OSError:  # a read-only home: checked again next time
        pass


def catalog_for(game: str, rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> Catalog:
    """A catalog that knows ``game``: only that game's shipped files when it is named by its id (the
    usual case: less to read on start-up), the shipped games' when one has that name (plug-ins are not
    even looked for), one plug-in game's files when it is named by its id, else every game's."""
    root = str(data_root())
    if not rules_dirs:
        if game in game_dirs(root):
            return shipped_catalog(root, game)
        shipped = shipped_catalog(root)
        if knows_game(shipped, game):
            return shipped
        for p in plugins():
            if p.game == game:
                return _plugin_catalog((p,))
    return catalog(rules_dirs)


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
    if rules_dirs and validate:  # checked before with these same files: read them as they are
        found = plugins()
        mark = _user_mark(rules_dirs, found, f"load|{game}|{edition}|{'|'.join(variants)}|{players}")
        if mark is not None and os.path.exists(mark):
            cat = _user_catalog(rules_dirs, found, trusted=True)
            return resolve_files(cat.games[resolve_game(cat, game)], edition, variants, players, False)
        cat = _user_catalog(rules_dirs, found, trusted=False)  # errors point at files and lines
        res = resolve_files(cat.games[resolve_game(cat, game)], edition, variants, players, True)
        _touch(_user_mark(rules_dirs, found, "catalog"))
        _touch(mark)
        return res
    cat = catalog_for(game, rules_dirs)
    return resolve_files(cat.games[resolve_game(cat, game)], edition, variants, players, validate)
