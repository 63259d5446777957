"""``kbg explain``: answers found from the words players use.

This module is the command's fast path: ``kbg explain ...`` runs it without importing typer
(see ``app.main``), and it imports rich only to draw on a terminal.
"""

from __future__ import annotations

import json
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

WIDTH = 100
GAMES = {"kingdomino": ["kingdomino", "kd", "king domino", "king-domino", "킹도미노"],
         "king-of-tokyo": ["king-of-tokyo", "kot", "king of tokyo", "kingoftokyo", "킹 오브 도쿄", "킹오브도쿄"]}


class ExplainUsage(Exception):
    pass


USAGE = """usage: kbg explain [QUERY ...] [--game G] [--edition E] [--lang ko|fr|vi] [--json] [--rules DIR]

Explain a rule: give a rule id, a word, a card or component name, or a whole question, in English,
Korean, French or Vietnamese. With no query, list every topic.

  --game, -g G      only this game (kingdomino, king-of-tokyo, or an alias)
  --edition, -e E   show this edition's reading where editions differ
  --lang L          show the answer in this language (ko, fr, vi) where it is written
  --json            print JSON for tools
  --rules DIR       add your own rule data (repeatable; also KBG_RULES)
"""


class Args:
    """The parsed command line (argparse costs more start-up time than this command has)."""

    def __init__(self) -> None:
        self.query: list[str] = []
        self.game: str | None = None
        self.edition: str | None = None
        self.lang: str | None = None
        self.json = False
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
            raise ExplainUsage(f"no such option: {a}")
        else:
            args.query.append(a)
    if args.lang is not None and args.lang not in ("en", "ko", "fr", "vi"):
        raise ExplainUsage(f"--lang is en, ko, fr or vi, not {args.lang!r}")
    return args


def _game(name: str | None) -> str | None:
    if name is None:
        return None
    key = " ".join(name.casefold().replace("_", " ").replace("-", " ").split())
    for gid, names in GAMES.items():
        if key in {" ".join(n.replace("-", " ").split()) for n in names}:
            return gid
    raise ExplainUsage(f"unknown game {name!r}; known: {', '.join(GAMES)}")


def _wrap(text: str, indent: str = "") -> str:
    from .render import wrap

    return "\n".join(wrap(text, WIDTH, indent))


def _edition_text(entry: dict[str, Any], edition: str | None) -> tuple[str, str | None]:
    """The entry's text for ``edition``, and a note when editions differ."""
    by = entry.get("by_edition") or {}
    if edition is not None:
        for ed, text in by.items():
            if ed.casefold() == edition.casefold() or (ed in ("2", "second") and edition.casefold() in ("2nd",)):
                return text, f"The {ed} edition's reading (the default edition differs)."
    if by:
        eds = ", ".join(by)
        return entry["text"], f"Differs in the {eds} edition: kbg explain {entry['id']} --edition {next(iter(by))}"
    return entry["text"], None


def render(result: Any, args: Args, lookup: Any, title: Any) -> str:
    best = result.best.entry
    text, edition_note = _edition_text(best, args.edition)
    if args.lang and args.lang in (best.get("translations") or {}) and text == best["text"]:
        text = best["translations"][args.lang]  # translations are of the default edition's text
    elif args.lang and args.lang != "en":
        edition_note = (edition_note + " " if edition_note else "") + f"(no {args.lang} translation yet)"
    game = "Kingdomino" if best["game"] == "kingdomino" else "King of Tokyo"
    out = [f"{best['title']}  [{best['id']}, {game}]", "", _wrap(text)]
    if best.get("conflict"):
        label = "Clarification: " if best["kind"] in ("card", "tile", "evolution") else "Where sources differ: "
        out += ["", _wrap(label + best["conflict"])]
    if best.get("editions"):
        out += ["", _wrap("Only in the " + ", ".join(best["editions"]) + " edition.")]
    for note in best.get("notes") or []:
        out += ["", _wrap(f"Applies {note}.")]
    if edition_note:
        out += ["", _wrap(edition_note)]
    if best.get("sources"):
        out += ["", "Sources:"]
        for s in best["sources"]:
            ed = f" [{s['edition']}]" if s.get("edition") else ""
            out.append(_wrap(f"{s['doc']}{ed}: {title(best['game'], s['doc'])}, {s['section']}", "  "))
    related = [r for r in best.get("related") or []]
    if related:
        out += ["", "Read next:"]
        for r in related[:6]:
            e = lookup(r)
            out.append(f"  {r}" + (f"  {e['title']}" if e else ""))
    others = [h for h in result.hits[1:] if h.score >= 0.5 * result.best.score][:4]
    if others:
        out += ["", "Also close:"]
        out += [f"  {h.id}  {h.entry['title']}" for h in others]
    return "\n".join(out) + "\n"


def _show(text: str, title: str | None = None) -> None:
    try:
        terminal = sys.stdout.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        terminal = False
    if not terminal:
        sys.stdout.write(text)
        return
    from rich.console import Console
    from rich.panel import Panel
    from rich.text import Text

    head, _, body = text.partition("\n\n")
    Console().print(Panel(Text(body.rstrip()), title=Text(head, style="bold"), title_align="left",
                          border_style="cyan", width=min(WIDTH + 4, 120)))


def run(argv: list[str]) -> int:
    try:
        args = parse(argv)
        game = _game(args.game)
    except ExplainUsage as exc:
        sys.stderr.write(f"kbg: error usage: {exc}\n")
        return 2
    if args.help:
        sys.stdout.write(USAGE)
        return 0
    from kbgrules.explain import document_title, lookup, search, topics

    dirs = [*[d for d in os.environ.get("KBG_RULES", "").split(os.pathsep) if d.strip()], *args.rules]
    query = " ".join(args.query).strip()
    try:
        if not query:
            items = topics(game)
            if args.json:
                sys.stdout.write(json.dumps({"kbg_json": 1, "topics": items}, ensure_ascii=False, indent=2) + "\n")
                return 0
            lines = [f"{len(items)} topics. Ask with: kbg explain WORDS (any language), or an id below.", ""]
            for t in items:
                lines.append(f"  {t['id']:<42} {t['title']}")
            sys.stdout.write("\n".join(lines) + "\n")
            return 0
        result = search(query, game, dirs)
    except Exception as exc:
        from kbgrules.errors import KbgError

        if not isinstance(exc, KbgError):
            raise
        for line in exc.lines():
            sys.stderr.write(f"kbg: {line}\n")
        return 2
    if args.json:
        best = result.hits[0] if result.hits else None
        entry = dict(best.entry) if best else None
        if entry is not None:
            entry["answer"], entry["edition_note"] = _edition_text(entry, args.edition)
            entry["sources"] = [{**s, "title": document_title(entry["game"], s["doc"], dirs)}
                                for s in entry.get("sources", [])]
        sys.stdout.write(json.dumps({
            "kbg_json": 1, "query": query, "confident": result.confident,
            "best": {**entry, "score": best.score} if best and entry else None,
            "candidates": [{"id": h.id, "title": h.entry["title"], "score": h.score} for h in result.hits[1:]],
        }, ensure_ascii=False, indent=2) + "\n")
        return 0
    if not result.confident:
        near = "\n".join(f"  {h.id}  {h.entry['title']}" for h in result.hits[:5]) or "  (none)"
        sys.stdout.write(f"Nothing in kbg's rules answers {query!r} well. Nearest topics:\n{near}\n"
                         "List every topic with: kbg explain\n")
        return 0
    _show(render(result, args, lambda i: lookup(i, dirs), lambda g, k: document_title(g, k, dirs)))
    return 0
