"""``kbg explain``: answers found from the words players use.

This module is the command's fast path: ``kbg explain ...`` runs it without importing typer
(see ``kbg_cli.entry``), and it imports rich only to draw on a terminal.
"""

from __future__ import annotations

import json
import sys

from kbgrules.errors import shown
from kbgrules.explain.text import LANG_NAMES

from .explain_strings import game_name, say
from .explain_strings import title as entry_title

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ALSO_CLOSE = 0.1  # "Also close": entries at least this share of the answer's probability


class ExplainUsage(Exception):
    pass


class Declined(Exception):
    """A command line the fast path leaves to typer."""


class Args:
    """The parsed command line. The command is declared (help, completion, errors) in ``app.explain``;
    this small parser runs it without importing typer, which alone costs 3-4x a bare interpreter."""

    def __init__(self) -> None:
        self.query: list[str] = []
        self.game: str | None = None
        self.edition: str | None = None
        self.lang: str | None = None
        self.json = False
        self.debug = False
        self.rules: list[str] = []
        self.help = False


def parse(argv: list[str]) -> Args:
    args = Args()
    options = {"--game": "game", "-g": "game", "--edition": "edition", "-e": "edition", "--lang": "lang",
               "--rules": "rules"}
    it = iter(argv)
    for a in it:
        name, eq, value = a.partition("=")
        if a in ("-h", "--help"):
            args.help = True
        elif a == "--json":
            args.json = True
        elif a == "--debug":
            args.debug = True
        elif name in options:
            if not eq:
                value = next(it, "")
                if not value:
                    raise ExplainUsage(f"{name} needs a value")
            if options[name] == "rules":
                args.rules.append(value)
            else:
                setattr(args, options[name], value)
        elif a.startswith("-") and len(a) > 1 and not a[1:].isdigit():
            raise ExplainUsage(f"No such option: {a}")
        else:
            args.query.append(a)
    return args


def _game(name: str | None, dirs: list[str]) -> str | None:
    if name is None:
        return None
    from kbgrules.explain import game_id, games

    gid = game_id(name, dirs)
    if gid is None:
        raise ExplainUsage(f"unknown game {name!r}; known: {', '.join(games(dirs))}")
    return gid


def _edition_text(entry: dict[str, Any], edition: str | None, lang: str) -> tuple[str, str | None]:
    """The entry's text for ``edition``, and a note (in ``lang``) when editions differ."""
    by = entry.get("by_edition") or {}
    if edition is not None:
        for ed, text in by.items():
            if ed.casefold() == edition.casefold() or (ed in ("2", "second") and edition.casefold() in ("2nd",)):
                return text, say("edition-reading", lang, edition=ed)
    if by:
        return entry["text"], say("edition-differs", lang, editions=", ".join(by), id=entry["id"],
                                  first=next(iter(by)))
    return entry["text"], None


def answer_parts(entry: dict[str, Any], edition: str | None, lang: str) -> tuple[str, str, str | None, list[str]]:
    """The text to show, its language, the edition note, and the other notes (no text in ``lang``);
    the notes are in ``lang``, the asker's language, whatever the text's."""
    text, note = _edition_text(entry, edition, lang)
    if lang == "en":
        return text, "en", note, []
    if lang in (entry.get("translations") or {}) and text == entry["text"]:
        return entry["translations"][lang], lang, note, []  # translations are of the default edition's text
    return text, "en", note, [say("no-text", lang)]


def answer_text(entry: dict[str, Any], edition: str | None, lang: str) -> tuple[str, str, list[str]]:
    """The text to show, its language, and notes (edition differences; no text in ``lang``)."""
    text, text_lang, note, notes = answer_parts(entry, edition, lang)
    return text, text_lang, [note, *notes] if note else notes


def _note(note: str, lang: str) -> str:
    """An entry's note (``with the variant`` and its id) as a sentence in ``lang``."""
    variant = note.removeprefix("with the variant ")
    return say("with-variant", lang, variant=variant) if variant != note else say("applies", lang, note=note)


def render(result: Any, args: Args, lookup: Any, title: Any, lang: str) -> Any:
    """The answer as a ``render.Doc``: wrapped once, by the plain writer or by rich on a terminal.
    Every word of it is in ``lang`` where written: the rule data's text and titles, the command's own
    strings (``explain_strings``); English where not."""
    from kbgrules.core.kinds import is_piece
    from kbgrules.explain import games, role_of

    from .render import Doc

    names = games(args.rules)
    best = result.best.entry
    text, _, notes = answer_text(best, args.edition, lang)
    doc = Doc()
    doc.heading(f"{entry_title(best, lang)}  [{best['id']}, {game_name(names, best['game'], lang)}]")
    doc.para(text)
    if best.get("conflict"):
        label = say("clarification" if is_piece(role_of(best, args.rules)) else "conflict", lang)
        doc.para(label + best["conflict"])
    if best.get("editions"):
        doc.para(say("only-editions", lang, editions=", ".join(best["editions"])))
    for note in best.get("notes") or []:
        doc.para(_note(note, lang))
    for note in notes:
        doc.para(note)
    if best.get("sources"):
        doc.items(say("sources", lang), [shown(f"{s['doc']}{' [' + s['edition'] + ']' if s.get('edition') else ''}: "
                                               f"{title(best['game'], s['doc'])}, {s['section']}")
                                         for s in best["sources"]])
    related = (best.get("related") or [])[:6]
    if related:
        doc.items(say("read-next", lang),
                  [shown(r + (f"  {entry_title(e, lang)}" if (e := lookup(r)) else "")) for r in related])
    other = result.other_game
    if other is not None:
        doc.para(say("both-games", lang, game=game_name(names, other.entry["game"], lang), id=other.id,
                     title=entry_title(other.entry, lang)))
    shown_ids = {result.best.id, *related, *([other.id] if other else [])}  # "Also close" repeats none of them
    others = [h for h in result.hits[1:] if h.score >= ALSO_CLOSE * result.best.score and h.id not in shown_ids][:4]
    if others:
        doc.items(say("also-close", lang), [shown(f"{h.id}  {entry_title(h.entry, lang)}") for h in others])
    return doc


def debug_text(result: Any) -> str:
    """How the question was read; for the first entries, their probability, what each feature of the
    second stage added to its score and what each term gave the first stage."""
    out = [f"language: {result.lang}   game: {result.game or 'either'}   confident: {result.confident}   "
           f"confidence: {result.confidence:.3f}",
           "terms: " + " ".join(result.terms)]
    if result.notes:
        out.append("close words: " + ", ".join(result.notes))
    for h in result.hits[:5]:
        out.append(f"{h.score:8.2f}  {h.id}")
        if h.shares:
            shares = sorted(h.shares.items(), key=lambda kv: -abs(kv[1]))
            out.append("          second stage: " + ", ".join(f"{k} {v:+g}" for k, v in shares[:8]))
        why = ", ".join(f"{k} {v:g}" for k, v in sorted(h.why.items(), key=lambda kv: -kv[1]))
        out.append(f"          first stage: {why}")
    return "\n".join(out) + "\n"


def run(argv: list[str]) -> int:
    """``kbg explain ARGV`` on the fast path, with the rule folders of ``KBG_RULES`` before those of
    ``--rules``. Raises :class:`Declined` for ``--help``: the help page is typer's (kbg_cli.entry)."""
    try:
        args = parse(argv)
    except ExplainUsage as exc:
        sys.stderr.write(f"kbg: error usage: {exc}\n")
        return 2
    if args.help:
        raise Declined
    from kbgrules.core.paths import rules_dirs_from_env

    args.rules = [*rules_dirs_from_env(), *args.rules]
    return run_args(args)


def run_args(args: Args) -> int:
    """``kbg explain`` parsed, by ``parse`` or by typer (``app.explain``); ``args.rules`` holds every
    folder of rule data, ``KBG_RULES``'s included."""
    from kbgrules.explain.store import steady

    with steady():  # the index is read once for the whole answer
        return _run_args(args)


def _run_args(args: Args) -> int:
    try:
        if args.lang is not None and args.lang not in LANG_NAMES:
            raise ExplainUsage(f"--lang is one of {', '.join(LANG_NAMES)}, not {args.lang!r}")
    except ExplainUsage as exc:
        sys.stderr.write(f"kbg: error usage: {exc}\n")
        return 2
    from kbgrules.errors import KbgError
    from kbgrules.explain import document_title, games, lookup, search, topics

    dirs = args.rules
    query = " ".join(args.query)
    try:
        try:
            game = _game(args.game, dirs)
        except ExplainUsage as exc:
            sys.stderr.write(f"kbg: error usage: {exc}\n")
            return 2
        names = games(dirs)
        if not args.query:
            items = topics(game)
            if args.json:
                sys.stdout.write(json.dumps({"kbg_json": 1, "topics": items}, ensure_ascii=False, indent=2) + "\n")
                return 0
            from .render import Doc, Table

            doc, table = Doc(), Table(None, ["", ""])
            doc.para(f"{len(items)} topics. Ask with: kbg explain WORDS (any language), or an id below.")
            for t in items:
                table.add(t["id"], t["title"])
            doc.table(table)
            doc.show()
            return 0
        result = search(query, game, dirs)
    except KbgError as exc:
        for line in exc.lines():
            sys.stderr.write(f"kbg: {line}\n")
        return 2
    lang = args.lang or result.lang
    quoted = _shown(query)
    if args.json:
        best = result.hits[0] if result.hits else None
        entry = dict(best.entry) if best else None
        if entry is not None:
            entry["answer"], entry["answer_lang"], edition_note, notes = answer_parts(entry, args.edition, lang)
            entry["answer_title"] = entry_title(entry, lang)
            entry["answer_title_lang"] = lang if lang in (entry.get("title_translations") or {}) else "en"
            entry["edition_note"] = edition_note
            entry["answer_notes"] = [edition_note, *notes] if edition_note else notes
            entry["sources"] = [{**s, "title": document_title(entry["game"], s["doc"], dirs)}
                                for s in entry.get("sources", [])]
        other = result.other_game
        out: dict[str, Any] = {
            "kbg_json": 1, "query": query, "lang": result.lang, "game": result.game, "confident": result.confident,
            "confidence": result.confidence, "coverage": result.coverage,
            "best": {**entry, "score": best.score} if best and entry else None,
            "other_game": {"id": other.id, "title": other.entry["title"], "game": other.entry["game"],
                           "score": other.score} if other else None,
            "candidates": [{"id": h.id, "title": h.entry["title"], "score": h.score} for h in result.hits[1:]],
        }
        if args.debug:
            out["debug"] = {"terms": list(result.terms), "close_words": list(result.notes),
                            "why": {h.id: h.why for h in result.hits},
                            "features": {h.id: h.shares for h in result.hits}}
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
        return 0
    if args.debug:
        sys.stdout.write(debug_text(result))
    if not result.confident:
        near = [shown(f"  {h.id}  {entry_title(h.entry, lang)}") for h in result.hits[:3]] or [f"  {say('none', lang)}"]
        head = say("nothing" if result.coverage == 0 else "not-sure", lang, query=quoted)
        other = result.other_game  # named when the three do not show it already
        both = [shown(say("both-games", lang, game=game_name(names, other.entry["game"], lang), id=other.id,
                          title=entry_title(other.entry, lang)))] \
            if other is not None and result.coverage and other.id not in {h.id for h in result.hits[:3]} else []
        sys.stdout.write("\n".join([shown(head), *near, *both, say("read-one", lang)]) + "\n")
        return 0
    render(result, args, lambda i: lookup(i, dirs), lambda g, k: document_title(g, k, dirs), lang).show()
    return 0


def _shown(query: str) -> str:
    """The query as quoted back: escaped, and cut when long."""
    text = query if len(query) <= 60 else query[:57] + "..."
    return repr(text)
