"""The ``kbg explain`` index as it is kept and read: the shipped prebuilt one (``rules_data/explain-index.json``,
rewritten by ``python -m kbgrules.explain --build``; a test checks it is current), one built for the user's rule
folders and plug-in games and cached, a lazy view of its entries, and what it tells about each entry and game."""

from __future__ import annotations

import json
import os
from functools import lru_cache

from kbgrules.core.kinds import role
from kbgrules.explain.packed import INDEX_VERSION, table

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; `kbg explain` imports this module first
    from collections.abc import Sequence
    from typing import Any

    from kbgrules.core.plugins import Plugin

INDEX_FILE = "explain-index.json"
ENTRIES_FILE = "explain-entries.jsonl"
ENTRIES_KEY = "_entries_file"  # where a cached index's entries are (the shipped index's: entries_path())


class Hit:
    """One ranked entry; ``entry`` is its content (id, game, kind, title, text, sources, related...),
    ``why`` maps each term that matched to what it added to the score."""

    __slots__ = ("_entry", "_index", "_n", "id", "score", "shares", "why")

    def __init__(self, id: str, score: float, entry: dict[str, Any] | None = None, why: dict[str, float] | None = None,
                 *, index: Index | None = None, n: int = -1) -> None:
        self.id = id
        self.score = score
        self._entry = entry
        self._index = index
        self._n = n
        self.why = why or {}
        self.shares: dict[str, float] = {}  # what each feature of the second stage added to its score

    @property
    def entry(self) -> dict[str, Any]:
        if self._entry is None:
            assert self._index is not None
            self._entry = self._index.entry(self._n)
        return self._entry

    def __repr__(self) -> str:
        return f"Hit({self.id!r}, {self.score})"


# --------------------------------------------------------------------------- the index


def index_path() -> str:
    from kbgrules.core.paths import data_dir

    return os.path.join(data_dir(), INDEX_FILE)


def entries_path() -> str:
    from kbgrules.core.paths import data_dir

    return os.path.join(data_dir(), ENTRIES_FILE)


@lru_cache(maxsize=1)
def _shipped_index() -> dict[str, Any]:
    with open(index_path(), encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


_STEADY: list[dict[tuple[str, ...], dict[str, Any]]] = []  # while a command runs: its indexes by rule folders


class steady:  # a context manager, named as one (contextlib costs `kbg explain` start-up time)
    """Within ``with steady():`` (one command's run) the rule folders and plug-in games are taken not to
    change: :func:`load_index` reads them once, not on each call."""

    def __enter__(self) -> None:
        _STEADY.append({})

    def __exit__(self, *exc: object) -> None:
        _STEADY.pop()


def load_index(rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> dict[str, Any]:
    """The index of every game: the shipped index, or, with the user's rule folders or plug-in games
    installed, one built from them too (kept in the user's cache folder under the digest of what it
    is built from: see :func:`_user_index`)."""
    if not _STEADY:
        return _load_index(rules_dirs)
    key = tuple(os.fspath(d) for d in rules_dirs)
    data = _STEADY[-1].get(key)
    if data is None:
        data = _STEADY[-1][key] = _load_index(rules_dirs)
    return data


def _load_index(rules_dirs: Sequence[str | os.PathLike[str]]) -> dict[str, Any]:
    dirs, plugins = _extra(rules_dirs)
    if dirs or plugins:
        return _user_index(_user_digest(dirs, plugins), dirs)
    try:
        data = _shipped_index()
        if data.get("version") == INDEX_VERSION:
            return data
    except (OSError, ValueError):  # a checkout without the prebuilt file: build it in memory
        pass
    return _built_index()


def _extra(rules_dirs: Sequence[str | os.PathLike[str]]) -> tuple[tuple[str, ...], tuple[Plugin, ...]]:
    """What an index adds to the shipped one: the rule folders that hold a YAML file, and the plug-in games."""
    from kbgrules.core.plugins import installed

    plugins = installed()  # no importlib.metadata, nothing read when none is installed
    dirs: tuple[str, ...] = ()
    if rules_dirs:
        from kbgrules.core.datafiles import user_dirs_stamp

        dirs = tuple(os.fspath(d) for d in rules_dirs)
        if not user_dirs_stamp(dirs):  # folders without a YAML file change nothing
            dirs = ()
    return dirs, plugins


def _user_digest(dirs: tuple[str, ...], plugins: Sequence[Plugin] = ()) -> str:
    """What an index built with these rule folders and plug-in games depends on: the folders' YAML
    files (names and bytes), each plug-in's data files (names and bytes) and code (names, sizes and
    times: its engine adds entries), the shipped data (its index) and the index format. Installing,
    changing or removing a plug-in changes it."""
    from kbgrules.core.digest import sha256

    h = sha256(f"{INDEX_VERSION}|{os.path.getsize(index_path()) if os.path.exists(index_path()) else 0}"
                       .encode())

    def add(path: str) -> None:
        h.update(path.encode("utf-8", "surrogateescape") + b"\0")
        try:
            with open(path, "rb") as fh:
                h.update(fh.read(4 * 1024 * 1024))
        except (OSError, ValueError):  # ValueError: a NUL in the name (the load says why)
            h.update(b"?")

    if dirs:  # (the rule-data reader is not imported for plug-ins alone)
        from kbgrules.core.datafiles import user_dirs_stamp

        for path, _, _ in user_dirs_stamp(dirs):
            add(path)
    for p in plugins:
        h.update(f"plugin|{p.game}|{p.package}|{p.distribution}\0".encode())
        for top, subdirs, files in sorted(os.walk(os.path.dirname(p.folder))):
            subdirs[:] = sorted(d for d in subdirs if d != "__pycache__")
            for name in sorted(files):
                path = os.path.join(top, name)
                if name.endswith((".yaml", ".yml", ".json")):
                    add(path)
                elif name.endswith(".py"):
                    st = os.stat(path)
                    h.update(f"{path}|{st.st_size}|{st.st_mtime_ns}\0".encode("utf-8", "surrogateescape"))
    return h.hexdigest()[:32]


@lru_cache(maxsize=4)
def _user_index(digest: str, dirs: tuple[str, ...]) -> dict[str, Any]:
    """The index with the user's rule data and the plug-in games: built once (seconds), then kept in the
    user's cache folder under the digest of everything it depends on, as the shipped index is stored
    (the entries one per line beside it, read when shown), and read back (``KBG_NO_CACHE=1`` skips it)."""
    path = _cache_path(digest)
    cached = _cached_index(path)
    if cached is not None:
        return cached
    from kbgrules.explain.index import build_index, collect, write_index

    built = build_index(collect(dirs))
    if path is not None:
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = f"{path}.{os.getpid()}.tmp"
            write_index(built, tmp, tmp + "l")
            os.replace(tmp + "l", path + "l")
            os.replace(tmp, path)
        except OSError:  # a read-only home: no cache, still an answer
            pass
    return built


def _cache_path(digest: str) -> str | None:
    from kbgrules.core.paths import cache_dir

    folder = cache_dir()
    return None if folder is None else os.path.join(folder, f"explain-{digest}.json")


def _cached_index(path: str | None) -> dict[str, Any] | None:
    """The index kept at ``path`` (its entries beside it), or None if there is none of this version."""
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as fh:
            data: dict[str, Any] = json.load(fh)
        if data.get("version") == INDEX_VERSION and os.path.isfile(path + "l"):
            data[ENTRIES_KEY] = path + "l"
            return data
    except (OSError, ValueError):
        pass
    return None


def index_at_hand(rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> dict[str, Any] | None:
    """The index :func:`load_index` gives, where it needs no building: the shipped prebuilt one, or the
    one kept in the user's cache for these rule folders and plug-in games; where that one is not built
    yet, the shipped index (the shipped games' entries only). None without a prebuilt index. Shell
    completion reads it: it must answer at once, and builds nothing."""
    dirs, plugins = _extra(rules_dirs)
    if dirs or plugins:
        cached = _cached_index(_cache_path(_user_digest(dirs, plugins)))
        if cached is not None:
            return cached
    try:
        data = _shipped_index()
    except (OSError, ValueError):
        return None
    return data if data.get("version") == INDEX_VERSION else None


@lru_cache(maxsize=1)
def _built_index() -> dict[str, Any]:
    from kbgrules.explain.index import build_index, collect

    return build_index(collect(plugins=False))


class Index:
    """A loaded index: entries are decoded from their JSON text only when one is shown."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.meta: list[list[str]] = data["meta"]  # [id, game, kind, title] per entry
        self.ids = {m[0]: n for n, m in enumerate(self.meta)}
        self._decoded: dict[int, dict[str, Any]] = {}
        self._kinds: dict[str, dict[str, str]] | None = None

    def entry(self, n: int) -> dict[str, Any]:
        e = self._decoded.get(n)
        if e is None:
            if "entries" in self.data:
                text = self.data["entries"][n]
            else:  # a stored index: one line of its entries file
                with open(self.data.get(ENTRIES_KEY) or entries_path(), "rb") as fh:
                    fh.seek(self.data["entry_offsets"][n])
                    text = fh.readline().decode("utf-8")
            e = self._decoded[n] = json.loads(text)
        return e

    def game(self, n: int) -> str:
        return self.meta[n][1]

    def kind(self, n: int) -> str:
        return self.meta[n][2]

    def role(self, n: int) -> str:
        """The role of entry ``n`` (:mod:`kbgrules.core.kinds`), by its game's table of kinds."""
        kinds = self._kinds
        if kinds is None:
            kinds = self._kinds = {g: i.get("kinds") or {} for g, i in (self.data.get("game_info") or {}).items()}
        _, game, kind, _ = self.meta[n]
        return role(kind, kinds.get(game) or {})

    def hit(self, n: int, score: float, why: dict[str, float] | None = None) -> Hit:
        return Hit(self.meta[n][0], score, None, why, index=self, n=n)


_VIEWS: dict[int, Index] = {}


def index_view(data: dict[str, Any]) -> Index:
    """The view of a loaded index (one per index: its entries decoded once)."""
    view = _VIEWS.get(id(data))
    if view is None or view.data is not data:
        view = _VIEWS[id(data)] = Index(data)
    return view


# --------------------------------------------------------------------------- what it tells


def games(rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> dict[str, dict[str, Any]]:
    """Each game explain knows: its name, its name in other languages (``names``), its entry ids'
    prefix (``short``), its aliases, the site's pages of its own tables and its number words."""
    info: dict[str, dict[str, Any]] = load_index(rules_dirs).get("game_info", {})
    return info


def role_of(entry: dict[str, Any], rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> str:
    """The role of an entry (as :func:`lookup` gives it) in :mod:`kbgrules.core.kinds`: its kind for
    the core's kinds, else the role its game's engine declares for its kind."""
    info = games(rules_dirs).get(str(entry.get("game", "")), {})
    return role(str(entry.get("kind", "")), info.get("kinds") or {})


def game_id(name: str, rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> str | None:
    """The id of the game ``name`` names (its id or an alias, any case, ``-`` ``_`` and spaces alike)."""
    return _game_named(games(rules_dirs), name)


def _game_named(info: dict[str, dict[str, Any]], name: str) -> str | None:
    def key(n: str) -> str:
        return " ".join(n.casefold().replace("_", " ").replace("-", " ").split())

    k = key(name)
    return next((gid for gid, g in info.items() if k in {key(a) for a in g.get("aliases", ())}), None)


def lookup(entry_id: str, rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> dict[str, Any] | None:
    view = index_view(load_index(rules_dirs))
    n = view.ids.get(entry_id)
    return None if n is None else dict(view.entry(n))


def entries(rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> dict[str, dict[str, Any]]:
    """Every entry by id, in the index's order (``kbg site`` shows them all)."""
    view = index_view(load_index(rules_dirs))
    return {m[0]: dict(view.entry(n)) for n, m in enumerate(view.meta)}


def document_title(game: str, key: str, rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> str:
    return str(load_index(rules_dirs).get("documents", {}).get(game, {}).get(key, key))


def topics(game: str | None = None) -> list[dict[str, Any]]:
    """Every entry (id, title, kind), for ``kbg explain`` with no query."""
    return [{"id": eid, "title": title, "kind": kind, "game": g}
            for eid, g, kind, title in load_index()["meta"] if game is None or g == game]


def topic_titles(game: str | None = None, rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> list[tuple[str, str]]:
    """Each entry's id and title in the index at hand (:func:`index_at_hand`), of ``game``'s entries only
    where it is given (an id or alias): what shell completion offers after ``kbg explain``. Empty without
    an index, or for a game it does not know."""
    data = index_at_hand(rules_dirs)
    if data is None:
        return []
    gid = None if game is None else _game_named(data.get("game_info") or {}, game)
    if game is not None and gid is None:
        return []
    return [(eid, title) for eid, g, _, title in data["meta"] if gid is None or g == gid]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m kbgrules.explain --build``: rewrite the shipped index from the rule data."""
    import sys

    from kbgrules.explain.index import build_index, collect, write_index

    args = list(sys.argv[1:] if argv is None else argv)
    if args != ["--build"]:
        sys.stderr.write("usage: python -m kbgrules.explain --build\n")
        return 2
    data = build_index(collect(plugins=False))  # the shipped games only: plug-ins are indexed where installed
    write_index(data, index_path(), entries_path())
    sys.stdout.write(f"{index_path()}: {len(data['entries'])} entries, {len(table(data['postings']))} terms\n")
    return 0
