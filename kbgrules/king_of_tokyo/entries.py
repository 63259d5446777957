"""King of Tokyo's own tables as reference entries for ``kbg explain`` and the site: the power cards,
the Dark Edition's wickedness tiles and the Power Up! evolutions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kbgrules.core.entries import Entry, Picture
from kbgrules.core.kinds import NAMED_PIECE
from kbgrules.core.model import OverlayInfo, Ruleset, Source
from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset

PAGES = (("cards", "Power cards", ("card",)), ("evolutions", "Evolutions (Power Up!)", ("evolution",)),
         ("tiles", "Wickedness tiles (Dark Edition)", ("tile",)))
KINDS = {"card": NAMED_PIECE, "evolution": NAMED_PIECE, "tile": NAMED_PIECE}  # each found by its name
NUMBER_WORDS: tuple[str, ...] = ()  # no entry is found by a number


def _sources(items: Sequence[Source]) -> list[dict[str, Any]]:
    return [{"doc": s.doc, "section": s.section, "edition": s.edition} for s in items]


def reference_entries(prefix: str, editions: Sequence[tuple[OverlayInfo, Ruleset]],
                      variants: Sequence[tuple[OverlayInfo, Ruleset]]) -> list[Entry]:
    """Cards (one entry each, with each edition's text where it differs), tiles and evolutions."""
    out: dict[str, Entry] = {}
    default = editions[0][0].id
    for ed, rs in editions:
        assert isinstance(rs, KingOfTokyoRuleset)
        for c in rs.cards:
            cid = f"{prefix}.card.{c.id}"
            text = f"{c.name}: {c.type} card, cost {c.cost}. {c.effect}"
            if cid not in out:
                out[cid] = Entry(cid, rs.game.id, "card", c.name, text, _sources(c.sources),
                                 conflict=c.clarification, editions=[] if ed.id == default else [ed.id])
            elif out[cid].text != text:
                out[cid].by_edition[ed.id] = text
                if c.name != out[cid].title:
                    out[cid].add_aliases([("en", c.name)])
        for tile in rs.tiles:
            tid = f"{prefix}.tile.{tile.id}"
            back = next((b.name for b in rs.tiles if b.id == tile.back), None)
            text = (f"{tile.name}: wickedness tile, level {tile.level}, {tile.side} side"
                    + (f" (the other side is {back})" if back else "") + f". {tile.effect}")
            out[tid] = Entry(tid, rs.game.id, "tile", tile.name, text, _sources(tile.sources),
                             [f"{prefix}.dark.tiles", f"{prefix}.dark.thresholds"], tile.clarification,
                             editions=[ed.id])
    for v, rs in variants:
        assert isinstance(rs, KingOfTokyoRuleset)
        monsters: dict[str, str] = {}
        for e in rs.evolutions:
            eid = f"{prefix}.evolution.{e.id}"
            who = monsters.setdefault(e.monster, e.monster.replace("-", " ").title())
            if eid not in out:
                out[eid] = Entry(eid, rs.game.id, "evolution", e.name,
                                 f"{e.name}: {who}'s {e.type} evolution (Power Up!). {e.effect}",
                                 _sources(e.sources), [f"{prefix}.evolution.play", f"{prefix}.evolution.draw"],
                                 e.clarification, notes=[f"with the variant {v.id}"], variants=[v.id])
    return list(out.values())


def reference_pictures(rs: Ruleset) -> dict[str, Picture]:
    """None: King of Tokyo's entries are words."""
    return {}
