"""Ranking for ``kbg explain``: find the rule, FAQ entry, piece of a game or component a question is about.

The index covers every game: rule statements (every edition and variant), FAQ entries, the pieces
each game's engine adds from its own tables (:mod:`kbgrules.core.kinds`: named ones, found by their
name, and others, found by their number or their words), components, editions and options. A
question is analysed the way the data was (:mod:`kbgrules.explain.text`, :mod:`kbgrules.explain.concepts`):
words are stemmed, game words become glossary concepts in any of six languages (``fuir``, ``항복``,
``verlassen`` -> ``~yield``), dice notation is read (``three 2s``), the names of named pieces are found
despite typos, and the words that belong to one game only keep the answer in that game. The first stage
is BM25 over the entries' weighted fields plus bonuses for a known phrasing or a named piece
(``Result.why`` says what each term contributed); the second (:mod:`kbgrules.explain.rerank`) re-ranks
its best candidates with fitted weights. No network.

The shipped index is prebuilt (:mod:`kbgrules.explain.store`), so answering needs no YAML parsing.
Examples of questions and their answers: ``docs/explain.md`` and ``tests/test_explain.py``.
"""

from __future__ import annotations

import math
import os
import re

from kbgrules.core.kinds import NAMED_PIECE
from kbgrules.errors import KbgError
from kbgrules.explain.concepts import CONCEPT, analyze, analyze_question
from kbgrules.explain.packed import listed, table
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
from kbgrules.explain.store import Hit, Index, index_view, load_index
from kbgrules.explain.text import STOPWORDS, is_hangul, phrase, tokens, unsupported_script, words

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; `kbg explain` imports this module first
    from collections.abc import Sequence
    from typing import Any

__all__ = ["QueryError", "Result", "check_query", "first_stage", "numbered", "search"]

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


# --------------------------------------------------------------------------- the index's packed lists


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
    view = index_view(index)
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
    return _first_stage(query, q, index, index_view(index), a, lang, game)[0]


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

