"""Turning an effective data tree into the typed, immutable Ruleset of its game."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from kbgrules.core.datafiles import GameFiles
from kbgrules.core.effective import Resolved
from kbgrules.core.model import Component, Document, GameInfo, OverlayInfo, RuleEntry, Source


def freeze(value: Any) -> Any:
    """A read-only deep copy: mappings become MappingProxyType, lists become tuples."""
    t = type(value)
    if t is str or t is int or t is bool or t is float or value is None:  # most of the tree: said first
        return value
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple([freeze(v) for v in value])
    return value


def sources(items: Any) -> tuple[Source, ...]:
    return tuple(
        Source(str(s["doc"]), str(s["section"]),
               None if s.get("edition") is None else str(s["edition"]),
               s.get("note"))
        for s in items or ()
    )


def strs(items: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in items or ())


def overlay_info(kind: str, oid: str, d: Mapping[str, Any], *, default: bool = False,
                 file: str | None = None) -> OverlayInfo:
    players = d.get("players")
    eds = d.get("editions")
    return OverlayInfo(
        id=oid, kind=kind, title=str(d.get("title", oid)), summary=str(d.get("summary", "")).strip(),
        aliases=strs(d.get("aliases")), default=default, option=bool(d.get("option", False)),
        players=tuple(int(p) for p in players) if isinstance(players, list) else None,
        editions=strs(eds) if eds else None, conflicts=strs(d.get("conflicts")),
        sources=sources(d.get("sources")), file=file,
    )


def game_info(gf: GameFiles) -> GameInfo:
    g = gf.game.data
    base = g["base_edition"]
    editions = [overlay_info("edition", str(base["id"]), base, default=True)]
    editions += [overlay_info("edition", eid, f.data, file=f.doc.file if f.user else None)
                 for eid, f in gf.editions.items()]
    variants = [overlay_info("variant", vid, f.data, file=f.doc.file if f.user else None)
                for vid, f in gf.variants.items()]
    variants.sort(key=lambda v: (v.option, v.id))
    return GameInfo(
        id=str(g["id"]), name=str(g["name"]), aliases=strs(g.get("aliases")),
        min_players=int(g["players"]["min"]), max_players=int(g["players"]["max"]),
        summary=str(g.get("summary", "")).strip(), editions=tuple(editions), variants=tuple(variants),
        year=g.get("year"), designers=strs(g.get("designers")), publisher=g.get("publisher"),
        short=str(g.get("short") or g["id"]),
        name_translations=tuple((str(k), str(v)) for k, v in (g.get("name_translations") or {}).items()),
    )


def common_fields(res: Resolved) -> dict[str, Any]:
    t = res.tree
    info = game_info(res.files)
    edition = next(e for e in info.editions if e.id == res.edition_id)
    variants = tuple(next(v for v in info.variants if v.id == vid) for vid in res.variant_ids)
    docs = {
        k: Document(k, str(v["title"]), str(v["kind"]), str(v["authority"]),
                    None if v.get("edition") is None else str(v["edition"]))
        for k, v in (t.get("documents") or {}).items()
    }
    rules = {
        rid: RuleEntry(rid, str(r["title"]), str(r["text"]).strip(), sources(r.get("sources")),
                       strs(r.get("related")), strs(r.get("tags")),
                       None if r.get("conflict") is None else str(r["conflict"]).strip(),
                       MappingProxyType({k: str(v).strip() for k, v in (r.get("translations") or {}).items()}),
                       MappingProxyType({k: str(v).strip() for k, v in (r.get("title_translations") or {}).items()}))
        for rid, r in (t.get("rules") or {}).items()
    }
    comps = tuple(Component(str(c["id"]), str(c["name"]), c.get("count"), c.get("note"))
                  for c in t.get("components") or ())
    return {
        "game": info, "edition": edition, "variants": variants, "players": res.players,
        "documents": MappingProxyType(docs), "components": comps,
        "rules": MappingProxyType(rules), "data": freeze(t),
    }
