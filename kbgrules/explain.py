"""``kbg explain``: find the rule, FAQ entry, card or component a question is about.

The index covers both games: rule statements (every edition and variant), FAQ entries, power
cards, dominoes, terrains, components, editions and options, each with the words players use in
English, Korean, French and Vietnamese (``aliases``). Ranking is BM25 over weighted fields, with
exact-phrase and id bonuses, Hangul bigrams, accent-insensitive Latin text and fuzzy matching of
unknown words. No network, no model.

The shipped index is prebuilt in ``rules_data/explain-index.json`` (``python -m kbgrules.explain
--build`` rewrites it; a test checks it is current), so answering needs no YAML parsing.

>>> from kbgrules.explain import search
>>> search("Armor Plating").best.id
'kot.card.armor-plating'
>>> search("domino 37").best.entry["text"]
'Domino 37: first half lake, second half grassland with 1 crown.'
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import unicodedata
from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; `kbg explain` imports this module first
    from collections.abc import Sequence
    from typing import Any

INDEX_FILE = "explain-index.json"
INDEX_VERSION = 2
FIELD_WEIGHTS = {"id": 5.0, "title": 4.0, "alias": 4.0, "body": 1.0}
K1, B = 1.2, 0.75
MAX_QUERY = 500  # characters of a query that are read
MAX_FUZZY = 12  # unknown words matched to close known ones, per query
_STOP = """
a an the i my me we our you your is are am be can could do does did to in into of on at for with
what whats how when where who which if it its this that there then than or and not no so as by from
does do have has get gets happen happens rule rules about
le la les l de des du d un une et est en dans que qui je on peut il elle au aux pour sur ce se
có không là và của được khi thì cho một những các này ở với
"""


# --------------------------------------------------------------------------- text


def _fold_char(c: str) -> str:
    if "\uac00" <= c <= "\ud7a3" or "\u1100" <= c <= "\u11ff" or "\u3130" <= c <= "\u318f":
        return c  # Hangul stays whole
    if c in "đĐ":
        return "d"
    return "".join(x for x in unicodedata.normalize("NFKD", c) if not unicodedata.combining(x))


def fold(text: str) -> str:
    """Lower case, accents removed from Latin letters (Vietnamese and French typed without them match)."""
    return "".join(_fold_char(c) for c in unicodedata.normalize("NFC", text.casefold()))


_WORD = re.compile(r"[0-9a-z]+|[\uac00-\ud7a3]+")


STOPWORDS = frozenset(fold(w) for w in _STOP.split())


def tokens(text: str) -> list[str]:
    """Words (Latin, digits) and Hangul bigrams of the folded text; stopwords dropped."""
    out: list[str] = []
    for w in _WORD.findall(fold(text)):
        if "\uac00" <= w[0] <= "\ud7a3":
            out.extend([w] if len(w) == 1 else [w[i:i + 2] for i in range(len(w) - 1)])
        elif w not in STOPWORDS:
            out.append(w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w)
    return out


def phrase(text: str) -> str:
    return " ".join(_WORD.findall(fold(text)))


# --------------------------------------------------------------------------- entries


class Entry:
    """One topic kbg can explain (built from the rule data when the index is made)."""

    def __init__(self, id: str, game: str, kind: str, title: str, text: str,
                 sources: list[dict[str, Any]] | None = None, related: list[str] | None = None,
                 conflict: str | None = None, notes: list[str] | None = None, editions: list[str] | None = None,
                 translations: dict[str, str] | None = None, aliases: list[str] | None = None) -> None:
        self.id = id
        self.game = game
        self.kind = kind  # rule, faq, card, domino, terrain, component, edition, option
        self.title = title
        self.text = text
        self.sources = sources or []
        self.related = related or []
        self.conflict = conflict
        self.notes = notes or []
        self.by_edition: dict[str, str] = {}  # edition -> its text, where it differs
        self.editions = editions or []  # editions the entry exists in (empty: all)
        self.translations = translations or {}
        self.aliases = aliases or []  # words players use, every language

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _sources(items: Any) -> list[dict[str, Any]]:
    return [{"doc": s.doc, "section": s.section, "edition": s.edition} for s in items]


def _words(lang_words: Any) -> list[str]:
    return [w for ws in (lang_words or {}).values() for w in ws]


def collect(rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> list[Entry]:
    """Every entry of every game, from the rule data (slow: loads every edition and variant)."""
    import kbgrules
    from kbgrules import KingdominoRuleset, KingOfTokyoRuleset

    out: dict[str, Entry] = {}
    for info in kbgrules.games(rules_dirs):
        prefix = "kd" if info.id == "kingdomino" else "kot" if info.id == "king-of-tokyo" else info.id
        default = info.default_edition.id
        base = kbgrules.load(info.id, rules_dirs=rules_dirs)
        docs = {k: d.title for k, d in base.documents.items()}
        for ed in info.editions:  # the default edition first
            rs = kbgrules.load(info.id, edition=ed.id, rules_dirs=rules_dirs)
            for r in rs.rules.values():
                e = out.get(r.id)
                if e is None:
                    out[r.id] = Entry(r.id, info.id, "rule", r.title, r.text, _sources(r.sources), list(r.related),
                                      r.conflict, editions=[] if ed.id == default else [ed.id],
                                      translations=dict(r.translations))
                elif r.text != e.text:
                    e.by_edition[ed.id] = r.text
            if isinstance(rs, KingOfTokyoRuleset):
                for c in rs.cards:
                    cid = f"{prefix}.card.{c.id}"
                    text = f"{c.name}: {c.type} card, cost {c.cost}. {c.effect}"
                    if cid not in out:
                        out[cid] = Entry(cid, info.id, "card", c.name, text, _sources(c.sources),
                                         conflict=c.clarification, editions=[] if ed.id == default else [ed.id])
                    elif out[cid].text != text:
                        out[cid].by_edition[ed.id] = text
                        if c.name != out[cid].title:
                            out[cid].aliases.append(c.name)
                for tile in rs.tiles:
                    tid = f"{prefix}.tile.{tile.id}"
                    back = next((b.name for b in rs.tiles if b.id == tile.back), None)
                    text = (f"{tile.name}: wickedness tile, level {tile.level}, {tile.side} side"
                            + (f" (the other side is {back})" if back else "") + f". {tile.effect}")
                    out[tid] = Entry(tid, info.id, "tile", tile.name, text, _sources(tile.sources),
                                     ["kot.dark.tiles", "kot.dark.thresholds"], tile.clarification,
                                     editions=[ed.id])
            for comp in rs.components:
                cid = f"{prefix}.component.{comp.id}"
                if ed.id != default and cid not in out:
                    count = f"{comp.count} " if comp.count else ""
                    out[cid] = Entry(cid, info.id, "component", comp.name.capitalize(),
                                     f"{count}{comp.name} in the {ed.title} box"
                                     + (f": {comp.note}." if comp.note else "."), editions=[ed.id])
        for v in info.variants:
            rs = kbgrules.load(info.id, variants=[v.id], rules_dirs=rules_dirs)
            for r in rs.rules.values():
                if r.id not in out:
                    out[r.id] = Entry(r.id, info.id, "rule", r.title, r.text, _sources(r.sources), list(r.related),
                                      r.conflict, notes=[f"with the variant {v.id}"], translations=dict(r.translations))
            if isinstance(rs, KingOfTokyoRuleset):
                monsters: dict[str, str] = {}
                for c in rs.evolutions:
                    eid = f"{prefix}.evolution.{c.id}"
                    who = monsters.setdefault(c.monster, c.monster.replace("-", " ").title())
                    if eid not in out:
                        out[eid] = Entry(eid, info.id, "evolution", c.name,
                                         f"{c.name}: {who}'s {c.type} evolution (Power Up!). {c.effect}",
                                         _sources(c.sources), ["kot.evolution.play", "kot.evolution.draw"],
                                         c.clarification, notes=[f"with the variant {v.id}"])
        if isinstance(base, KingdominoRuleset):
            names = {t.id: t.name for t in base.terrains}
            for dom in base.dominoes:
                halves = [f"{names[h.terrain]}" + (f" with {h.crowns} crown{'s' * (h.crowns > 1)}" if h.crowns else "")
                          for h in dom.halves]
                out[f"kd.domino.{dom.number}"] = Entry(
                    f"kd.domino.{dom.number}", info.id, "domino", f"Domino {dom.number}",
                    f"Domino {dom.number}: first half {halves[0]}, second half {halves[1]}.",
                    [{"doc": "BGA", "section": "material.inc.php", "edition": None}], ["kd.components.numbers"])
            for t in base.terrains:
                squares = sum(1 for dom in base.dominoes for h in dom.halves if h.terrain == t.id)
                crowns = sum(h.crowns for dom in base.dominoes for h in dom.halves if h.terrain == t.id)
                out[f"kd.terrain.{t.id}"] = Entry(
                    f"kd.terrain.{t.id}", info.id, "terrain", t.name.capitalize(),
                    f"{t.name.capitalize()} (letter {t.letter} in grids): {squares} squares and {crowns} crowns "
                    f"among the 48 dominoes.", [{"doc": "R1", "section": "Components", "edition": None}],
                    ["kd.components.terrains", "kd.score.property"], aliases=[t.letter.lower(), *t.aliases])
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
                             _sources(ov.sources), aliases=[ov.id, *ov.aliases])
        for fid, f in (base.data.get("faq") or {}).items():
            out[fid] = Entry(fid, info.id, "faq", str(f["question"]), str(f["answer"]).strip(),
                             [dict(s) for s in f.get("sources", ())], list(f.get("related", ())),
                             None if f.get("conflict") is None else str(f["conflict"]).strip(),
                             editions=list(f.get("editions", ())), translations=dict(f.get("translations") or {}),
                             aliases=_words(f.get("phrasings")))
        for target, words in (base.data.get("words") or {}).items():
            if target in out:
                out[target].aliases.extend(_words(words))
        DOCUMENTS[info.id] = docs
        GAME_NAMES[info.id] = sorted({phrase(n) for n in (info.id, info.name, *info.aliases)} - {""})
    return list(out.values())


DOCUMENTS: dict[str, dict[str, str]] = {}  # game -> document key -> title (filled by collect)
GAME_NAMES: dict[str, list[str]] = {}  # game -> its names, as phrases (filled by collect)


# --------------------------------------------------------------------------- index


def build_index(entries: list[Entry]) -> dict[str, Any]:
    """An inverted index over the entries' fields, ready to be stored as JSON.

    ``postings`` maps a term to a string of ``entry:weighted-term-frequency`` pairs (field weights
    applied); a string, because JSON strings load several times faster than lists of pairs.
    """
    postings: dict[str, dict[int, dict[str, int]]] = {}
    lengths = []
    phrases: dict[str, list[int]] = {}
    for n, e in enumerate(entries):
        fields = {
            "id": tokens(e.id.replace(".", " ")),
            "title": tokens(e.title),
            "alias": [t for a in e.aliases for t in tokens(a)],
            "body": tokens(" ".join([e.text, e.conflict or "", *e.by_edition.values()])),
        }
        lengths.append(sum(len(v) for v in fields.values()))
        for fname, toks in fields.items():
            for t in toks:
                postings.setdefault(t, {}).setdefault(n, {}).setdefault(fname, 0)
                postings[t][n][fname] += 1
        for p in {phrase(e.title), phrase(e.id), *(phrase(a) for a in e.aliases)}:
            if p:
                phrases.setdefault(p, []).append(n)
    def lean(e: Entry) -> dict[str, Any]:
        d = {k: v for k, v in e.to_json().items() if v not in (None, [], {}) or k in ("id", "text")}
        d["sources"] = [{k: v for k, v in s.items() if v is not None} for s in e.sources]
        return d

    return {
        "version": INDEX_VERSION,
        "documents": DOCUMENTS,
        "games": GAME_NAMES,
        "entries": [lean(e) for e in entries],
        "postings": {t: " ".join(f"{n}:{round(sum(FIELD_WEIGHTS[f] * c for f, c in fields.items()), 2):g}"
                                  for n, fields in sorted(d.items())) for t, d in sorted(postings.items())},
        "lengths": lengths,
        "phrases": phrases,
    }


def index_path() -> str:
    from .paths import data_root

    return str(data_root() / INDEX_FILE)


@lru_cache(maxsize=1)
def _shipped_index() -> dict[str, Any]:
    with open(index_path(), encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def load_index(rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> dict[str, Any]:
    if rules_dirs:
        return build_index(collect(rules_dirs))
    try:
        return _shipped_index()
    except (OSError, ValueError):  # a checkout without the prebuilt file: build it in memory
        return build_index(collect())


# --------------------------------------------------------------------------- search


class Hit:
    """One ranked entry."""

    __slots__ = ("entry", "id", "score")

    def __init__(self, id: str, score: float, entry: dict[str, Any]) -> None:
        self.id = id
        self.score = score
        self.entry = entry

    def __repr__(self) -> str:
        return f"Hit({self.id!r}, {self.score})"


class Result:
    """The ranked entries for a query; ``confident`` is False when nothing fits well."""

    __slots__ = ("confident", "hits", "query")

    def __init__(self, query: str, hits: tuple[Hit, ...], confident: bool) -> None:
        self.query = query
        self.hits = hits
        self.confident = confident

    @property
    def best(self) -> Hit:
        return self.hits[0]


def _fuzzy(word: str, vocab: list[str]) -> list[str]:
    import difflib

    if len(word) < 4 or not word.isascii():
        return []
    return difflib.get_close_matches(word, vocab, n=2, cutoff=0.8)


def search(query: str, game: str | None = None, rules_dirs: Sequence[str | os.PathLike[str]] = (),
           limit: int = 5) -> Result:
    """Rank the entries for ``query`` (an id, a word, a card name or a whole question)."""
    index = load_index(rules_dirs)
    entries: list[dict[str, Any]] = index["entries"]
    postings: dict[str, str] = index["postings"]  # "entry:weight entry:weight ...", decoded per query term
    lengths: list[int] = index["lengths"]
    n_docs = len(entries)
    avg = sum(lengths) / max(1, n_docs)
    games = None if game is None else {game}
    scores: dict[int, float] = {}

    q = query.strip()[:MAX_QUERY]
    ids = {e["id"]: i for i, e in enumerate(entries)}
    if q.lower() in ids:
        i = ids[q.lower()]
        return Result(query, (Hit(entries[i]["id"], 100.0, entries[i]),), True)
    m = re.fullmatch(r"(?:domino|tile|#)?\s*#?(\d{1,2})", q.lower())
    if m and f"kd.domino.{int(m.group(1))}" in ids:
        i = ids[f"kd.domino.{int(m.group(1))}"]
        return Result(query, (Hit(entries[i]["id"], 100.0, entries[i]),), True)

    qtoks = tokens(q)
    qtoks += [a + b for a, b in itertools.pairwise(qtoks) if a + b in postings]  # "tie break"
    vocab: list[str] | None = None
    matched = 0
    fuzzy_left = MAX_FUZZY
    for t in dict.fromkeys(qtoks):
        alts = [t] if t in postings else []
        if not alts and fuzzy_left > 0:
            fuzzy_left -= 1
            vocab = vocab if vocab is not None else list(postings)
            alts = _fuzzy(t, vocab)
        if alts:
            matched += 1
        for a, factor in ((x, 1.0 if x == t else 0.7) for x in alts):
            docs = [pair.split(":") for pair in postings[a].split()]
            idf = math.log(1 + (n_docs - len(docs) + 0.5) / (len(docs) + 0.5))
            for n_, tf_ in docs:
                n, tf = int(n_), float(tf_)
                norm = tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[n] / avg))
                scores[n] = scores.get(n, 0.0) + factor * idf * norm
    qp = phrase(q)
    for n in index["phrases"].get(qp, []):
        scores[n] = scores.get(n, 0.0) + 12.0
    if len(qp) >= 4:
        for p, ns in index["phrases"].items():
            if len(p) >= 4 and (p in qp or qp in p) and p != qp:
                for n in ns:
                    scores[n] = scores.get(n, 0.0) + 3.0 * min(len(p), len(qp)) / max(len(p), len(qp))
    kind_bonus = {"faq": 1.15, "rule": 1.1, "card": 1.05, "tile": 1.05, "evolution": 1.05}
    padded = f" {qp} "
    named = [g for g, names in index.get("games", {}).items() if any(f" {nm} " in padded for nm in names)]
    game_bonus = {g: 1.5 for g in named} if len(named) == 1 else {}
    ranked = sorted(((s * kind_bonus.get(entries[n]["kind"], 1.0) * game_bonus.get(entries[n]["game"], 1.0), n)
                     for n, s in scores.items()
                     if games is None or entries[n]["game"] in games), reverse=True)
    hits = tuple(Hit(entries[n]["id"], round(s, 3), entries[n]) for s, n in ranked[:limit])
    confident = bool(hits) and matched >= max(1, math.ceil(len(set(qtoks)) / 3)) and hits[0].score >= 2.0
    return Result(query, hits, confident)


def lookup(entry_id: str, rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> dict[str, Any] | None:
    for e in load_index(rules_dirs)["entries"]:
        if e["id"] == entry_id:
            return dict(e)
    return None


def document_title(game: str, key: str, rules_dirs: Sequence[str | os.PathLike[str]] = ()) -> str:
    return str(load_index(rules_dirs).get("documents", {}).get(game, {}).get(key, key))


def topics(game: str | None = None) -> list[dict[str, Any]]:
    """Every entry (id, title, kind), for ``kbg explain`` with no query."""
    return [{"id": e["id"], "title": e["title"], "kind": e["kind"], "game": e["game"]}
            for e in load_index()["entries"] if game is None or e["game"] == game]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m kbgrules.explain --build``: rewrite the shipped index from the rule data."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if args != ["--build"]:
        sys.stderr.write("usage: python -m kbgrules.explain --build\n")
        return 2
    data = build_index(collect())
    with open(index_path(), "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        fh.write("\n")
    sys.stdout.write(f"{index_path()}: {len(data['entries'])} entries, {len(data['postings'])} terms\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
