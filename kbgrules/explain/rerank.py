"""The second stage of ``kbg explain``: the first stage's best candidates re-ranked by what the
question and each entry have in common, with weights fitted on players' questions.

The first stage (:mod:`kbgrules.explain.rank`) finds candidates by their words and concepts. Here
each (question, candidate) pair is described by a few numbers (:data:`FEATURES`): how much of the
question the entry covers and how much of the entry's own subject the question covers, the sentence
that asks in a long post, a piece named in the question and whether the entry is that piece's own,
the question's form against the entry's role (:mod:`kbgrules.core.kinds`: a rule, an FAQ entry, a
piece of a game...; never a game's own kind, so a new game's entries are weighed alike), what is
asked (can, must, how many, when, who...), and the first stage's own score. A linear model scores
each pair, with weights of its own for a question (players asking prefer an FAQ entry; a statement
of a rule, the rule); its weights are data (``rules_data/explain-model.json``), fitted by
``bench/fit_explain.py`` with a pairwise logistic regression on the dev questions, and its scores
give each candidate a probability of being the answer; how often a first answer of that probability
was right on the dev questions is its confidence, and ``kbg explain`` is sure of an answer from the
level (``Model.sure``) at which the dev questions' answers were right :data:`SURE` of the time.

Question words are language facts, like the stopwords of :mod:`kbgrules.explain.text`.
"""

from __future__ import annotations

import json
import math
import os
import re
from functools import lru_cache

from kbgrules.core.kinds import is_piece
from kbgrules.explain.concepts import CONCEPT
from kbgrules.explain.text import fold

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

MODEL_FILE = "explain-model.json"
MODEL_VERSION = 1
SURE = 0.9  # an answer, not a list of three, where answers this confident were right this often on dev
# the roles of kbgrules.core.kinds with a feature each (a rule is the reference); "piece" stands for both pieces
ROLE_FEATURES = ("faq", "piece", "component", "edition", "variant", "option")
FEATURES = (
    "score", "rank", "cover", "cover_concepts", "ask_gain", "subject", "subject_concepts", "in_subject", "phrasing",
    "phrasing_fit", "named_own", "named_about", "named_other", "exact", "partial", "pairs", "focus", "length",
    "support",
    *(f"kind_{k}" for k in ROLE_FEATURES), "log", "scope_miss", "scope_named", "other_lean",
    "question_faq", "short_faq", "short_piece", "statement_rule", "ask_same", "ask_other", "neg_same",
)


def _wordset(text: str) -> frozenset[str]:
    return frozenset(fold(w) for w in text.split())


# What a question asks, by its question words (folded), per kind; then the pairs of words that ask.
_ASK = {
    "can": """can could may allowed able peut peux puis pouvez pouvons autorise kann kannst konnen darf darfst
        durfen puedo puede puedes pueden podemos duoc""",
    "must": "must need needs required mandatory doit dois doivent faut muss musst mussen debo debe deben phai",
    "howmany": "combien wieviel wieviele cuantos cuantas cuanto cuanta",
    "when": "when quand wann cuando",
    "who": "who whom qui wer wem quien quienes",
    "where": "where wo wohin donde",
    "how": "how comment wie como",
}
_ASK_WORD = {w: kind for kind, ws in _ASK.items() for w in ws.split()}
_ASK_PAIR = {("how", "many"): "howmany", ("how", "much"): "howmany", ("wie", "viele"): "howmany",
             ("wie", "viel"): "howmany", ("bao", "nhieu"): "howmany", ("what", "happens"): "happens",
             ("what", "if"): "happens", ("was", "passiert"): "happens", ("que", "pasa"): "happens",
             ("se", "passe"): "happens", ("have", "to"): "must", ("has", "to"): "must", ("tiene", "que"): "must",
             ("hay", "que"): "must", ("co", "the"): "can", ("khi", "nao"): "when", ("luc", "nao"): "when",
             ("o", "dau"): "where", ("the", "nao"): "how"}
_HANGUL_ASK = (("수 있", "can"), ("수있", "can"), ("되나", "can"), ("가능", "can"), ("해야", "must"), ("몇", "howmany"),
               ("얼마", "howmany"), ("언제", "when"), ("누가", "who"), ("누구", "who"), ("어떻게 되", "happens"),
               ("어디", "where"), ("어떻게", "how"))
# a question's first word (an auxiliary or a question word; not "when" or "if", which open statements too)
_OPENERS = _wordset("""do does did is are was were should would will shall has have can could may must
    who what whats which how why where est-ce peut-on puis-je dois-je faut-il qui que quoi quel quelle quels
    quelles comment pourquoi combien kann darf muss ist sind gibt hat haben wer was welche welcher welches wie
    warum wo wieviele puedo puede tengo quien que cual como donde cuanto cuantos cuantas""")
_VI_ASKS = _wordset("khong chua gi nao sao may")  # a Vietnamese question ends with one of these
_NEGATION = _wordset("""not no never cannot can't cant isn't doesn't don't didn't without nobody
    pas jamais sans aucun nicht kein keine keinen nie ohne nunca sin ningun ninguna chua""")
_HANGUL_NEG = ("안 ", "못 ", "없", "않")
_SENTENCE = re.compile(r"(?<=[.!?。？])\s+|\n+")
_RAW = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*", re.UNICODE)


def _folded_words(text: str) -> list[str]:
    return [fold(w).replace("’", "'") for w in _RAW.findall(text)]


def ask_kinds(text: str) -> frozenset[str]:
    """What a question asks, by its question words: ``can``, ``must``, ``howmany``, ``when``, ``who``,
    ``happens``, ``where``, ``how`` (a question may ask several; a statement usually none)."""
    ws = _folded_words(text)
    found: set[str] = set()
    skip = False
    for i, w in enumerate(ws):
        if skip:
            skip = False
            continue
        pair = _ASK_PAIR.get((w, ws[i + 1])) if i + 1 < len(ws) else None
        if pair is not None:
            found.add(pair)
            skip = True
        elif w in _ASK_WORD:
            found.add(_ASK_WORD[w])
    if any("\uac00" <= c <= "\ud7a3" for c in text):
        found.update(k for w, k in _HANGUL_ASK if w in text)
    if text.lstrip()[:3].casefold() == "où ":
        found.add("where")
    return frozenset(found)


def form(text: str, n_terms: int) -> str:
    """``question`` (a question mark, or opened by an auxiliary or a question word), ``short`` (a few
    words without a question mark: a heading or a name) or ``statement``."""
    if "?" in text or "？" in text:
        return "question"
    ws = _folded_words(text)
    if ws and (ws[0] in _OPENERS or (ws[-1] in _VI_ASKS and len(ws) > 2)):
        return "question"
    if re.search(r"(나요|까요|까|니|가요|죠)\s*$", text.strip()):
        return "question"
    if n_terms <= 3 and len(ws) <= 5:
        return "short"
    return "statement"


def negated(text: str) -> bool:
    ws = _folded_words(text)
    return any(w in _NEGATION or w.endswith("n't") for w in ws) or any(n in text for n in _HANGUL_NEG)


def asking_part(text: str) -> str | None:
    """In a post of several sentences, the sentences that ask (a question mark, a question word or an
    opening verb); None when every sentence asks or none does."""
    parts = [p for p in _SENTENCE.split(text.strip()) if p.strip()]
    if len(parts) < 2:
        return None
    asking = [p for p in parts if form(p, 99) == "question"]
    if not asking or len(asking) == len(parts):
        return None
    return " ".join(asking)


# --------------------------------------------------------------------------- the model


def model_path() -> str:
    from kbgrules.core.paths import data_dir

    return os.path.join(data_dir(), MODEL_FILE)


@lru_cache(maxsize=1)
def load_model() -> Model | None:
    """The fitted weights, or None when the file is missing or of another version (first stage only)."""
    try:
        with open(model_path(), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    if data.get("version") != MODEL_VERSION or list(data.get("features", ())) != list(FEATURES):
        return None
    return Model(data)


class Model:
    """Weights per feature, how many candidates are re-ranked, and the calibration: how often a first
    answer of a given probability was right on the dev questions (a logistic curve,
    ``a + b * logit(p) + c * question``)."""

    __slots__ = ("calibration", "data", "pool", "question_weights", "sure", "weights")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.weights: list[float] = [float(w) for w in data["weights"]]
        # what a question (rather than a statement or a few words) adds to each weight
        self.question_weights = [w + float(d) for w, d in zip(self.weights, data.get("question_weights")
                                                                or [0.0] * len(self.weights), strict=True)]
        self.pool = int(data.get("pool", 25))
        a, b, c = data.get("calibration", (0.0, 1.0, 0.0))
        self.calibration = (float(a), float(b), float(c))
        self.sure = float(data.get("sure", SURE))  # the confidence from which kbg answers

    @classmethod
    def default(cls) -> Model:
        """Without fitted weights: the first stage's order, and its probability taken as it is."""
        return cls({"weights": [10.0 if f == "score" else 0.0 for f in FEATURES], "pool": 25})

    def weights_for(self, question: bool) -> list[float]:
        """The weights for a question, or for a statement or a few words."""
        return self.question_weights if question else self.weights

    def confidence(self, p: float, question: bool) -> float:
        """How often a first answer of probability ``p`` is right (measured on the dev questions), for a
        question or for a statement or a few words."""
        a, b, c = self.calibration
        p = min(max(p, 1e-6), 1 - 1e-6)
        z = a + b * math.log(p / (1 - p)) + c * question
        return 1 / (1 + math.exp(-z)) if z > -700 else 0.0


# --------------------------------------------------------------------------- features


class Query:
    """What the first stage read in a question, as the features need it."""

    __slots__ = ("ask", "ask_terms", "concepts", "form", "idf", "lean", "named", "negated", "q_game", "terms",
                 "top", "total")

    def __init__(self, text: str, terms: dict[str, float], idf: Callable[[str], float], named: dict[int, float],
                 ask_terms: set[str] | None, lean: str | None, q_game: str | None) -> None:
        self.terms = terms  # term -> weight
        self.idf = idf
        self.concepts = [t for t in terms if t.startswith(CONCEPT)]
        self.named = named  # entry number -> how close the name was
        self.ask_terms = ask_terms
        self.lean = lean
        self.q_game = q_game
        self.form = form(text, len(terms))
        self.ask = ask_kinds(text)
        self.negated = negated(text)
        self.total = sum(w * idf(t) for t, w in terms.items()) or 1.0
        self.top = 0.0  # the first stage's best score


def _share(have: set[str] | dict[str, Any], terms: Sequence[str], idf: Callable[[str], float]) -> float:
    total = got = 0.0
    for t in terms:
        w = idf(t)
        total += w
        if t in have:
            got += w
    return got / total if total else 0.0


def features(q: Query, n: int, rank: int, score: float, why: dict[str, float], meta: Sequence[str],
             entry: dict[str, Any]) -> list[float]:
    """The numbers that describe the pair (question, entry ``n``), in the order of :data:`FEATURES`.
    ``entry`` holds what the index keeps for the second stage: ``subject`` and ``phrasings`` (their
    terms) with ``subject_weights`` and ``phrasing_weights`` (their terms' weights, summed), ``concepts``,
    ``length``, ``need`` (concepts an edition's entry needs), ``about`` (the pieces an FAQ entry is
    about), ``role`` (:mod:`kbgrules.core.kinds`)."""
    eid, game, _, title = meta
    role = entry["role"]
    group = "piece" if is_piece(role) else role
    idf = q.idf
    matched = [t for t in q.terms if t in why]
    cover = sum(q.terms[t] * idf(t) for t in matched) / q.total
    qc = q.concepts
    cover_c = _share(why, qc, idf) if qc else 0.0
    ask_gain = _share(why, sorted(q.ask_terms), idf) - cover if q.ask_terms else 0.0
    # the weights of an entry's own terms were summed when the index was built: only the question's are
    # looked up here
    subj = in_subj = subj_cc = 0.0
    for k, (heading, (total, concepts)) in enumerate(zip(entry["subject"], entry["subject_weights"], strict=True)):
        got = got_q = got_c = 0.0  # the title, then its translations: the best
        for t in heading:
            if t in q.terms:
                w = idf(t)
                got += w
                got_q += q.terms[t] * w
                if t.startswith(CONCEPT):
                    got_c += w
        subj = max(subj, got / total if total else 0.0)
        in_subj = max(in_subj, got_q / q.total)
        if k == 0 and concepts:
            subj_cc = got_c / concepts
    best_in = best_fit = 0.0  # the phrasing most of which the question holds; the one that fits it best
    for ph, total in zip(entry["phrasings"], entry["phrasing_weights"], strict=True):
        got = 0.0
        for t in ph:
            if t in q.terms:
                got += idf(t)
        if got:
            best_in = max(best_in, got / total)
            inside = set(ph)
            best_fit = max(best_fit, got / (total + sum(idf(t) for t in q.terms if t not in inside)))
    named = q.named.get(n, 0.0)
    about = 0.0
    if not named and entry.get("about") is not None:
        about = max((r for m, r in q.named.items() if m in entry["about"]), default=0.0)
    named_other = max(q.named.values()) if q.named and not named and not about else 0.0
    exact = 1.0 if "=phrase" in why else 0.0
    partial = max((v for k, v in why.items() if k.startswith("~phrase:")), default=0.0) / 3.0
    held = len([t for t in qc if t in why])  # the question's concepts the entry holds
    pairs = (held * (held - 1)) / (len(qc) * (len(qc) - 1)) if len(qc) >= 2 else 0.0
    focus = held / max(1, entry["concepts"])
    need = entry.get("need") or ()
    scope_miss = 1.0 if need and not any(c in q.terms for c in need) else 0.0
    scope_named = 1.0 if need and not scope_miss else 0.0
    other_lean = 1.0 if q.lean is not None and game != q.lean else 0.0
    is_faq = role == "faq"
    title_ask = ask_kinds(title) if is_faq else frozenset()
    ask_same = 1.0 if q.ask and title_ask and q.ask & title_ask else 0.0
    ask_other = 1.0 if q.ask and title_ask and not q.ask & title_ask else 0.0
    neg_same = 1.0 if is_faq and q.negated and negated(title) else 0.0
    return [
        score / q.top if q.top else 0.0,
        1.0 / (1 + rank),
        cover,
        cover_c,
        ask_gain,
        min(subj, 1.0),
        subj_cc,
        min(in_subj, 1.0),
        best_in,
        best_fit,
        named,
        about,
        named_other,
        exact,
        partial,
        pairs,
        min(focus, 1.0),
        math.log(1 + entry["length"]) / 6,
        min(entry.get("support", 0.0) / q.top, 3.0) if q.top else 0.0,
        *(1.0 if group == k else 0.0 for k in ROLE_FEATURES),
        1.0 if ".log." in eid else 0.0,
        scope_miss,
        scope_named,
        other_lean,
        1.0 if is_faq and q.form == "question" else 0.0,
        1.0 if is_faq and q.form == "short" else 0.0,
        1.0 if q.form == "short" and group == "piece" else 0.0,
        1.0 if role == "rule" and q.form == "statement" else 0.0,
        ask_same,
        ask_other,
        neg_same,
    ]


def score(model: Model, x: Sequence[float], question: bool) -> float:
    return sum(w * v for w, v in zip(model.weights_for(question), x, strict=True))


def probabilities(scores: Sequence[float]) -> list[float]:
    """Each candidate's share of the answer (a softmax of the scores)."""
    if not scores:
        return []
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]
