"""Glossary concepts for ``kbg explain``: the games' glossaries compiled for the index, and a text's analysis,
the same for a player's question and for the rule data (:mod:`kbgrules.explain.text` gives the terms).

Game words are mapped to *concepts* of the games' glossaries (``rules_data/*/glossary.yaml``): ``fuir``,
``항복``, ``nhường`` and ``verlassen`` all give ``~yield``, so a question meets an entry that uses another
word, or another language, for the same thing. Dice notation (``1-1-1``, ``three 2s``) gives
``~number-set`` and ``~face-2``. Which games a question's words belong to is found here too. Nothing here
knows a game: the glossaries carry that.
"""

from __future__ import annotations

import re
import unicodedata

from kbgrules.explain.packed import Packed, listed, table
from kbgrules.explain.text import (
    COMMON_WORDS,
    STOPWORDS,
    detect_language,
    fold,
    is_hangul,
    korean_forms,
    raw_words,
    stem,
    word_tokens,
    words,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

CONCEPT = "~"  # concept terms start with this; words never do
WEAK_SIGN = 0.25  # how much a game word the other game's texts also use says about the game


# --------------------------------------------------------------------------- glossary


def glossary_key(term: str, lang: str | None = None) -> tuple[str, bool] | None:
    """How a glossary word of ``lang`` is matched: its words, stemmed and joined by spaces, and whether
    the accents must match too (a word that folds to a stopword: French ``dés`` is not ``des``)."""
    ws = words(term, lang)
    if not ws:
        return None
    key = " ".join(w if is_hangul(w) else stem(w) for w in ws)
    exact = len(ws) == 1 and ws[0] in STOPWORDS
    return (unicodedata.normalize("NFC", term.casefold()) if exact else key), exact


def compile_glossary(glossaries: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """``{game: {concept: {"words": {lang: [word, ...]}}}}`` -> the form the index stores:
    ``phrases`` (match key -> [concept, ...]), ``exact`` (accent-exact words), ``games``
    (concept -> games), ``langs`` (match key -> languages it is a word of), ``exact_langs`` (the
    same for the accent-exact words), ``own`` (for a key that is a word of several languages with
    other meanings: language -> its concepts; folded, Vietnamese ``rời`` is French ``roi``) and
    ``overlays`` (concept -> the editions and variants it names)."""
    phrases: dict[str, list[str]] = {}
    meanings: dict[str, dict[str, set[str]]] = {}  # match key -> concept -> languages
    exact: dict[str, list[str]] = {}
    exact_langs: dict[str, list[str]] = {}
    games: dict[str, list[str]] = {}
    langs: dict[str, list[str]] = {}
    overlays: dict[str, list[str]] = {}
    for game, concepts in sorted(glossaries.items()):
        for cid, c in sorted(concepts.items()):
            games.setdefault(cid, [])
            if game not in games[cid]:
                games[cid].append(game)
            for ov in c.get("overlays") or ():
                if str(ov) not in overlays.setdefault(cid, []):
                    overlays[cid].append(str(ov))
            for lang, ws in sorted((c.get("words") or {}).items()):
                for w in ws:
                    found = glossary_key(str(w), lang)
                    if found is None:
                        continue
                    key, must_match = found
                    table = exact if must_match else phrases
                    if cid not in table.setdefault(key, []):
                        table[key].append(cid)
                    known = exact_langs if must_match else langs
                    if lang not in known.setdefault(key, []):
                        known[key].append(lang)
                    if not must_match:
                        meanings.setdefault(key, {}).setdefault(cid, set()).add(lang)
    own = {key: {lang: [c for c in phrases[key] if lang in by_cid[c]] for lang in langs[key]}
           for key, by_cid in meanings.items() if len({frozenset(ls) for ls in by_cid.values()}) > 1}
    longest = max((len(k.split()) for k in phrases), default=1)
    return {"phrases": phrases, "exact": exact, "exact_langs": exact_langs, "games": games, "langs": langs,
            "own": own, "longest": longest, "overlays": overlays}


def weak_keys(glossary: Mapping[str, Any], texts: Mapping[str, list[tuple[str, str]]]) -> list[str]:
    """Glossary words of one game that the other game's texts use too (``place``, ``center``):
    weak signs of which game a question is about. ``texts`` maps a game to its entries' texts,
    each with its language."""
    # one string per game: texts apart by a line break, which no needle holds
    seqs = {g: "\n".join(" " + " ".join(w if is_hangul(w) else stem(w) for w in words(t, lang)) + " "
                         for lang, t in ts)
            for g, ts in texts.items()}
    cgames = glossary["games"]
    out = []
    for key, cids in glossary["phrases"].items():
        owners = {g for c in cids for g in cgames.get(c, ())}
        if len(owners) != 1:
            continue
        needle = key if is_hangul(key) else f" {key} "
        if any(needle in s for g, s in seqs.items() if g not in owners):
            out.append(key)
    return sorted(out)


def pack_glossary(glossary: Mapping[str, Any]) -> dict[str, Any]:
    """The compiled glossary as the index stores it: its big tables packed."""
    out = dict(glossary)
    for key in ("phrases", "langs"):
        out[key] = Packed.pack({k: " ".join(v) for k, v in glossary[key].items()})
    out["weak"] = Packed.pack(dict.fromkeys(glossary.get("weak", ()), ""))
    return out


# --------------------------------------------------------------------------- analysis


class Analysis:
    """What a text says, for ranking: its terms, the concepts found (with the words that gave
    them), the games its words belong to, and the languages of its glossary words."""

    __slots__ = ("concepts", "games", "langs", "terms")

    def __init__(self) -> None:
        self.terms: list[str] = []
        self.concepts: list[tuple[str, str]] = []  # (concept, the words that gave it)
        self.games: list[tuple[set[str], float]] = []  # per game word: its games, and how sure a sign it is
        self.langs: dict[str, float] = {}


_DICE_RUN = re.compile(r"\b([1-6])(?:\s*[-,/+x ]\s*\1){2,}\b|\b(111|222|333)\b")
_COUNT_FACE = re.compile(r"\b([3-8])\s*(?:x\s*)?(?:of\s+|de\s+|des\s+)?([1-3])(?:s|'s|er)?\b")


def _dice_terms(folded: str) -> list[tuple[str, str]]:
    """Dice notation in a text: ``1-1-1``, ``222``, ``three 2s`` (number words already digits)."""
    out: list[tuple[str, str]] = []
    for m in _DICE_RUN.finditer(folded):
        face = (m.group(1) or m.group(2)[0])
        out += [(f"{CONCEPT}number-set", m.group(0)), (f"{CONCEPT}face-{face}", m.group(0))]
    for m in _COUNT_FACE.finditer(folded):
        out += [(f"{CONCEPT}number-set", m.group(0)), (f"{CONCEPT}face-{m.group(2)}", m.group(0))]
    return out


def analyze(text: str, glossary: Mapping[str, Any], game: str | None = None, lang: str | None = None) -> Analysis:
    """Terms and concepts of ``text``, written in ``lang`` (None: not known). With ``game``, only
    that game's concepts are used (the data of one game); without, every game's (a question)."""
    a = Analysis()
    raw = raw_words(text)
    ws = words(text, lang)
    a.terms = word_tokens(ws)
    folded = " ".join(ws)
    phrases = table(glossary.get("phrases", {}))
    exact: dict[str, list[str]] = glossary.get("exact", {})
    cgames: dict[str, list[str]] = glossary.get("games", {})
    klangs = table(glossary.get("langs", {}))
    longest = int(glossary.get("longest", 1))
    weak = table(glossary.get("weak", ()))
    own: Mapping[str, dict[str, list[str]]] = glossary.get("own", {})
    if isinstance(weak, list):
        weak = set(weak)
    dice = _dice_terms(folded)
    if dice and (game is None or game in cgames.get("number-set", ())):
        # dice notation is a game word too: of the games whose glossary has a set of numbers
        _add(a, ["number-set"], dice[0][1], cgames, game)
        a.concepts.extend(d for d in dice if d[0] != CONCEPT + "number-set")
    forms = [korean_forms(w) if is_hangul(w) else [stem(w)] for w in ws]
    common = COMMON_WORDS.get(lang or "", frozenset())
    rawset = set(raw)
    covered = [False] * len(ws)
    starts = _phrase_starts(phrases) if isinstance(phrases, dict) else None
    i = 0
    while i < len(ws):
        matched = 0
        most = min(longest, len(ws) - i)
        if starts is not None and not any(f in starts for f in forms[i]):
            most = 1  # no phrase of several words begins with this one
        for n in range(most, 0, -1):
            keys = _keys(forms[i:i + n])
            for key in keys:
                cids = listed(phrases.get(key))
                if not cids or (n == 1 and ws[i] in STOPWORDS):
                    continue
                langs = listed(klangs.get(key))
                if common and lang not in langs and any(w in common for w in ws[i:i + n]):
                    continue  # another language's word, here a common word of the text's: "a 3" in English
                if lang in langs and key in own:  # the meaning in the text's language: French "roi" is a king
                    cids = own[key][lang]
                _add(a, cids, " ".join(ws[i:i + n]), cgames, game, WEAK_SIGN if key in weak else 1.0)
                for kl in langs:
                    a.langs[kl] = a.langs.get(kl, 0.0) + 1.0 / len(langs)
                matched = n
                break
            if matched:
                break
        for k in range(i, i + matched):
            covered[k] = True
        i += matched or 1
    if lang in (None, "de"):  # German writes compounds as one word
        for k, w in enumerate(ws):
            if not covered[k] and len(w) >= 7 and w.isalpha() and not is_hangul(w) and w not in STOPWORDS:
                for part in _compound_parts(w, phrases, klangs):
                    _add(a, listed(phrases.get(part)), w, cgames, game)
    exact_langs: Mapping[str, list[str]] = glossary.get("exact_langs", {})
    for key, cids in exact.items():
        if key in rawset and not (common and lang not in exact_langs.get(key, (lang,)) and fold(key) in common):
            _add(a, cids, key, cgames, game)
    return a


def _compound_parts(word: str, phrases: Any, klangs: Any) -> list[str]:
    """German glossary words that begin or end a longer word: ``zusatzwürfel`` -> ``würfel``,
    ``herzsymbol`` -> ``herz`` (German writes compounds as one word; an English word inside one,
    ``angreif-ende``, is no part)."""
    parts = []
    for i in range(len(word) - 3, 3, -1):
        if word[:i] in phrases and "de" in listed(klangs.get(word[:i])):
            parts.append(word[:i])
            break
    for i in range(3, len(word) - 3):
        tail = stem(word[i:])
        if tail in phrases and "de" in listed(klangs.get(tail)):
            parts.append(tail)
            break
    return parts


_STARTS: list[tuple[dict[str, Any], frozenset[str]]] = []


def _phrase_starts(phrases: dict[str, Any]) -> frozenset[str]:
    """The first words of a glossary's phrases of several words (kept for the last glossary seen)."""
    if not _STARTS or _STARTS[0][0] is not phrases:
        _STARTS[:] = [(phrases, frozenset(k.split(" ", 1)[0] for k in phrases if " " in k))]
    return _STARTS[0][1]


def _keys(forms: list[list[str]]) -> list[str]:
    if all(len(fs) == 1 for fs in forms):  # most words have one form
        return [" ".join(fs[0] for fs in forms).strip()]
    keys = [""]
    for fs in forms:
        keys = [f"{k} {f}".strip() for k in keys for f in fs][:32]
    return keys


def _add(a: Analysis, cids: list[str], src: str, cgames: Mapping[str, list[str]], game: str | None,
         sign: float = 1.0) -> None:
    games: set[str] = set()
    for cid in cids:
        owners = cgames.get(cid, [])
        if game is not None and game not in owners:
            continue
        games.update(owners)
        a.concepts.append((CONCEPT + cid, src))
    if games:
        a.games.append((games, sign))


def analyze_question(text: str, glossary: Mapping[str, Any]) -> tuple[Analysis, str]:
    """A question's analysis and its language (``en`` when unsure). The language comes from the
    analysis (its glossary words), and decides which number words are digits, which words are
    common words of the language rather than another language's game words, and whether German
    compounds are split: the analysis is redone in the language found."""
    a = analyze(text, glossary)
    lang, sure = detect_language(text, a.langs)
    lang = lang if sure else "en"
    if sure or words(text, lang) != words(text):
        a = analyze(text, glossary, lang=lang)
    return a, lang
