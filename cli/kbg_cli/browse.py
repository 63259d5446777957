"""``kbg rules``: rule statements and component lists as tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kbgrules import Card, Domino, KbgError, KingdominoRuleset, KingOfTokyoRuleset, RuleEntry, Ruleset
from kbgrules.core.closest import closest
from kbgrules.core.data import normalize
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


def _sources_json(sources: Any) -> list[dict[str, Any]]:
    return [{"doc": s.doc, "section": s.section, "edition": s.edition, "note": s.note} for s in sources]


def _rule_json(r: RuleEntry) -> dict[str, Any]:
    return {"id": r.id, "title": r.title, "text": r.text, "conflict": r.conflict,
            "related": list(r.related), "tags": list(r.tags),
            "sources": _sources_json(r.sources)}


def _head(rs: Ruleset) -> dict[str, Any]:
    return {"kbg_json": 1, "game": rs.game.id, "edition": rs.edition.id, "variants": [v.id for v in rs.variants]}


def _title(rs: Ruleset) -> str:
    extra = "".join(f" + {v.title}" for v in rs.variants)
    return f"{rs.game.name} - {rs.edition.title}{extra}"


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


def show_cards(rs: KingOfTokyoRuleset, as_json: bool) -> None:
    if as_json:
        render.print_json({**_head(rs), "cards": [
            {"id": c.id, "name": c.name, "cost": c.cost, "type": c.type, "copies": c.copies,
             "effect": c.effect, "clarification": c.clarification} for c in rs.cards]})
        return
    doc = render.Doc()
    n = len(rs.cards)
    doc.heading(f"Power cards - {_title(rs)}: {rs.deck_size} card{'s' * (rs.deck_size != 1)}, "
                f"{n} title{'s' * (n != 1)}")
    t = render.Table(None, ["cost", "type", "card", "effect"], numeric=[0])
    for c in rs.cards:
        name = c.name + (f" (x{c.copies})" if c.copies > 1 else "")
        t.add(c.cost, c.type, name, c.effect)
    doc.table(t)
    doc.show()


def show_tiles(rs: KingOfTokyoRuleset, as_json: bool) -> None:
    if not rs.tiles:
        raise KbgError(f"{_title(rs)} has no wickedness tiles (they are in the Dark Edition: --edition dark)",
                       code="unknown-topic")
    if as_json:
        render.print_json({**_head(rs), "tiles": [
            {"id": t.id, "name": t.name, "level": t.level, "side": t.side, "back": t.back or None, "type": t.type,
             "effect": t.effect, "clarification": t.clarification} for t in rs.tiles]})
        return
    doc = render.Doc()
    doc.heading(f"Wickedness tiles - {_title(rs)}: {len(rs.tiles)} sides")
    t = render.Table(None, ["level", "side", "tile", "effect"], numeric=[0])
    for tile in sorted(rs.tiles, key=lambda x: (x.level, x.side != "red", x.id)):
        t.add(tile.level, tile.side + (" (discard)" if tile.type == "discard" else ""), tile.name, tile.effect)
    doc.table(t)
    doc.show()


def show_evolutions(rs: KingOfTokyoRuleset, as_json: bool) -> None:
    if not rs.evolutions:
        why = ("no evolutions are loaded for this edition (give yours with --rules DIR)" if rs.evolution
               else "evolutions are not in play (add --variant power-up)")
        raise KbgError(f"{_title(rs)}: {why}", code="unknown-topic")
    if as_json:
        render.print_json({**_head(rs), "evolutions": [
            {"id": c.id, "name": c.name, "monster": c.monster, "type": c.type, "copies": c.copies,
             "effect": c.effect, "clarification": c.clarification} for c in rs.evolutions]})
        return
    doc = render.Doc()
    doc.heading(f"Evolution cards - {_title(rs)}: {sum(c.copies for c in rs.evolutions)} cards")
    t = render.Table(None, ["monster", "type", "evolution", "effect"])
    for c in rs.evolutions:
        t.add(c.monster, c.type, c.name, c.effect)
    doc.table(t)
    doc.show()


def show_dominoes(rs: KingdominoRuleset, as_json: bool) -> None:
    names = {t.id: t.name for t in rs.terrains}
    if as_json:
        render.print_json({**_head(rs), "dominoes": [
            {"number": d.number,
             "halves": [{"terrain": h.terrain, "crowns": h.crowns} for h in d.halves]} for d in rs.dominoes]})
        return
    doc = render.Doc()
    doc.heading(f"Dominoes - {_title(rs)}: {len(rs.dominoes)}")
    t = render.Table(None, ["#", "first half", "crowns", "second half", "crowns"], numeric=[0, 2, 4])
    for d in rs.dominoes:
        t.add(d.number, names[d.first.terrain], d.first.crowns or "", names[d.second.terrain],
              d.second.crowns or "")
    doc.table(t)
    totals = render.Table("Totals per terrain", ["terrain", "squares", "crowns"], numeric=[1, 2])
    for ter in rs.terrains:
        halves = [h for d in rs.dominoes for h in d.halves if h.terrain == ter.id]
        totals.add(f"{ter.name} ({ter.letter})", len(halves), sum(h.crowns for h in halves))
    doc.table(totals)
    doc.show()


def show_card(rs: KingOfTokyoRuleset, card: Card, as_json: bool) -> None:
    if as_json:
        render.print_json({**_head(rs), "card": {
            "id": card.id, "name": card.name, "cost": card.cost, "type": card.type, "copies": card.copies,
            "effect": card.effect, "clarification": card.clarification,
            "sources": _sources_json(card.sources)}})
        return
    doc = render.Doc()
    copies = f", {card.copies} copies in the deck" if card.copies > 1 else ""
    doc.heading(f"{card.name}: {card.type} card, cost {card.cost}{copies}")
    doc.para(card.effect)
    if card.clarification:
        doc.para("Clarification: " + card.clarification, "yellow")
    _sources_table(doc, rs, card.sources)
    doc.show()


def show_domino(rs: KingdominoRuleset, d: Domino, as_json: bool) -> None:
    names = {t.id: t.name for t in rs.terrains}
    if as_json:
        render.print_json({**_head(rs), "domino": {
            "number": d.number, "halves": [{"terrain": h.terrain, "crowns": h.crowns} for h in d.halves]}})
        return
    doc = render.Doc()
    doc.heading(f"Domino {d.number}")
    t = render.Table(None, ["half", "terrain", "crowns"], numeric=[2])
    t.add("first", names[d.first.terrain], d.first.crowns)
    t.add("second", names[d.second.terrain], d.second.crowns)
    doc.table(t)
    doc.show()


def show_components(rs: Ruleset, as_json: bool) -> None:
    if as_json:
        render.print_json({**_head(rs), "components": [
            {"id": c.id, "name": c.name, "count": c.count, "note": c.note} for c in rs.components]})
        return
    doc = render.Doc()
    doc.heading(f"Components - {_title(rs)}")
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


def show_terrains(rs: KingdominoRuleset, as_json: bool) -> None:
    if as_json:
        render.print_json({**_head(rs), "terrains": [
            {"id": t.id, "letter": t.letter, "name": t.name, "aliases": list(t.aliases)} for t in rs.terrains]})
        return
    doc = render.Doc()
    doc.heading(f"Terrains - {rs.game.name}")
    t = render.Table(None, ["letter", "terrain", "also called"])
    for ter in rs.terrains:
        t.add(ter.letter, ter.name, ", ".join(ter.aliases))
    doc.table(t)
    doc.show()


def show_setup_table(rs: Ruleset, as_json: bool, rules_dirs: Sequence[str] = ()) -> None:
    rows: list[list[Any]]
    if isinstance(rs, KingdominoRuleset):
        cols = ["players", "kings each", "dominoes used", "removed", "per line", "rounds", "leftover discarded"]
        keys = ["players", "kings_per_player", "dominoes_used", "dominoes_removed", "line_size", "rounds",
                "leftover_per_line"]
        rows = [[r.players, r.kings_per_player, r.dominoes_used, r.dominoes_removed, r.line_size, r.rounds,
                 r.leftover_per_line] for r in rs.setup_table.values()]
    elif isinstance(rs, KingOfTokyoRuleset):
        cols = ["players", "Tokyo spaces", "optional spaces"]
        keys = ["players", "tokyo_spaces", "optional_tokyo_spaces"]
        rows = [[r.players, list(r.tokyo_spaces), list(r.optional_tokyo_spaces)] for r in rs.setup_table.values()]
    else:  # a plug-in game: the facts of its setup sheets that change with the player count
        cols, keys, rows = _sheet_table(rs, rules_dirs)
    if as_json:
        render.print_json({**_head(rs), "setup": [dict(zip(keys, r, strict=True)) for r in rows]})
        return
    rows = [[", ".join(c) if isinstance(c, list) else c for c in r] for r in rows]
    doc = render.Doc()
    doc.heading(f"Setup per player count - {_title(rs)}")
    t = render.Table(None, cols, numeric=[0] if isinstance(rs, KingOfTokyoRuleset) else list(range(len(cols))))
    for r in rows:
        t.add(*r)
    doc.table(t)
    doc.show()


def show(rs: Ruleset, topic: str | None, as_json: bool, rules_dirs: Sequence[str] = ()) -> None:
    entries = list(rs.rules.values())
    if topic is None:
        show_rule_list(rs, entries, as_json, f"Rules - {_title(rs)}")
        return
    key = normalize(topic)
    if key in rs.rules or topic in rs.rules:
        show_rule(rs, rs.rules.get(key) or rs.rules[topic], as_json)
        return
    if key == "cards" and isinstance(rs, KingOfTokyoRuleset):
        return show_cards(rs, as_json)
    if key in ("tiles", "wickedness-tiles") and isinstance(rs, KingOfTokyoRuleset):
        return show_tiles(rs, as_json)
    if key == "evolutions" and isinstance(rs, KingOfTokyoRuleset):
        return show_evolutions(rs, as_json)
    if key in ("dominoes", "tiles") and isinstance(rs, KingdominoRuleset):
        return show_dominoes(rs, as_json)
    if key == "terrains" and isinstance(rs, KingdominoRuleset):
        return show_terrains(rs, as_json)
    if key == "components":
        return show_components(rs, as_json)
    if key in ("documents", "sources"):
        return show_documents(rs, as_json)
    if key == "setup":
        return show_setup_table(rs, as_json, rules_dirs)
    if isinstance(rs, KingOfTokyoRuleset):
        card = next((c for c in rs.cards if key in (c.id, normalize(c.name))), None)
        if card is not None:
            return show_card(rs, card, as_json)
    if isinstance(rs, KingdominoRuleset):
        number = key.removeprefix("domino").strip("-# ")
        if number.isascii() and number.isdigit():
            return show_domino(rs, rs.domino(int(number)), as_json)
    words = key.replace(".", " ").replace("-", " ").split()
    matches = [r for r in entries
               if all(w in f"{r.id} {r.title} {' '.join(r.tags)}".casefold() for w in words)]
    if matches:
        show_rule_list(rs, matches, as_json, f"Rules matching {topic!r} - {_title(rs)}")
        return
    close = closest(key, rs.rules, n=3, cutoff=0.6)
    topics = topics_for(rs)
    hint = suggest(close) if close else f"; try one of: {', '.join(topics)}"
    raise KbgError(f"nothing in {rs.game.name} matches {topic!r}{hint}", code="unknown-topic")




def _sheet_table(rs: Ruleset, rules_dirs: Sequence[str]) -> tuple[list[str], list[str], list[list[Any]]]:
    """Columns, JSON keys and rows of a game's setup per player count (those its edition and variants
    allow), from its setup sheets: the facts that differ between counts (all of them if none does)."""
    from kbgrules import load, setup_sheet

    sheets = []
    for n in range(rs.game.min_players, rs.game.max_players + 1):
        try:
            loaded = load(rs.game.id, edition=rs.edition.id, variants=[v.id for v in rs.variants], players=n,
                          rules_dirs=rules_dirs)
        except KbgError:  # a count a variant does not allow
            continue
        sheets.append((n, setup_sheet(loaded).facts))
    keys = list(dict.fromkeys(k for _, f in sheets for k in f))
    varying = [k for k in keys if len({repr(f.get(k)) for _, f in sheets}) > 1] or keys
    rows = [[n, *(f.get(k) for k in varying)] for n, f in sheets]
    return ["players", *(k.replace("_", " ") for k in varying)], ["players", *varying], rows


def topics_for(rs: Ruleset) -> tuple[str, ...]:
    """The list topics that apply to this game."""
    own = {"cards", "tiles", "evolutions"} if isinstance(rs, KingOfTokyoRuleset) else \
        {"dominoes", "terrains"} if isinstance(rs, KingdominoRuleset) else set()
    skip = {"cards", "tiles", "evolutions", "dominoes", "terrains"} - own
    return tuple(t for t in RULE_TOPICS if t not in skip)
