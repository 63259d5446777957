"""Ranking for ``kbg explain``: find the rule, FAQ entry, piece of a game or component a question is about.

The index covers every game: rule statements (every edition and variant), FAQ entries, the pieces
each game's engine adds from its own tables (:mod:`kbgrules.core.kinds`: named ones, found by their
name, and others, found by their number or their words), components, editions and options. A
question is analysed the way the data was (:mod:`kbgrules.explain.text`): words are stemmed, game
words become glossary concepts in any of six languages (``fuir``, ``항복``, ``verlassen`` -> ``~yield``),
dice notation is read (``three 2s``), the names of named pieces are found despite typos, and the
words that belong to one game only keep the answer in that game. The first stage is BM25 over the
entries' weighted fields plus bonuses for a known phrasing or a named piece (``Result.why`` says
what each term contributed); the second (:mod:`kbgrules.explain.rerank`) re-ranks its best
candidates with fitted weights. No network.

The shipped index is prebuilt in ``rules_data/explain-index.json`` (``python -m kbgrules.explain
--build`` rewrites it; a test checks it is current), so answering needs no YAML parsing. Examples
of questions and their answers: ``docs/explain.md`` and ``tests/test_explain.py``.
"""

from __future__ import annotations

import json
import math
import os
import re
from functools import lru_cache

from kbgrules.core.kinds import NAMED_PIECE, role
from kbgrules.errors import KbgError
from kbgrules.explain.rerank import (
    FEATURES,
    Model,
    Query,
    asking_part,
    features,
    load_model,
    probabilities,
    score,
)
from kbgrules.explain.text import (
    CONCEPT,
    INDEX_VERSION,
    LANGS,
    STOPWORDS,
    analyze,
    analyze_question,
    fold,
    is_hangul,
    listed,
    phrase,
    stem,
    table,
    tokens,
    unsupported_script,
    words,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; `kbg explain` imports this module first
    from collections.abc import Sequence
    from typing import Any

    from kbgrules.core.plugins import Plugin

__all__ = ["Hit", "QueryError", "Result", "document_title", "fold", "load_index", "lookup", "phrase", "search",
           "tokens", "topics"]

INDEX_FILE = "explain-index.json"
ENTRIES_FILE = "explain-entries.jsonl"
ENTRIES_KEY = "_entries_file"  # where a cached index's entries are (the shipped index's: entries_path())
K1, B = 1.2, 0.75
MAX_QUERY = 1000  # characters of a query that are read; a longer one is refused
MAX_FUZZY = 12  # unknown words matched to close game words, per query
CONCEPT_WEIGHT = 1.0  # a glossary concept counts as much as the word itself
WORD_WEIGHT = 1.0
ROLE_PRIOR = {"faq": 1.15, "rule": 1.1, NAMED_PIECE: 1.05}  # by role (kbgrules.core.kinds); others 1.0
LOG_PRIOR = 0.5  # kbg's own log-format entries answer questions about logs, rarely about play
SCOPE_PRIOR = 0.6  # an entry of an edition or variant the question does not name
LEAN_PRIOR = 1.2  # the game most of the question's game words belong to, when both appear
BOTH_GAMES = 0.4  # the other game's best entry is offered too when its probability is this share of the first's
NAME_BONUS = 8.0  # a named piece named in the question (typos allowed)
RELATED_NAME_BONUS = 6.0  # an FAQ entry about that piece
EXACT_PHRASE_BONUS = 12.0
PARTIAL_PHRASE_BONUS = 3.0
NO_ANSWER_COVERAGE = 0.2  # less than this matched: nothing answers the question
UNKNOWN_WEIGHT = 0.5  # a word no entry uses weighs this share of the rarest term
STORY_WEIGHT = 0.25  # a long post's words outside the sentences that ask: at most this share of theirs
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd\udc80-\udcff]")


class QueryError(KbgError):
    """A query ``kbg explain`` cannot read: empty, too long, binary, or in a script it does not know."""


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


class Result:
    """The ranked entries for a query.

    Each hit's ``score`` is its probability of being the answer, by the second stage. ``confidence``
    is how often a first answer that probable was right on the dev questions, and ``confident`` says
    it reaches the level from which answers were right 9 times in 10 there (else kbg lists the closest three);
    ``lang`` is the language the question is written in (``en`` when unsure); ``game`` is the game
    its words belong to (None when they fit both or neither); ``other_game`` is the other game's
    best entry when the question fits both about as well; ``coverage`` is the share of the question
    the first entry matched (0 when nothing answers it); ``terms`` are the terms it was read as
    (words and ``~concepts``).
    """

    __slots__ = ("confidence", "confident", "coverage", "game", "hits", "lang", "notes", "other_game", "query",
                 "terms")

    def __init__(self, query: str, hits: tuple[Hit, ...], confident: bool, lang: str = "en",
                 game: str | None = None, terms: tuple[str, ...] = (), notes: tuple[str, ...] = (),
                 other_game: Hit | None = None, coverage: float = 1.0, confidence: float | None = None) -> None:
        self.query = query
        self.hits = hits
        self.confident = confident
        self.lang = lang
        self.game = game
        self.terms = terms
        self.notes = notes
        self.other_game = other_game  # the other game's best entry, when the question fits both
        self.coverage = coverage  # share of the question the first entry matched; 0: nothing answers it
        # how often a first answer this sure was right on the dev questions (1.0: an id or an entry's number)
        self.confidence = (1.0 if confident else 0.0) if confidence is None else confidence

    @property
    def best(self) -> Hit:
        return self.hits[0]


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


def load_index(rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> dict[str, Any]:
    """The index of every game: the shipped index, or, with the user's rule folders or plug-in games
    installed, one built from them too (kept in the user's cache folder under the digest of what it
    is built from: see :func:`_user_index`)."""
    from kbgrules.core.plugins import installed

    plugins = installed()  # no importlib.metadata, nothing read when none is installed
    dirs: tuple[str, ...] = ()
    if rules_dirs:
        from kbgrules.core.datafiles import user_dirs_stamp

        dirs = tuple(os.fspath(d) for d in rules_dirs)
        if not user_dirs_stamp(dirs):  # folders without a YAML file change nothing
            dirs = ()
    if dirs or plugins:
        return _user_index(_user_digest(dirs, plugins), dirs)
    try:
        data = _shipped_index()
        if data.get("version") == INDEX_VERSION:
            return data
    except (OSError, ValueError):  # a checkout without the prebuilt file: build it in memory
        pass
    return _built_index()


def _user_digest(dirs: tuple[str, ...], plugins: Sequence[Plugin] = ()) -> str:
    """What an index built with these rule folders and plug-in games depends on: the folders' YAML
    files (names and bytes), each plug-in's data files (names and bytes) and code (names, sizes and
    times: its engine adds entries), the shipped data (its index) and the index format. Installing,
    changing or removing a plug-in changes it."""
    import hashlib

    h = hashlib.sha256(f"{INDEX_VERSION}|{os.path.getsize(index_path()) if os.path.exists(index_path()) else 0}"
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
    from kbgrules.core.paths import cache_dir

    folder = cache_dir()
    path = None if folder is None else os.path.join(folder, f"explain-{digest}.json")
    if path is not None:
        try:
            with open(path, encoding="utf-8") as fh:
                data: dict[str, Any] = json.load(fh)
            if data.get("version") == INDEX_VERSION and os.path.isfile(path + "l"):
                data[ENTRIES_KEY] = path + "l"
                return data
        except (OSError, ValueError):
            pass
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


def _view(data: dict[str, Any]) -> Index:
    view = _VIEWS.get(id(data))
    if view is None or view.data is not data:
        view = _VIEWS[id(data)] = Index(data)
    return view


def _nums(packed: str) -> list[int]:
    return [int(x) for x in packed.split()]


def _decoded(raw: str) -> list[tuple[int, float]]:
    return [(int(n), float(w)) for n, w in (pair.split(":") for pair in raw.split())]


# --------------------------------------------------------------------------- reading the query


def check_query(query: str) -> str:
    """The query, stripped; :class:`QueryError` when it cannot be read."""
    if not isinstance(query, str):
        raise QueryError(f"a query is text, not {type(query).__name__}", code="query-type")
    q = query.strip()
    if not q:
        raise QueryError("the query is empty; ask with words, an entry's id or name", code="empty-query")
    if len(q) > MAX_QUERY:
        raise QueryError(f"the query is {len(q):,} characters; kbg explain reads questions of up to {MAX_QUERY}",
                         code="query-too-long")
    if _CONTROL.search(q):
        raise QueryError("the query holds control characters or bytes that are not text", code="query-binary")
    if unsupported_script(q):
        raise QueryError("kbg explain reads English, Korean, French, Vietnamese, German and Spanish; "
                         "this query is in another script", code="unsupported-language")
    return q


_NAME_KEYS: list[tuple[dict[str, str], dict[tuple[int, str], list[tuple[str, int]]]]] = []


def _name_keys(names: dict[str, str]) -> dict[tuple[int, str], list[tuple[str, int]]]:
    """The names by their number of words and first letter, each with the typing mistakes it allows
    (made once per index: a question tries every run of its words against them)."""
    from kbgrules.core.closest import allowed_edits

    if not _NAME_KEYS or _NAME_KEYS[0][0] is not names:
        keys: dict[tuple[int, str], list[tuple[str, int]]] = {}
        for name in names:
            keys.setdefault((len(name.split()), name[0]), []).append(
                (name, allowed_edits(name) + (len(name) >= 14)))
        _NAME_KEYS[:] = [(names, keys)]
    return _NAME_KEYS[0][1]


def _names_in(q_words: list[str], names: dict[str, str]) -> dict[int, tuple[str, float]]:
    """Named pieces named in the question: word runs equal or close to a name."""
    from kbgrules.core.closest import edits

    found: dict[int, tuple[str, float]] = {}
    keys = _name_keys(names) if names else {}
    for n in range(min(6, len(q_words)), 0, -1):
        for i in range(len(q_words) - n + 1):
            run = " ".join(q_words[i:i + n])
            if n == 1 and (len(run) < 5 or run in STOPWORDS):
                continue
            exact = names.get(run)
            if exact:
                for e in _nums(exact):
                    found.setdefault(e, (run, 1.0))
                continue
            if len(run) < 6 or is_hangul(run):
                continue
            for name, limit in keys.get((n, run[0]), ()):
                if abs(len(name) - len(run)) <= limit:
                    d = edits(run, name, limit)
                    if d <= limit:
                        r = 1.0 - d / len(name)
                        for e in _nums(names[name]):
                            if e not in found or found[e][1] < r:
                                found[e] = (run, r)
    return found


# --------------------------------------------------------------------------- search


def search(query: str, game: str | None = None, rules_dirs: Sequence[str | os.PathLike[str]] = (),
           limit: int = 5) -> Result:
    """Rank the entries for ``query`` (an id, a word, a name or a whole question).

    Raises :class:`QueryError` for a query that cannot be read (empty, longer than ``MAX_QUERY``,
    binary, or in a script kbg does not read).
    """
    from kbgrules.core import args

    args.text(query, "query")
    args.text(game, "game", optional=True)
    args.count(limit, "limit")
    rules_dirs = args.folders(rules_dirs)
    q = check_query(query)
    index = load_index(rules_dirs)
    view = _view(index)
    ids = view.ids
    glossary = index.get("glossary") or {}
    a, lang = analyze_question(q, glossary)

    if q.lower() in ids:
        i = ids[q.lower()]
        return Result(query, (view.hit(i, 1.0, {"id": 100.0}),), True, lang, view.game(i))
    n = numbered(index, q)
    if n is not None:
        return Result(query, (view.hit(n, 1.0, {"number": 100.0}),), True, lang, view.game(n))
    stage, first, allowed = _first_stage(query, q, index, view, a, lang, game)
    return _rerank(stage, first, allowed, limit)


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
    def key(n: str) -> str:
        return " ".join(n.casefold().replace("_", " ").replace("-", " ").split())

    k = key(name)
    return next((gid for gid, g in games(rules_dirs).items() if k in {key(a) for a in g.get("aliases", ())}), None)


def numbered(index: dict[str, Any], q: str) -> int | None:
    """The entry a question names by its number alone (``37``, ``#37``, or the number after one of
    its game's ``number_words``), if any."""
    m = re.fullmatch(r"(?:([^\W\d_]+)\s*)?#?\s*(\d{1,3})", q.lower())
    if m is None:
        return None
    number: int | None = index.get("numbered", {}).get(str(int(m.group(2))))
    if number is None or m.group(1) is None:
        return number
    words = index["game_info"].get(index["meta"][number][1], {}).get("number_words", ())
    return number if m.group(1) in words else None


def first_stage(query: str, game: str | None = None, rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> Stage:
    """The first stage's reading and ranking of ``query``, whose rows the second stage scores
    (``bench/fit_explain.py`` fits the weights on them)."""
    q = check_query(query)
    index = load_index(rules_dirs)
    a, lang = analyze_question(q, index.get("glossary") or {})
    return _first_stage(query, q, index, _view(index), a, lang, game)[0]


def _first_stage(query: str, q: str, index: dict[str, Any], view: Index, a: Any, lang: str,
                 game: str | None) -> tuple[Stage, Result, set[str] | None]:
    """Candidates by their words and concepts (BM25 over the entries' fields, with bonuses for a known
    phrasing or a named piece, and priors by role and scope)."""
    glossary = index.get("glossary") or {}
    postings = table(index["postings"])
    lengths: list[int] = index["lengths"]
    n_docs = len(view.meta)
    avg = sum(lengths) / max(1, n_docs)

    # which game the words belong to: a game's name, a named piece's name, words only one game uses
    named_games = {c[len(CONCEPT) + 5:] for c, _ in a.concepts if c.startswith(CONCEPT + "game-")}
    name_words = {t for c, src in a.concepts if c.startswith(CONCEPT + "game-") for t in tokens(src, lang)}
    named = _names_in(words(q, lang), index.get("names") or {})
    votes: dict[str, float] = {}
    for gs, sign in a.games:
        if len(gs) == 1:
            g = next(iter(gs))
            votes[g] = votes.get(g, 0.0) + sign
    for n in named:
        votes[view.game(n)] = votes.get(view.game(n), 0.0) + 1.0
    q_game: str | None = None
    if len(named_games) == 1:
        q_game = next(iter(named_games))
    elif not named_games and votes:
        top = max(votes, key=lambda g: votes[g])
        rest = sum(v for g, v in votes.items() if g != top)
        if votes[top] >= 1 and (rest == 0 or votes[top] >= 2 * rest + 1):
            q_game = top
    allowed = {game} if game is not None else ({q_game} if q_game else None)
    lean = max(votes, key=lambda g: votes[g]) if votes and q_game is None and allowed is None else None

    # the terms, each with a weight; unknown words matched to close known ones
    q_terms: dict[str, float] = {}
    notes: list[str] = []
    for c, _src in a.concepts:
        if not c.startswith(CONCEPT + "game-"):
            q_terms[c] = max(q_terms.get(c, 0.0), CONCEPT_WEIGHT)
    for t in dict.fromkeys(a.terms):
        if t not in name_words and t in postings:
            q_terms.setdefault(t, WORD_WEIGHT)
    for t, c in _fuzzy_concepts(a.terms, glossary, postings, MAX_FUZZY, lang):
        if c not in q_terms:
            q_terms[c] = 0.7
            notes.append(f"{t} ~ {c}")
    ask_terms: set[str] | None = None
    part = asking_part(q)
    if part is not None:  # a post that tells a story around its question: the question weighs more
        pa = analyze(part, glossary, None, lang)
        ask_terms = {t for t in (*pa.terms, *(c for c, _ in pa.concepts)) if t in q_terms} or None
        if ask_terms:  # the story's words weigh at most STORY_WEIGHT of the question's, all together
            mass = {True: 0.0, False: 0.0}
            for t, w in q_terms.items():
                raw = postings.get(t)
                df = raw.count(":") if raw else 0
                mass[t in ask_terms] += w * math.log(1 + (n_docs - df + 0.5) / (df + 0.5)) if raw else 0.0
            story = min(STORY_WEIGHT, STORY_WEIGHT * mass[True] / mass[False]) if mass[False] else STORY_WEIGHT
            for t in q_terms:
                if t not in ask_terms:
                    q_terms[t] *= story
            asked = f" {' '.join(words(part, lang))} "  # a piece named in the story only weighs as it does
            named = {n: (run, r if f" {run} " in asked else r * story) for n, (run, r) in named.items()}

    scores: dict[int, float] = {}
    why: dict[int, dict[str, float]] = {}
    ideal = 0.0
    for t, weight in q_terms.items():
        raw = postings.get(t)
        if raw is None:
            continue
        docs = _decoded(raw)
        idf = math.log(1 + (n_docs - len(docs) + 0.5) / (len(docs) + 0.5))
        ideal += weight * idf
        for n, tf in docs:
            s = weight * idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[n] / avg))
            scores[n] = scores.get(n, 0.0) + s
            why.setdefault(n, {})[t] = round(s, 3)
    qp = phrase(q)
    phrases = table(index["phrases"])
    for n in _nums(phrases.get(qp, "") or ""):
        scores[n] = scores.get(n, 0.0) + EXACT_PHRASE_BONUS
        why.setdefault(n, {})["=phrase"] = EXACT_PHRASE_BONUS
    if len(qp) >= 4:  # a known phrasing inside the question, or the question inside one: the best per entry
        partial: dict[int, tuple[float, str]] = {}
        qw = qp.split()
        inside = {" ".join(qw[i:i + k]) for k in range(1, min(8, len(qw)) + 1) for i in range(len(qw) - k + 1)}
        found = [(p, phrases[p]) for p in sorted(inside) if p in phrases and p != qp and len(p) >= 4]
        if len(qp) >= 8 and len(qw) <= 4:
            found += [(p, ns) for p, ns in phrases.items() if qp in p and p != qp]
        for p, ns in found:
            bonus = PARTIAL_PHRASE_BONUS * min(len(p), len(qp)) / max(len(p), len(qp))
            for n in _nums(ns):
                if bonus > partial.get(n, (0.0, ""))[0]:
                    partial[n] = (bonus, p)
        for n, (bonus, p) in partial.items():
            scores[n] = scores.get(n, 0.0) + bonus
            why.setdefault(n, {})[f"~phrase:{p}"] = round(bonus, 3)
    named_ids = {view.meta[n][0]: (run, ratio) for n, (run, ratio) in named.items()}
    for n, (run, ratio) in named.items():
        bonus = NAME_BONUS * ratio
        scores[n] = scores.get(n, 0.0) + bonus
        why.setdefault(n, {})[f"=name:{run}"] = round(bonus, 3)
    if named_ids:  # the FAQ entries about a named piece share its bonus
        for key, related in (index.get("faq_related") or {}).items():
            for r in related:
                if r in named_ids:
                    n = int(key)
                    run, ratio = named_ids[r]
                    bonus = RELATED_NAME_BONUS * ratio
                    scores[n] = scores.get(n, 0.0) + bonus
                    why.setdefault(n, {})[f"=about:{run}"] = round(bonus, 3)
                    break

    needs: dict[str, list[str]] = index.get("needs") or {}

    def prior(n: int) -> float:
        f = ROLE_PRIOR.get(view.role(n), 1.0)
        if ".log." in view.meta[n][0]:
            f *= LOG_PRIOR
        need = needs.get(str(n))
        if need and not any(c in q_terms for c in need):
            f *= SCOPE_PRIOR
        if lean is not None and view.game(n) == lean:
            f *= LEAN_PRIOR
        return f

    ranked = sorted(((s * prior(n), n) for n, s in scores.items()
                     if allowed is None or view.game(n) in allowed), reverse=True)
    unknown = sum(1 for t in dict.fromkeys(a.terms) if t not in postings and not is_hangul(t)
                  and not any(n.startswith(f"{t} ~") for n in notes))
    stage = Stage(q, index, view, q_terms, postings, n_docs, unknown, named, lean, q_game, ranked, why, ask_terms)
    return stage, Result(query, (), False, lang, q_game, tuple(q_terms), tuple(notes), None, 0.0), allowed


class Stage:
    """The first stage's reading of a question and its ranking, for the second stage."""

    def __init__(self, q: str, index: dict[str, Any], view: Index, q_terms: dict[str, float], postings: Any,
                 n_docs: int, unknown: int, named: dict[int, tuple[str, float]], lean: str | None,
                 q_game: str | None, ranked: list[tuple[float, int]], why: dict[int, dict[str, float]],
                 ask_terms: set[str] | None) -> None:
        self.index = index
        self.view = view
        self.ranked = ranked
        self.why = why
        self.q_terms = q_terms
        self.postings = postings
        self.n_docs = n_docs
        self._idf: dict[str, float] = {}
        self.query = Query(q, q_terms, self.idf, {n: r for n, (_, r) in named.items()}, ask_terms, lean, q_game)
        self.query.total += UNKNOWN_WEIGHT * unknown * math.log(1 + (n_docs - 0.5) / 1.5)
        self.query.top = ranked[0][0] if ranked else 0.0

    def idf(self, t: str) -> float:
        """A term's weight in the coverage shares (a Korean syllable pair says less than a word)."""
        w = self._idf.get(t)
        if w is None:
            raw = self.postings.get(t)
            if raw is None:
                w = 0.0
            else:
                df = raw.count(":")
                w = math.log(1 + (self.n_docs - df + 0.5) / (df + 0.5)) * (0.3 if is_hangul(t) else 1.0)
            self._idf[t] = w
        return w

    def entry_facts(self, n: int) -> dict[str, Any]:
        """What the index keeps about entry ``n`` for the features."""
        index = self.index
        about = None
        related = (index.get("faq_related") or {}).get(str(n))
        if related:
            ids = self.view.ids
            about = {ids[r] for r in related if r in ids}
        subjects = index.get("subjects") or ()
        weights = index.get("subject_weights") or ()
        alias_weights = (index.get("alias_weights") or {}).get(str(n), "")
        return {
            "subject": [t.split() for t in subjects[n].split("|")] if n < len(subjects) else [],
            "subject_weights": [[float(x) for x in h.split()] for h in weights[n].split("|")] if n < len(weights)
            else [],
            "phrasings": [p.split() for p in (index.get("alias_terms") or {}).get(str(n), "").split("|") if p],
            "phrasing_weights": [float(x) for x in alias_weights.split()],
            "concepts": (index.get("concepts") or [0] * (n + 1))[n],
            "length": index["lengths"][n],
            "need": (index.get("needs") or {}).get(str(n)),
            "about": about,
            "role": self.view.role(n),
        }

    def rows(self, pool: int) -> list[tuple[int, float, list[float]]]:
        """The first ``pool`` candidates: entry number, first-stage score, features."""
        out = []
        cands = self.ranked[:pool]
        links = self.index.get("links") or {}
        near: dict[int, set[int]] = {n: set() for _, n in cands}
        for _, n in cands:
            for m in (int(x) for x in links.get(str(n), "").split()):
                if m in near and m != n:
                    near[n].add(m)
                    near[m].add(n)
        scores = dict((n, sc) for sc, n in cands)
        for rank, (sc, n) in enumerate(cands):
            facts = self.entry_facts(n)
            facts["support"] = sum(scores[m] for m in sorted(near[n]))
            x = features(self.query, n, rank, sc, self.why.get(n, {}), self.view.meta[n], facts)
            out.append((n, sc, x))
        return out


def _rerank(stage: Stage, first: Result, allowed: set[str] | None, limit: int) -> Result:
    """The second stage: the candidates re-ranked by the model; each hit's score is its probability."""
    model = load_model() or Model.default()
    rows = stage.rows(model.pool)
    if not rows:
        return first
    question = stage.query.form == "question"
    scored = sorted(((score(model, x, question), -i, n, x) for i, (n, _, x) in enumerate(rows)), reverse=True)
    probs = probabilities([z for z, *_ in scored])
    view = stage.view
    hits = []
    for p, (_, _, n, x) in zip(probs, scored, strict=True):
        h = view.hit(n, round(p, 4), stage.why.get(n))
        h.shares = {f: round(w * v, 3) for f, w, v in zip(FEATURES, model.weights_for(question), x, strict=True)
                    if w * v}
        hits.append(h)
    best = hits[0]
    other: Hit | None = None
    if allowed is None:
        for h in hits[1:]:
            if view.game(h._n) != view.game(best._n):
                if h.score >= BOTH_GAMES * best.score:
                    other = h
                break
    coverage = scored[0][3][FEATURES.index("cover")]
    named_it = any(k.startswith("=") for k in best.why)
    confidence = model.confidence(probs[0], question)
    if not named_it and coverage < NO_ANSWER_COVERAGE:
        coverage, confidence = 0.0, 0.0
    return Result(first.query, tuple(hits[:limit]), confidence >= model.sure, first.lang, first.game, first.terms,
                  first.notes, other, round(coverage, 3), round(confidence, 3))


def _fuzzy_concepts(terms: list[str], glossary: dict[str, Any], postings: Any,
                    budget: int, lang: str) -> list[tuple[str, str]]:
    """Unknown words close to a one-word glossary word of the question's language
    (``yeild`` -> ``~yield``, ``verlasen`` -> ``~yield``). Only game words are corrected: any
    English word is a typo or two away from some word of the rules (``bread`` / ``dread``)."""
    from kbgrules.core.closest import closest

    phrases = table(glossary.get("phrases") or {})
    langs = table(glossary.get("langs") or {})
    singles: list[str] | None = None  # made only when a word needs it
    out: list[tuple[str, str]] = []
    for t in terms:
        if budget <= 0:
            break
        if t in postings or t in phrases or len(t) < 5 or is_hangul(t) or not t.isascii():
            continue
        budget -= 1
        if singles is None:
            singles = [k for k, ls in langs.items() if " " not in k and len(k) >= 4 and not is_hangul(k)
                       and lang in listed(ls)]
        for k in closest(t, singles, n=1, cutoff=0.7):
            out.extend((t, CONCEPT + c) for c in listed(phrases.get(k)))
    return out


def lookup(entry_id: str, rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> dict[str, Any] | None:
    view = _view(load_index(rules_dirs))
    n = view.ids.get(entry_id)
    return None if n is None else dict(view.entry(n))


def entries(rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> dict[str, dict[str, Any]]:
    """Every entry by id, in the index's order (``kbg site`` shows them all)."""
    view = _view(load_index(rules_dirs))
    return {m[0]: dict(view.entry(n)) for n, m in enumerate(view.meta)}


def document_title(game: str, key: str, rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> str:
    return str(load_index(rules_dirs).get("documents", {}).get(game, {}).get(key, key))


def topics(game: str | None = None) -> list[dict[str, Any]]:
    """Every entry (id, title, kind), for ``kbg explain`` with no query."""
    return [{"id": eid, "title": title, "kind": kind, "game": g}
            for eid, g, kind, title in load_index()["meta"] if game is None or g == game]


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


__all__ += ["LANGS", "check_query", "index_path", "main", "stem"]

