"""Kingdomino's own pages in ``kbg rules``: the dominoes, the terrains, one domino by its number, the
setup table per player count; and ``kbg score``'s page of a kingdom written as a grid."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kbgrules.core.reference import Page, PositionFormat, Scored, Topic, ruleset_title
from kbgrules.core.views import Block, Column, Table, Text
from kbgrules.errors import KbgError
from kbgrules.kingdomino.model import Domino, KingdominoRuleset

TOPICS = (Topic("dominoes", ("tiles",)), Topic("terrains"))
GRID = PositionFormat("grid", "a kingdom written as a grid (W F L G S M + crowns, C castle, . empty)")


def _table(title: str | None, columns: list[str], numeric: set[int], rows: Sequence[tuple[object, ...]]) -> Table:
    return Table(title, tuple(Column(c, i in numeric) for i, c in enumerate(columns)), tuple(rows))


def _halves(d: Domino) -> list[dict[str, object]]:
    return [{"terrain": h.terrain, "crowns": h.crowns} for h in d.halves]


def page(rs: KingdominoRuleset, topic: str) -> Page:
    """The page of one of :data:`TOPICS` or of ``setup``."""
    names = {t.id: t.name for t in rs.terrains}
    if topic == "dominoes":
        rows = [(d.number, names[d.first.terrain], d.first.crowns or "", names[d.second.terrain],
                 d.second.crowns or "") for d in rs.dominoes]
        totals = []
        for ter in rs.terrains:
            halves = [h for d in rs.dominoes for h in d.halves if h.terrain == ter.id]
            totals.append((f"{ter.name} ({ter.letter})", len(halves), sum(h.crowns for h in halves)))
        return Page(f"Dominoes - {ruleset_title(rs)}: {len(rs.dominoes)}",
                    (_table(None, ["#", "first half", "crowns", "second half", "crowns"], {0, 2, 4}, rows),
                     _table("Totals per terrain", ["terrain", "squares", "crowns"], {1, 2}, totals)),
                    {"dominoes": [{"number": d.number, "halves": _halves(d)} for d in rs.dominoes]})
    if topic == "terrains":
        return Page(f"Terrains - {rs.game.name}",
                    (_table(None, ["letter", "terrain", "also called"], set(),
                            [(t.letter, t.name, ", ".join(t.aliases)) for t in rs.terrains]),),
                    {"terrains": [{"id": t.id, "letter": t.letter, "name": t.name, "aliases": list(t.aliases)}
                                  for t in rs.terrains]})
    if topic == "setup":
        cols = ["players", "kings each", "dominoes used", "removed", "per line", "rounds", "leftover discarded"]
        keys = ["players", "kings_per_player", "dominoes_used", "dominoes_removed", "line_size", "rounds",
                "leftover_per_line"]
        counts = [(r.players, r.kings_per_player, r.dominoes_used, r.dominoes_removed, r.line_size, r.rounds,
                   r.leftover_per_line) for r in rs.setup_table.values()]
        return Page(f"Setup per player count - {ruleset_title(rs)}",
                    (_table(None, cols, set(range(len(cols))), counts),),
                    {"setup": [dict(zip(keys, r, strict=True)) for r in counts]})
    raise KbgError(f"{rs.game.name} has no table {topic!r}", code="unknown-topic")


def item(rs: KingdominoRuleset, key: str) -> Page | None:
    """A domino by its number (``37``, ``#37``, ``domino 37``); KbgError if no domino has it."""
    number = key.removeprefix("domino").strip("-# ")
    if not (number.isascii() and number.isdigit()):
        return None
    d = rs.domino(int(number))
    names = {t.id: t.name for t in rs.terrains}
    return Page(f"Domino {d.number}",
                (_table(None, ["half", "terrain", "crowns"], {2},
                        [("first", names[d.first.terrain], d.first.crowns),
                         ("second", names[d.second.terrain], d.second.crowns)]),),
                {"domino": {"number": d.number, "halves": _halves(d)}})


def score_grid(name: str, text: str, rs: KingdominoRuleset) -> Scored:
    """A kingdom written as a grid, scored: its picture, its properties, the bonuses in play."""
    from kbgrules.kingdomino.kingdom import corner_name, letters, score
    from kbgrules.kingdomino.positions import GridError, read_grid
    from kbgrules.kingdomino.result import grids

    try:
        kingdom, warnings = read_grid(name, text, rs)
    except GridError as exc:
        return Scored(None, exc.diagnostics)
    s = score(kingdom, rs)
    names = {t.id: t.name for t in rs.terrains}
    rows = [" ".join(r) for r in kingdom.rows(letters(rs))]
    [grid] = grids(rs, [(name, rows, corner_name(kingdom, rs.kingdom_size))])
    grid = replace(grid, title="", caption=None)  # the heading names the file
    props: list[tuple[object, ...]] = [(names[p.terrain], p.squares, p.crowns, p.points) for p in s.properties]
    props.append(("total", sum(p.squares for p in s.properties), s.crowns, s.base))
    blocks: list[Block] = [grid, _table("Properties", ["terrain", "squares", "crowns", "points"], {1, 2, 3}, props)]
    active = [b for b in rs.bonuses.values() if b.active]
    if active:
        blocks.append(_table("Bonuses", ["bonus", "reading", "points"], {2}, [
            (b.id, "complete-grid (a bare grid shows no discards)" if b.reading == "no-discard" else b.reading,
             s.bonuses.get(b.id, 0)) for b in active]))
    blocks.append(Text(f"Total: {s.total}", strong=True))
    return Scored(Page(f"{name}: {s.total} point{'' if s.total == 1 else 's'}", tuple(blocks), {
        "score": s.total, "base": s.base, "bonuses": dict(s.bonuses),
        "largest_property": s.largest_property, "crowns": s.crowns,
        "properties": [{"terrain": p.terrain, "squares": p.squares, "crowns": p.crowns, "points": p.points}
                       for p in s.properties]}), tuple(warnings))
