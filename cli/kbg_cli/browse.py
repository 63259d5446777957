"""``kbg rules``: rule statements and component lists as tables; the game's own tables (its pieces, its
setup per player count) are pages its engine makes (:mod:`kbgrules.core.reference`)."""

from __future__ import annotations

from typing import Any

from kbgrules import KbgError, RuleEntry, Ruleset
from kbgrules.core.closest import closest
from kbgrules.core.datafiles import normalize
from kbgrules.core.reference import Page, ruleset_title, sources_json
from kbgrules.core.registry import engine_for
from kbgrules.errors import suggest

from . import RULE_TOPICS, render


def _sources_text(rs: Ruleset, entry_sources: Any) -> list[str]:
    out = []
    for s in entry_sources:
        doc = rs.documents.get(s.doc)
        title = doc.title if doc else s.doc
        ed = f" [{s.edition}]" if s.edition else ""
        note = f" ({s.note})" if s.note else ""
        out.append(f"{s.doc}{ed}: {title}, section {s.section!r}{note}")
    return out


def _sources_table(doc: render.Doc, rs: Ruleset, sources: Any) -> None:
    t = render.Table("Sources", [])
    for line in _sources_text(rs, sources):
        t.add(line)
    doc.table(t)


def _rule_json(r: RuleEntry) -> dict[str, Any]:
    return {"id": r.id, "title": r.title, "text": r.text, "conflict": r.conflict,
            "related": list(r.related), "tags": list(r.tags),
            "sources": sources_json(r.sources)}


def _head(rs: Ruleset) -> dict[str, Any]:
    return {"kbg_json": 1, "game": rs.game.id, "edition": rs.edition.id, "variants": [v.id for v in rs.variants]}


def show_rule(rs: Ruleset, r: RuleEntry, as_json: bool) -> None:
    if as_json:
        render.print_json({**_head(rs), "rule": _rule_json(r)})
        return
    doc = render.Doc()
    doc.heading(f"{r.id}: {r.title}")
    doc.para(r.text)
    if r.conflict:
        doc.para("Sources differ: " + r.conflict, "yellow")
    _sources_table(doc, rs, r.sources)
    if r.related:
        doc.para("Related: " + ", ".join(r.related), "dim")
    doc.show()


def show_rule_list(rs: Ruleset, entries: list[RuleEntry], as_json: bool, title: str) -> None:
    if as_json:
        render.print_json({**_head(rs), "rules": [_rule_json(r) for r in entries]})
        return
    doc = render.Doc()
    doc.heading(title)
    t = render.Table(None, ["id", "title"])
    for r in entries:
        t.add(r.id, r.title)
    doc.table(t)
    count = f"{len(entries)} rule" + ("" if len(entries) == 1 else "s")
    doc.para(f"{count}. Show one with: kbg rules {rs.game.id} ID", "dim")
    doc.show()


def show_components(rs: Ruleset, as_json: bool) -> None:
    if as_json:
        render.print_json({**_head(rs), "components": [
            {"id": c.id, "name": c.name, "count": c.count, "note": c.note} for c in rs.components]})
        return
    doc = render.Doc()
    doc.heading(f"Components - {ruleset_title(rs)}")
    t = render.Table(None, ["count", "component", "note"], numeric=[0])
    for c in rs.components:
        t.add("" if c.count is None else c.count, c.name, c.note or "")
    doc.table(t)
    doc.show()


def show_documents(rs: Ruleset, as_json: bool) -> None:
    if as_json:
        render.print_json({**_head(rs), "documents": [
            {"key": d.key, "title": d.title, "kind": d.kind, "authority": d.authority, "edition": d.edition}
            for d in rs.documents.values()]})
        return
    doc = render.Doc()
    doc.heading(f"Sources cited - {rs.game.name}")
    t = render.Table(None, ["key", "authority", "document"])
    for d in rs.documents.values():
        t.add(d.key, d.authority, d.title)
    doc.table(t)
    doc.show()


def show_page(rs: Ruleset, page: Page, as_json: bool) -> None:
    """A page the game's engine made (its pieces, its setup table)."""
    if as_json:
        render.print_json({**_head(rs), **page.json})
        return
    doc = render.Doc()
    doc.page(page)
    if page.sources:
        _sources_table(doc, rs, page.sources)
    doc.show()


def show(rs: Ruleset, topic: str | None, as_json: bool) -> None:
    entries = list(rs.rules.values())
    if topic is None:
        show_rule_list(rs, entries, as_json, f"Rules - {ruleset_title(rs)}")
        return
    key = normalize(topic)
    if key in rs.rules or topic in rs.rules:
        show_rule(rs, rs.rules.get(key) or rs.rules[topic], as_json)
        return
    engine = engine_for(rs.data)
    own = next((t for t in engine.reference_topics if t.named(key)), None)
    if own is not None:
        return show_page(rs, engine.reference_table(rs, own.name), as_json)
    if key == "components":
        return show_components(rs, as_json)
    if key in ("documents", "sources"):
        return show_documents(rs, as_json)
    if key == "setup":
        return show_page(rs, engine.reference_table(rs, "setup"), as_json)
    page = engine.reference_item(rs, key)
    if page is not None:
        return show_page(rs, page, as_json)
    words = key.replace(".", " ").replace("-", " ").split()
    matches = [r for r in entries
               if all(w in f"{r.id} {r.title} {' '.join(r.tags)}".casefold() for w in words)]
    if matches:
        show_rule_list(rs, matches, as_json, f"Rules matching {topic!r} - {ruleset_title(rs)}")
        return
    close = closest(key, rs.rules, n=3, cutoff=0.6)
    topics = topics_for(rs)
    hint = suggest(close) if close else f"; try one of: {', '.join(topics)}"
    raise KbgError(f"nothing in {rs.game.name} matches {topic!r}{hint}", code="unknown-topic")


def topics_for(rs: Ruleset) -> tuple[str, ...]:
    """The list topics of this game: its engine's own, then those of every game."""
    return (*(t.name for t in engine_for(rs.data).reference_topics), *RULE_TOPICS)
