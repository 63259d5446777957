"""Rule-data files: reading a game's YAML files (the shipped ones from their compiled JSON when it matches,
rebuilt with ``python -m kbgrules.core.datafiles --build``; a user's rule folder checked against the schemas),
and the catalog of games that a set of files makes."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from kbgrules.core.paths import data_root
from kbgrules.core.value import Value
from kbgrules.core.yamlsafe import MAX_BYTES, YamlDocument, parse_bytes
from kbgrules.errors import DataError, Diagnostic

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


@dataclass(repr=False, eq=False)
class DataFile(Value):
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


@dataclass(repr=False, eq=False)
class GameFiles(Value):
    """A game's files: its game file, its parts, its editions' and its variants'."""

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


def yaml_files(root: Path) -> list[Path]:
    files = [p for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()]
    return sorted(p for p in files if "schema" not in p.relative_to(root).parts)


COMPILED = "compiled"  # the shipped YAML files, parsed, one JSON file per game (written by --build: main)


def _digest(raw: bytes) -> str:
    from kbgrules.core.digest import blake2b

    return blake2b(raw, 16)


@lru_cache(maxsize=1)
def game_dirs(root: str) -> tuple[str, ...]:
    """The shipped games' directories (each holds a ``game.yaml``; its name is the game's id)."""
    return tuple(sorted(d for d in os.listdir(root) if os.path.isfile(os.path.join(root, d, "game.yaml"))))


def shipped_files(root: str, marks: bool = False, game: str | None = None) -> tuple[DataFile, ...]:
    """The shipped files (with ``game``, only that game's directory). Without ``marks``, a file whose
    bytes match the game's compiled JSON is taken from there (no YAML parsing: faster start-up) and
    carries no positions; diagnostics need ``marks``."""
    return _shipped_files(root, marks, game)  # one cache entry however the call is written


@lru_cache(maxsize=6)
def _shipped_files(root: str, marks: bool, game: str | None) -> tuple[DataFile, ...]:
    if game is None:
        return tuple(f for d in game_dirs(root) for f in _shipped_files(root, marks, d))
    import json

    base = Path(root)
    compiled: dict[str, Any] = {}
    packed = base / COMPILED / f"{game}.json"
    if not marks and packed.is_file():
        compiled = json.loads(packed.read_text(encoding="utf-8"))["files"]
    out = []
    for p in yaml_files(base / game):
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
    for f, p in zip(shipped_files(str(base), marks=True, game=game), yaml_files(base / game), strict=True):
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


def read_user_dir(directory: str | os.PathLike[str], schema_root: Sequence[Path] | None = None,
                  check: bool = True) -> list[DataFile]:
    """Read and schema-validate every YAML file in a user's rule directory (or one file); ``schema_root``:
    the schema folders (default: the shipped one; the plug-in games' too where they are installed).
    ``check=False`` reads the files without validating them: files checked before and unchanged since,
    or a catalog only to look names up in (:func:`kbgrules.core.data.catalog`)."""
    path = Path(directory)
    try:
        found = "file" if path.is_file() else "dir" if path.is_dir() else "other" if path.exists() else ""
    except (OSError, ValueError) as exc:  # a name too long, a NUL, a loop of links...: it cannot be there
        why = "a path cannot hold a NUL character" if isinstance(exc, ValueError) else exc.strerror or str(exc)
        raise DataError([Diagnostic(str(directory)[:200].replace("\x00", "\\0"), 1, 1, "no-such-directory",
                                    why)]) from None
    if found == "file":
        paths = [path]
    elif found == "dir":
        paths = yaml_files(path)
        if len(paths) > MAX_USER_FILES:
            raise DataError([Diagnostic(str(directory), 1, 1, "too-many-files",
                                        f"more than {MAX_USER_FILES} YAML files")])
    elif found == "other":
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
            if check:
                from kbgrules.core.schema import validate_document

                diags.extend(validate_document(f.doc, roots))
        files.append(f)
    if diags:
        raise DataError(sorted(diags, key=lambda d: (d.file, d.line, d.col)))
    return files


def schema_roots(plugin: Plugin | None = None) -> tuple[Path, ...]:
    """The schema folders a game's files are checked against: the shipped one, and a plug-in game's own."""
    base = data_root() / "schema"
    return (base,) if plugin is None else (base, Path(plugin.folder) / "schema")


def user_dirs_stamp(rules_dirs: Sequence[str | os.PathLike[str]]) -> tuple[tuple[str, int, int], ...]:
    """What the user's rule files are now (path, modification time, size): loads made from them can be
    reused while it stays the same."""
    stamp: list[tuple[str, int, int]] = []
    for d in rules_dirs:
        path = Path(d)
        try:
            paths = yaml_files(path) if path.is_dir() else [path]
        except (OSError, ValueError):  # a name too long...: the load says why
            paths = [path]
        for p in paths:
            try:
                st = p.stat()
                stamp.append((str(p.resolve()), st.st_mtime_ns, st.st_size))
            except (OSError, ValueError):  # ValueError: a NUL in the name (the load then says why)
                stamp.append((str(p), -1, -1))
    return tuple(stamp)


# --------------------------------------------------------------------------- the catalog


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
def shipped_catalog(root: str, game: str | None = None) -> Catalog:
    return Catalog(shipped_files(root, game=game))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m kbgrules.core.datafiles --build``: rewrite rules_data/compiled/ after editing rule data."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if args != ["--build"]:
        print("usage: python -m kbgrules.core.datafiles --build", file=sys.stderr)
        return 2
    for path in build_compiled():
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
