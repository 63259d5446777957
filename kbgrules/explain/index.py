"""Building ``kbg explain``'s index from the rule data (the slow path: loads every edition).

``python -m kbgrules.explain --build`` writes the result to ``rules_data/explain-index.json``, so
answering a question reads one JSON file and parses no YAML. Every field of every entry goes
through :func:`kbgrules.explain.concepts.analyze`, the same analysis a question gets.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from typing import Any

from kbgrules.core.entries import Entry
from kbgrules.core.kinds import CORE_KINDS, NAMED_PIECE, PIECE_ROLES, role
from kbgrules.errors import KbgError
from kbgrules.explain.concepts import CONCEPT, Analysis, analyze, compile_glossary, pack_glossary, weak_keys
from kbgrules.explain.packed import INDEX_VERSION, Packed
from kbgrules.explain.text import is_hangul, phrase

# How much a term counts in each field of an entry; `tr` is the entry's own translations: of its text,
# and (`tr-title`, counted as `tr`) of its title, whose concepts the English title already gives.
FIELD_WEIGHTS = {"id": 3.0, "title": 4.0, "alias": 3.0, "body": 1.0, "tr": 1.0, "tr-title": 1.0}
TRANSLATED = ("tr", "tr-title")  # not counted in an entry's length


class Corpus:
    """What the index is built from: the entries, and per game its documents, names and glossary."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.documents: dict[str, dict[str, str]] = {}
        self.game_names: dict[str, list[str]] = {}
        self.glossaries: dict[str, dict[str, Any]] = {}
        # id -> name, names, short, aliases, pages, number_words, kinds (each kind of its entries -> its role)
        self.games: dict[str, dict[str, Any]] = {}


def _sources(items: Any) -> list[dict[str, Any]]:
    return [{"doc": s.doc, "section": s.section, "edition": s.edition} for s in items]


def _words(lang_words: Any) -> list[tuple[str, str]]:
    """``{lang: [word, ...]}`` -> ``[(lang, word), ...]``."""
    return [(str(lang), w) for lang, ws in (lang_words or {}).items() for w in ws]


def collect(rules_dirs: Sequence[str | os.PathLike[str]] = (), plugins: bool = True) -> Corpus:
    """Every entry of every game, from the rule data (slow: loads every edition and variant); with
    ``plugins`` False, of the shipped games only (the shipped index)."""
    from kbgrules.core.load import games, load
    from kbgrules.core.registry import engine_for

    out: dict[str, Entry] = {}
    corpus = Corpus()
    for info in games(rules_dirs, plugins=plugins):
        prefix = info.short
        default = info.default_edition.id
        base = load(info.id, rules_dirs=rules_dirs)
        docs = {k: d.title for k, d in base.documents.items()}
        editions = [(ed, load(info.id, edition=ed.id, rules_dirs=rules_dirs)) for ed in info.editions]
        variants = [(v, load(info.id, variants=[v.id], rules_dirs=rules_dirs)) for v in info.variants]
        for ed, rs in editions:  # the default edition first
            for r in rs.rules.values():
                e = out.get(r.id)
                if e is None:
                    out[r.id] = Entry(r.id, info.id, "rule", r.title, r.text, _sources(r.sources), list(r.related),
                                      r.conflict, editions=[] if ed.id == default else [ed.id],
                                      translations=dict(r.translations), title_translations=dict(r.title_translations))
                elif r.text != e.text:
                    e.by_edition[ed.id] = r.text
            for comp in rs.components:
                cid = f"{prefix}.component.{comp.id}"
                if ed.id != default and cid not in out:
                    count = f"{comp.count} " if comp.count else ""
                    out[cid] = Entry(cid, info.id, "component", comp.name.capitalize(),
                                     f"{count}{comp.name} in the {ed.title} box"
                                     + (f": {comp.note}." if comp.note else "."), editions=[ed.id])
        for v, rs in variants:
            for r in rs.rules.values():
                if r.id not in out:
                    out[r.id] = Entry(r.id, info.id, "rule", r.title, r.text, _sources(r.sources), list(r.related),
                                      r.conflict, notes=[f"with the variant {v.id}"], translations=dict(r.translations),
                                      variants=[v.id], title_translations=dict(r.title_translations))
        engine = engine_for(base.data)
        declared = _declared_kinds(info.id, engine.reference_kinds)
        for e in engine.reference_entries(prefix, editions, variants):
            if e.kind not in declared:
                raise KbgError(f"{info.id}: its engine gives entries of the kind {e.kind!r} but declares no role "
                               f"for it (reference_kinds)", code="engine-kinds")
            out.setdefault(e.id, e)
        for comp in base.components:
            cid = f"{prefix}.component.{comp.id}"
            count = f"{comp.count} " if comp.count else ""
            out[cid] = Entry(cid, info.id, "component", comp.name.capitalize(),
                             f"{count}{comp.name} in the box" + (f": {comp.note}." if comp.note else "."),
                             related=[f"{prefix}.components"])
        for ov in [*info.editions, *info.variants]:
            kind = "edition" if ov.kind == "edition" else "option" if ov.option else "variant"
            oid = f"{prefix}.{kind}.{ov.id}"
            if kind == "variant" and oid in out:
                continue
            out[oid] = Entry(oid, info.id, kind, ov.title, ov.summary + (" (the default)" if ov.default else ""),
                             _sources(ov.sources), aliases=[("en", a) for a in (ov.id, *ov.aliases)])
        for fid, f in (base.data.get("faq") or {}).items():
            out[fid] = Entry(fid, info.id, "faq", str(f["question"]), str(f["answer"]).strip(),
                             [dict(s) for s in f.get("sources", ())], list(f.get("related", ())),
                             None if f.get("conflict") is None else str(f["conflict"]).strip(),
                             editions=list(f.get("editions", ())), translations=dict(f.get("translations") or {}),
                             aliases=_words(f.get("phrasings")),
                             title_translations={k: str(v).strip()
                                                 for k, v in (f.get("question_translations") or {}).items()})
        for target, words in (base.data.get("words") or {}).items():
            if target in out:
                out[target].add_aliases(_words(words))
        corpus.documents[info.id] = docs
        corpus.game_names[info.id] = sorted({phrase(n) for n in (info.id, info.name, *info.aliases)} - {""})
        corpus.glossaries[info.id] = dict(base.data.get("glossary") or {})
        corpus.games[info.id] = {"name": info.name, "names": dict(info.name_translations), "short": info.short,
                                 "aliases": [info.id, *info.aliases],
                                 "pages": [list(p) for p in engine.reference_pages],
                                 "number_words": list(engine.number_words), "kinds": dict(declared)}
    corpus.entries = list(out.values())
    for g, gi in corpus.games.items():  # the roles of the kinds each game's entries carry
        declared = gi["kinds"]
        gi["kinds"] = {k: role(k, declared) for k in sorted({e.kind for e in corpus.entries if e.game == g})}
    return corpus


def _declared_kinds(game: str, kinds: Any) -> dict[str, str]:
    """An engine's ``reference_kinds``, checked: kinds of its own (not the core's), each a piece's role."""
    out = {str(k): str(r) for k, r in dict(kinds).items()}
    for k, r in out.items():
        if k in CORE_KINDS or r not in PIECE_ROLES:
            raise KbgError(f"{game}: its engine declares the kind {k!r} as {r!r}; a game's own kinds are not "
                           f"the core's ({', '.join(CORE_KINDS)}) and play one of the roles "
                           f"{', '.join(PIECE_ROLES)}", code="engine-kinds")
    return out


def _fields(e: Entry) -> dict[str, list[tuple[str, str]]]:
    """Each field's texts, each with its language."""
    return {
        "id": [("en", e.id.replace(".", " ").replace("-", " "))],
        "title": [("en", e.title)],
        "alias": list(zip(e.alias_langs, e.aliases, strict=True)),
        "body": [("en", t) for t in (e.text, e.conflict or "", *e.by_edition.values())],
        "tr": list(e.translations.items()),
        "tr-title": list(e.title_translations.items()),
    }


def build_index(corpus: Corpus) -> dict[str, Any]:
    """An inverted index over the entries' analysed fields, ready to be stored as JSON.

    ``postings`` maps a term (a word stem, a Korean syllable pair or a ``~concept``) to a string of
    ``entry:weight`` pairs (field weights applied); a string, because JSON strings load several
    times faster than lists of pairs (``phrases`` and ``names`` likewise hold space-separated entry
    numbers); ``postings``, ``phrases`` and the glossary's big tables are packed into one text
    each (:class:`~kbgrules.explain.packed.Packed`). ``entries`` holds each entry as JSON text,
    decoded when shown; ``meta`` its id, game, kind and title for ranking; ``game_info`` per game,
    among others, the role of each kind (:mod:`kbgrules.core.kinds`). ``names`` maps the name of each
    named piece to its entry, for matching names with typos; ``glossary`` is what questions are
    analysed with (each game's names are a concept too, ``~game-`` and the game's id);
    ``needs`` lists, for an entry that exists only in an edition or variant, the concepts that name
    it.
    """
    glossaries = {g: {**concepts, f"game-{g}": {"words": {"en": corpus.game_names.get(g, [])}}}
                  for g, concepts in corpus.glossaries.items()}
    glossary = compile_glossary(glossaries)
    by_game: dict[str, list[tuple[str, str]]] = {}
    for e in corpus.entries:
        by_game.setdefault(e.game, []).extend(t for ts in _fields(e).values() for t in ts if t[1])
    glossary["weak"] = weak_keys(glossary, by_game)
    overlays: dict[str, list[str]] = dict(glossary["overlays"])
    needs: dict[str, list[str]] = {}
    postings: dict[str, dict[int, float]] = {}
    lengths: list[int] = []
    subjects: list[str] = []
    alias_terms: dict[str, str] = {}
    concept_counts: list[int] = []
    phrases: dict[str, list[int]] = {}
    names: dict[str, list[int]] = {}
    analysed: dict[tuple[str, str, str], Analysis] = {}  # a title or an alias is read for several tables

    def read(text: str, game: str, lang: str) -> Analysis:
        key = (text, game, lang)
        found = analysed.get(key)
        if found is None:
            found = analysed[key] = analyze(text, glossary, game, lang)
        return found

    for n, e in enumerate(corpus.entries):
        length = 0
        own: set[str] = set()
        for fname, texts in _fields(e).items():
            for lang, text in texts:
                if not text:
                    continue
                a = read(text, e.game, lang)
                # a translated title adds the words of its language, not its concepts a second time
                terms = [*a.terms, *(c for c, _ in a.concepts)] if fname != "tr-title" else list(a.terms)
                if fname not in TRANSLATED:
                    length += len(terms)
                    own.update(c for c, _ in a.concepts)
                for t in terms:
                    postings.setdefault(t, {})
                    postings[t][n] = postings[t].get(n, 0.0) + FIELD_WEIGHTS[fname]
        lengths.append(max(1, length))
        concept_counts.append(len(own))
        titles = [("en", e.title), *sorted(e.title_translations.items())]
        subjects.append("|".join(dict.fromkeys(" ".join(sorted({*ta.terms, *(c for c, _ in ta.concepts)}))
                                               for ta in (read(t, e.game, lang) for lang, t in titles))))
        sets = dict.fromkeys(" ".join(sorted({*a.terms, *(c for c, _ in a.concepts)}))
                             for a in (read(x, e.game, lang)
                                       for lang, x in zip(e.alias_langs, e.aliases, strict=True)))
        sets.pop("", None)
        if sets:
            alias_terms[str(n)] = "|".join(sets)
        scope = {*e.editions, *e.variants}
        need = sorted(CONCEPT + c for c, ovs in overlays.items() if scope & set(ovs))
        if need:
            needs[str(n)] = need
        for p in {phrase(e.title), phrase(e.id), *(phrase(a) for a in e.aliases)}:
            if p:
                phrases.setdefault(p, []).append(n)
        if corpus.games[e.game]["kinds"].get(e.kind) == NAMED_PIECE:
            for p in {phrase(e.title), *(phrase(a) for a in e.aliases)}:
                if p and n not in names.setdefault(p, []):
                    names[p].append(n)

    numbers = {e.id: n for n, e in enumerate(corpus.entries)}

    def idf(t: str) -> float:  # as rank.py's Stage.idf weighs a term
        df = len(postings.get(t) or ())
        if not df:
            return 0.0
        w = math.log(1 + (len(corpus.entries) - df + 0.5) / (df + 0.5))
        return w * 0.3 if is_hangul(t) else w

    def totals(heading: str) -> str:  # a heading's weight, and its concepts' weight
        ts = heading.split()
        return f"{sum(idf(t) for t in ts)!r} {sum(idf(t) for t in ts if t.startswith(CONCEPT))!r}"

    def lean(e: Entry) -> dict[str, Any]:
        d = {k: v for k, v in e.to_json().items() if v not in (None, [], {}) or k in ("id", "text")}
        d["sources"] = [{k: v for k, v in s.items() if v is not None} for s in e.sources]
        return d

    def packed(table: dict[str, list[int]]) -> dict[str, str]:
        return {k: " ".join(map(str, v)) for k, v in sorted(table.items())}

    return {
        "version": INDEX_VERSION,
        "documents": corpus.documents,
        "games": corpus.game_names,
        # each game's name, names in other languages, id prefix, aliases, the site's pages of its own
        # tables, the words before the number of an entry found by its number, and each kind's role
        "game_info": corpus.games,
        "numbered": {str(e.number): n for n, e in enumerate(corpus.entries) if e.number is not None},
        "glossary": pack_glossary(glossary),
        "meta": [[e.id, e.game, e.kind, e.title] for e in corpus.entries],
        "faq_related": {str(n): e.related for n, e in enumerate(corpus.entries) if e.kind == "faq" and e.related},
        # each entry as its own JSON text: decoded only when shown (start-up time)
        "entries": [json.dumps(lean(e), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
                    for e in corpus.entries],
        "postings": Packed.pack({t: " ".join(f"{n}:{round(w, 2):g}" for n, w in sorted(d.items()))
                                 for t, d in postings.items()}),
        "lengths": lengths,
        "phrases": Packed.pack(packed(phrases)),
        "names": packed(names),
        "needs": needs,
        # for the second stage (rank.py's rerank): each entry's subject (its title's terms, then each
        # translated title's), the terms of each phrasing players use for it, how many concepts it
        # holds, and the entries it links to
        "subjects": subjects,
        "links": {str(n): " ".join(str(numbers[r]) for r in e.related if r in numbers)
                  for n, e in enumerate(corpus.entries) if any(r in numbers for r in e.related)},
        "alias_terms": alias_terms,
        # the weight of each subject heading (and of its concepts) and of each phrasing, summed once here
        "subject_weights": ["|".join(totals(h) for h in s.split("|")) for s in subjects],
        "alias_weights": {k: " ".join(repr(sum(idf(t) for t in p.split())) for p in v.split("|"))
                          for k, v in alias_terms.items()},
        "concepts": concept_counts,
    }


def write_index(data: dict[str, Any], path: str, entries_path: str) -> None:
    """Store an index: the entries one per line in ``entries_path``, read by offset when shown;
    the rest, with those offsets, as JSON in ``path``."""
    rest = {k: v for k, v in data.items() if k != "entries"}
    offsets = []
    with open(entries_path, "wb") as fh:
        for text in data["entries"]:
            offsets.append(fh.tell())
            fh.write(text.encode("utf-8") + b"\n")
    rest["entry_offsets"] = offsets
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(rest, fh, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        fh.write("\n")
