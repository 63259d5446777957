"""A checked No Thanks! game as a :class:`kbgrules.core.result.GameResult`: the standings, the game's
JSON, and its views (``kbg show``'s card-by-card table, the HTML report's score chart)."""

from __future__ import annotations

from typing import Any

from kbg_nothanks.log import final_json
from kbg_nothanks.state import NoThanksState, runs_text
from kbgrules.core.outcome import Outcome
from kbgrules.core.report import GameReport
from kbgrules.core.result import GameResult
from kbgrules.core.views import Block, Chart, Column, Table


class NoThanksResult(GameResult):
    """Where a No Thanks! game stands: ``points`` are the scores (the lower the better), ``final`` the
    game's JSON (``log.final_json``)."""

    __slots__ = ()

    def progress(self, timeline: list[dict[str, Any]]) -> Table | None:
        """Each card taken, by whom and with how many chips, then every score (chips) just after."""
        if not timeline:
            return None
        rows = tuple((snap["card"], snap["number"], snap["taker"], snap["chips"],
                      *(f"{p['score']} ({p['chips']})" for p in snap["players"])) for snap in timeline)
        columns = (Column("#", True), Column("card", True), Column("taken by"), Column("chips", True),
                   *(Column(name) for name in self.players))
        return Table("card by card: each score (chips) once the card is taken", columns, rows, key=2)

    def charts(self, timeline: list[dict[str, Any]]) -> tuple[Block, ...]:
        if len(timeline) < 2:
            return ()
        xs = tuple(snap["card"] for snap in timeline)
        series = tuple((name, tuple(snap["players"][i]["score"] for snap in timeline))
                       for i, name in enumerate(self.players))
        return (Chart("Score after each card taken (the lowest wins)", "Cards taken", "Score", xs, series),)


def make_result(st: NoThanksState) -> NoThanksResult:
    """The result of the game ``st`` as it stands (over, or where checking stopped)."""
    out = st.outcome()
    if out.over:
        who = ", ".join(out.winners)
        headline = (f"Winner: {who}" if len(out.winners) == 1 else f"Shared victory: {who}") + f" ({out.reason})"
    else:
        taken = len(st.takes)
        now = (f"{st.names[st.to_act]} to decide on the {st.offer} ({st.pot} chip{'s' * (st.pot != 1)} on it)"
               if st.offer is not None else "the next card to turn")
        headline = f"The game is not over: {taken} of {st.rs.deck_size} cards taken, {now}."
    rows = tuple((s.rank, s.name, s.score, runs_text(s.cards), s.card_points, s.chips) for s in out.standings)
    standings = Table("Standings", (Column("rank", True), Column("player"), Column("score", True), Column("cards"),
                             Column("card points", True), Column("chips", True)), rows, key=1)
    return NoThanksResult(st.rs.game.id, st.names, Outcome(out.over, out.winners, out.reason), headline,
                          standings, {s.name: s.score for s in out.standings}, final_json(st))


def record(report: GameReport, st: NoThanksState) -> NoThanksResult:
    """Set the checked game's result on ``report``; returns it."""
    report.result = make_result(st)
    return report.result
