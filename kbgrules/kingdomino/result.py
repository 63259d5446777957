"""A checked Kingdomino game's result (:class:`KingdominoResult`) and what it draws: the standings,
each kingdom, the score after each round."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kbgrules.core import args
from kbgrules.core.outcome import Outcome
from kbgrules.core.result import GameResult
from kbgrules.core.views import Block, Chart, Column, Grid, Table

if TYPE_CHECKING:
    from kbgrules.kingdomino.model import KingdominoRuleset
    from kbgrules.kingdomino.state import KingdominoState

STANDINGS = (Column("rank", True), Column("player"), Column("score", True), Column("bonuses"),
             Column("largest property", True), Column("crowns", True), Column("discards", True))


class KingdominoResult(GameResult):
    """The common part, with ``final`` as docs/check-output.schema.json describes it."""

    __slots__ = ()

    def progress(self, timeline: list[dict[str, Any]]) -> Table | None:
        args.timeline(timeline)
        rows = tuple(("claims" if snap["round"] == 1 else snap["round"] - 1,  # row 1: after the first claims
                      *(f"{p['score']} ({p['squares']})" for p in snap["players"])) for snap in timeline)
        return Table("score after each round (squares placed)", (Column("round"), *map(Column, self.players)), rows)

    def charts(self, timeline: list[dict[str, Any]]) -> tuple[Block, ...]:
        args.timeline(timeline)
        if len(timeline) < 2:
            return ()
        xs = tuple(snap["round"] for snap in timeline)
        series = tuple((name, tuple(snap["players"][k]["score"] for snap in timeline))
                       for k, name in enumerate(self.players))
        return (Chart("Score after each round", "Round", "Score", xs, series),)


def grids(rs: KingdominoRuleset, kingdoms: list[tuple[str, list[str], str | None]]) -> tuple[Grid, ...]:
    """Each (owner, rows, corner) kingdom as a grid coloured by the rules' terrains."""
    palette = tuple((t.letter, t.colour or "#cccccc") for t in rs.terrains)
    names = tuple((t.letter, t.name) for t in rs.terrains)
    return tuple(Grid(f"{owner}'s kingdom", tuple(rows), palette, names, corner, ("C",), owner, "♛", rs.kingdom_size)
                 for owner, rows, corner in kingdoms)


def kingdomino_result(state: KingdominoState, full: Outcome, final: dict[str, Any]) -> KingdominoResult:
    """The result of a replayed game, given its outcome and its JSON (``log.final_json``)."""
    out = Outcome(full.over, full.winners, full.reason)  # the standings are in ``final``
    players = sorted(final["players"], key=lambda p: p["rank"])
    titles = {v.id: v.title for v in state.rs.variants}  # a bonus is named after the variant that brings it
    rows = tuple((p["rank"], p["name"], p["score"],
                  ", ".join(f"{titles.get(k, k)} +{v}" for k, v in p["bonuses"].items()) or "-",
                  p["largest_property"], p["crowns"], p["discards"]) for p in players)
    if out.over:
        headline = (("Winner: " if len(out.winners) == 1 else "Shared victory: ") + ", ".join(out.winners)
                    + f" ({out.reason})")
    else:
        headline = "The game is not finished; scores so far:"
    pictures = grids(state.rs, [(p["name"], p["kingdom"], p["kingdom_corner"]) for p in final["players"]])
    return KingdominoResult(state.rs.game.id, tuple(state.players), out, headline,
                            Table("Standings", STANDINGS, rows, key=1),
                            {p["name"]: int(p["score"]) for p in final["players"]}, final, pictures)
