"""``kbg site OUTDIR``: the offline rules reference, a folder of static pages.

Every entry ``kbg explain`` knows (rules of every edition and variant, FAQ entries with both readings
where sources differ, the entries of each game's own tables, components, editions and options) is
shown once, from the same index and in the same words, under its id as an anchor
(``GAME-rules.html#RULE-ID``), so the page and ``kbg explain ID`` agree. Beside
them: the setup sheet tabulated per player count, the glossary in every language, and a search box
that runs ``kbg explain``'s ranking in the browser (``static/search.js``) on the same index and
the same second-stage weights, shipped as ``search-index.js``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import kbgrules
from kbgrules.core.check import RulesDirs
from kbgrules.core.kinds import is_piece, role
from kbgrules.errors import KbgError
from kbgrules.explain.rerank import load_model
from kbgrules.explain.store import entries, load_index
from kbgrules.explain.text import LANG_NAMES

from . import render, static, svg

# a game's pages: (page suffix, title, entry kinds it holds); an entry goes to the first that takes it.
# Rules and FAQ first, then the pages of the game's own tables (its engine's reference_pages), then
# these if the game has not named them
FIRST = [("rules", "Rules", ("rule", "edition", "variant", "option")), ("faq", "FAQ", ("faq",))]
LAST = [("components", "Components", ("component",)), ("setup", "Setup by player count", ())]
KIND_WORDS = {"edition": "Editions", "variant": "Variants", "option": "Options"}


def build(outdir: str, rules_dirs: RulesDirs = ()) -> list[str]:
    """Write the site into ``outdir`` (created if needed); the files written, relative to it."""
    out = Path(outdir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise KbgError(f"cannot make the folder {outdir}: {exc.strerror or exc}", code="io") from None
    index = load_index(rules_dirs)
    games = {g.id: g for g in kbgrules.games(rules_dirs)}
    meta: list[list[str]] = index["meta"]
    where: dict[str, str] = {}  # entry id -> page file
    plan: list[tuple[str, str, str, str, list[str]]] = []  # (file, game, suffix, title, ids)
    info = index.get("game_info") or {}
    for gid in games:
        own = [(str(p[0]), str(p[1]), tuple(p[2])) for p in info.get(gid, {}).get("pages", ())]
        pages = [*FIRST, *own, *(p for p in LAST if p[0] not in {q[0] for q in own})]
        for suffix, title, kinds in pages:
            ids = [m[0] for m in meta if m[1] == gid and m[2] in kinds and m[0] not in where]
            name = f"{gid}-{suffix}.html"
            where.update(dict.fromkeys(ids, name))
            plan.append((name, gid, suffix, title, ids))
    nav = [{"game": games[gid].name, "pages": [{"file": f, "title": t} for f, g, _, t, _ in plan if g == gid]}
           for gid in games]
    written: list[str] = []

    def write(name: str, text: str) -> None:
        try:
            (out / name).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise KbgError(f"cannot write {out / name}: {exc.strerror or exc}", code="io") from None
        written.append(name)

    known = entries(rules_dirs)
    titles: dict[str, dict[str, str]] = index.get("documents") or {}
    for name, gid, suffix, title, ids in plan:
        shown = [_entry(known[i], where, titles, info) for i in ids]
        context: dict[str, Any] = {"title": f"{games[gid].name}: {title}", "nav": nav, "here": name,
                                   "game": games[gid], "groups": _groups(shown, suffix)}
        if suffix == "setup":
            context["setup"] = _setup(games[gid], rules_dirs)
        pictures = _pictures(gid, ids, rules_dirs)
        if pictures:
            context["pictures"] = pictures
        write(name, render("site/page.html.j2", **context))
    write("glossary.html", render("site/glossary.html.j2", title="Glossary", nav=nav, here="glossary.html",
                                  glossaries=_glossaries(games, rules_dirs), langs=LANG_NAMES))
    write("index.html", render("site/index.html.j2", title="kbg rules reference", nav=nav, here="index.html",
                               games=list(games.values()), count=len(where),
                               example=next((m[3] for m in meta if m[2] == "faq"), "a rules question")))
    links = {i: f"{where[i]}#{i}" for i in where}
    write("search-index.js", "window.KBG_INDEX = " + json.dumps(search_index(index), ensure_ascii=False,
                                                                separators=(",", ":"))
          + ";\nwindow.KBG_PAGES = " + json.dumps(links, separators=(",", ":")) + ";\n")
    write("search.js", str(static("search.js")))
    write("site.js", str(static("site.js")))
    return written


def search_index(index: dict[str, Any]) -> dict[str, Any]:
    """What the site's search runs on: ``kbg explain``'s index with the second stage's weights
    (``rules_data/explain-model.json``) as ``model``; without them search.js keeps the first stage's
    order, as ``kbg explain`` does. ``bench/site_search.py`` gives node the same."""
    model = load_model()
    index = {k: v for k, v in index.items() if not k.startswith("_")}  # what stays on this machine (a path)
    return index if model is None else {**index, "model": model.data}


def _entry(e: dict[str, Any], where: dict[str, str], titles: dict[str, dict[str, str]],
           info: dict[str, Any]) -> dict[str, Any]:
    """An entry as ``kbg explain ID`` shows it: text, every edition's reading, where sources differ (a
    piece's clarification), what it applies to, translations, sources with their documents' titles, and
    links to related entries; ``info`` is the index's ``game_info``."""
    game = e.get("game", "")
    kind = role(e.get("kind", ""), info.get(game, {}).get("kinds") or {})
    label = "Clarification" if is_piece(kind) else "Where sources differ"
    return {
        "id": e.get("id", ""), "title": e.get("title", ""), "kind": e.get("kind", ""), "text": e.get("text", ""),
        "by_edition": dict(e.get("by_edition") or {}), "conflict": e.get("conflict"), "conflict_label": label,
        "editions": list(e.get("editions") or []), "notes": list(e.get("notes") or []),
        "translations": [{"lang": k, "name": LANG_NAMES.get(k, k), "text": v}
                         for k, v in (e.get("translations") or {}).items()],
        "sources": [{"doc": s["doc"], "edition": s.get("edition"), "section": s.get("section", ""),
                     "title": titles.get(game, {}).get(s["doc"], s["doc"])} for s in e.get("sources") or []],
        "related": [{"id": r, "href": f"{where[r]}#{r}" if r in where else None} for r in e.get("related") or []],
    }


def _groups(entries: list[dict[str, Any]], suffix: str) -> list[dict[str, Any]]:
    """Entries in sections: rules by the second part of their id (``GAME.turn.*``: Turn), editions and
    variants apart; other pages in one section."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for e in entries:
        if e["kind"] in KIND_WORDS:
            key = KIND_WORDS[e["kind"]]
        elif suffix == "rules":
            parts = e["id"].split(".")
            key = parts[1].replace("-", " ").capitalize() if len(parts) > 2 else "General"
        else:
            key = ""
        groups.setdefault(key, []).append(e)
    order = sorted(groups, key=lambda k: (k in KIND_WORDS.values(), list(groups).index(k)))
    return [{"title": k, "anchor": "s-" + k.lower().replace(" ", "-") if k else "", "entries": groups[k]}
            for k in order]


def _setup(info: Any, rules_dirs: RulesDirs) -> dict[str, Any]:
    """The setup sheet of game ``info`` tabulated: one column per player count (and per variant that
    changes it)."""
    gid = info.id
    columns: list[tuple[str, Any]] = []
    for n in range(info.min_players, info.max_players + 1):
        columns.append((f"{n} players", kbgrules.setup_sheet(kbgrules.load(gid, players=n, rules_dirs=rules_dirs))))
    for v in info.variants:
        if v.players and not v.option:
            for n in v.players:
                try:
                    rs = kbgrules.load(gid, players=n, variants=[v.id], rules_dirs=rules_dirs)
                except KbgError:
                    continue
                columns.append((f"{n} players, {v.title}", kbgrules.setup_sheet(rs)))
    keys: list[str] = []
    for _, sheet in columns:
        keys += [k for k in sheet.facts if k not in keys]
    rows = [{"fact": k.replace("_", " "), "values": [_fact(sheet.facts.get(k)) for _, sheet in columns]}
            for k in keys]
    sheets = [{"title": title, "summary": sheet.summary, "sections": sheet.sections, "rules": sheet.rules}
              for title, sheet in columns]
    return {"columns": [t for t, _ in columns], "rows": rows, "sheets": sheets}


def _fact(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')}: {_fact(v)}" for k, v in value.items()) or "-"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(_fact, value)) or "-"
    return str(value)


def _pictures(gid: str, ids: list[str], rules_dirs: RulesDirs) -> dict[str, Any]:
    """The pictures of a page's entries that the game draws (small grids), as SVG."""
    from kbgrules.core.registry import engine_of

    rs = kbgrules.load(gid, rules_dirs=rules_dirs)
    drawn = engine_of(gid, [os.fspath(d) for d in rules_dirs]).reference_pictures(rs)
    return {i: svg.grid(p) for i, p in drawn.items() if i in ids}


def _glossaries(games: dict[str, Any], rules_dirs: RulesDirs) -> list[dict[str, Any]]:
    out = []
    for gid in games:
        data = kbgrules.load(gid, rules_dirs=rules_dirs).data.get("glossary") or {}
        rows = [{"concept": cid, "note": c.get("note"),
                 "words": {lang: ", ".join(c.get("words", {}).get(lang, ())) for lang in LANG_NAMES}}
                for cid, c in data.items()]
        out.append({"game": games[gid].name, "anchor": games[gid].short, "rows": rows})
    return out

