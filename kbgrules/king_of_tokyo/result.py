"""A checked King of Tokyo game's result (:class:`KingOfTokyoResult`) and what it draws: the
standings (wickedness gauges in the Dark Edition), life and victory points turn by turn, who held
Tokyo, the cards each monster bought."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kbgrules.core import args
from kbgrules.core.result import GameResult
from kbgrules.core.views import Block, Chart, Column, Gauge, Items, Strip, Table

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
    from kbgrules.king_of_tokyo.state import KingOfTokyoState

PLACES = {"city": "Tokyo City", "bay": "Tokyo Bay"}


def _names(rs: KingOfTokyoRuleset) -> dict[str, str]:
    """Card, tile and evolution names by id, made once per ruleset."""
    names = rs.derived.get("result-names")
    if names is None:
        names = rs.derived["result-names"] = {c.id: c.name for c in (*rs.cards, *rs.tiles, *rs.evolutions)}
    return names  # shared, read only


def _columns(rs: KingOfTokyoRuleset) -> tuple[Column, ...]:
    """The standings' columns, made once per ruleset."""
    cols = rs.derived.get("result-columns")
    if cols is None:
        wick = [Column("wickedness", True)] if rs.wickedness is not None else []
        cols = rs.derived["result-columns"] = (Column("monster"), Column("VP", True), Column("life", True),
                                               Column("energy", True), *wick, Column("place"), Column("cards"))
    return cols  # shared: columns are immutable


class KingOfTokyoResult(GameResult):
    """The common part, with ``final`` as docs/check-output.schema.json describes it; ``names``:
    card, tile and evolution names by id; ``goal``: the victory points that win."""

    __slots__ = ("goal", "names")

    def __init__(self, *args: Any, names: dict[str, str], goal: int) -> None:
        super().__init__(*args)
        self.names, self.goal = names, goal

    def progress(self, timeline: list[dict[str, Any]]) -> Table | None:
        args.timeline(timeline)
        wicked = any("wickedness" in m for snap in timeline[:1] for m in snap["monsters"])
        rows = []
        for snap in timeline:
            cells: list[object] = [snap["turn"], snap["monster"]]
            for m in snap["monsters"]:
                if m["eliminated"]:
                    cells.append("out")
                    continue
                mark = {"city": "*C", "bay": "*B"}.get(m["location"], "")
                w = f"/{m['wickedness']}" if wicked else ""
                cells.append(f"{m['hp']}/{m['vp']}/{m['energy']}{w}{mark}")
            rows.append(tuple(cells))
        what = "life/VP/energy/wickedness" if wicked else "life/VP/energy"
        return Table(f"turn by turn ({what}, * = in Tokyo)",
                     (Column("turn", True), Column("played"), *map(Column, self.players)), tuple(rows))

    def _as_it_stands(self, timeline: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The game as it stands (``final``) as one more step of ``timeline``, where it is not the
        end of the last turn there: a turn in progress changed what the charts draw (checking
        stopped, or the log ends, after a monster was hit, say)."""
        last = timeline[-1]
        drawn = ("hp", "vp", "eliminated", "location", "cards")
        if all([m[k] for k in drawn] == [n[k] for k in drawn]
               for m, n in zip(self.final["monsters"], last["monsters"], strict=True)):
            return None
        return {"turn": last["turn"] + 1, "monsters": self.final["monsters"]}

    def charts(self, timeline: list[dict[str, Any]]) -> tuple[Block, ...]:
        args.timeline(timeline)
        if not timeline:
            return ()
        now = self._as_it_stands(timeline)
        when = f" (turn {now['turn']}: as the game stands)" if now else ""
        timeline = [*timeline, now] if now else timeline
        names = self.players
        xs = tuple(snap["turn"] for snap in timeline)
        life = tuple((n, tuple(0 if snap["monsters"][k]["eliminated"] else snap["monsters"][k]["hp"]
                               for snap in timeline)) for k, n in enumerate(names))
        vp = tuple((n, tuple(snap["monsters"][k]["vp"] for snap in timeline)) for k, n in enumerate(names))
        holders = [{m["location"]: m["name"] for m in snap["monsters"] if not m["eliminated"]} for snap in timeline]
        places = [("Tokyo City", tuple(h.get("city") for h in holders))]
        if any(h.get("bay") for h in holders):
            places.append(("Tokyo Bay", tuple(h.get("bay") for h in holders)))
        bought: dict[str, list[str]] = {n: [] for n in names}
        held: dict[str, set[str]] = {n: set() for n in names}
        for snap in timeline:
            for m in snap["monsters"]:
                for cid in m.get("cards", []):
                    if cid not in held[m["name"]]:
                        held[m["name"]].add(cid)
                        bought[m["name"]].append(f"{self.names.get(cid, cid)} (turn {snap['turn']})")
        blocks: list[Block] = [
            Chart(f"Life at the end of each turn{when}", "Turn", "Life", xs, life),
            Chart(f"Victory points at the end of each turn (goal: {self.goal}){when}", "Turn", "VP", xs, vp,
                  y_max=self.goal),
            Strip(f"Who held Tokyo, turn by turn{when}", "turn", xs, tuple(places), names)]
        if any(bought.values()):
            blocks.append(Items("Cards bought", tuple((n, ", ".join(c)) for n, c in bought.items() if c)))
        return tuple(blocks)


def _held(m: dict[str, Any], names: dict[str, str]) -> str:
    held = [names.get(c, c) for c in (*m["cards"], *m.get("tiles", ()), *m.get("evolutions", ()))]
    if m.get("hand"):
        held.append(f"{len(m['hand'])} in hand")
    counts = m["tokens"]
    tokens = [f"{k} x{v}" for k, v in counts.items() if v] if any(counts.values()) else []
    if m.get("dice_tokens"):
        tokens.append(f"dice tokens x{m['dice_tokens']}")
    return (", ".join(held) or "-") + (f" [{', '.join(tokens)}]" if tokens else "")


def _verdict(winners: tuple[str, ...], reason: str | None, final: dict[str, Any], goal: int) -> str:
    """Who won and why; a win on points gives each winner's VP as the standings do (from ``final``),
    and the goal apart: ``Winner: Bob with 21 VP (the goal is 20 VP)``."""
    if not winners:
        return f"No winner: {reason}"
    head = "Winner: " if len(winners) == 1 else "Shared victory: "
    if reason != f"{goal} VP":
        return head + ", ".join(winners) + f" ({reason})"
    vp = {m["name"]: m["vp"] for m in final["monsters"]}
    return head + ", ".join(f"{w} with {vp[w]} VP" for w in winners) + f" (the goal is {goal} VP)"


def king_of_tokyo_result(st: KingOfTokyoState, final: dict[str, Any]) -> KingOfTokyoResult:
    """The result of a replayed game, ``final`` being its JSON (``report.final_json``)."""
    rs = st.rs
    out = st.outcome()
    names = _names(rs)
    if out.over:
        headline = _verdict(out.winners, out.reason, final, rs.vp_goal)
    else:
        headline = f"The game is not over: turn {final['turn']}, {final['active']} to play."
    wick = rs.wickedness
    monsters = sorted(final["monsters"], key=lambda m: (m["name"] not in out.winners, m["eliminated"], -m["vp"],
                                                         -m["hp"]))
    cols = _columns(rs)
    rows = []
    for m in monsters:
        row: list[object] = [m["name"], m["vp"], m["hp"], m["energy"]]
        if wick is not None:
            row.append(Gauge(m.get("wickedness", 0), wick.max, tuple(wick.thresholds), f"{m['name']}'s wickedness"))
        row += ["eliminated" if m["eliminated"] else PLACES.get(m["location"], "outside"), _held(m, names)]
        rows.append(tuple(row))
    return KingOfTokyoResult(rs.game.id, tuple(st.players), out, headline, Table("Standings", cols, tuple(rows)),
                             {m["name"]: int(m["vp"]) for m in final["monsters"]}, final,
                             names=names, goal=rs.vp_goal)
