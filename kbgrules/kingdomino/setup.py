"""The Kingdomino setup sheet (``kbg setup kingdomino``): the numbers of the ruleset, arranged."""

from __future__ import annotations

from typing import Any

from kbgrules.core.setup import SetupSheet, SheetItem, SheetSection, component_count, make_sheet, plural
from kbgrules.kingdomino.model import KingdominoRuleset


def setup_sheet(rs: KingdominoRuleset) -> SetupSheet:
    """The Kingdomino setup sheet of a ruleset loaded with a player count."""
    row = rs.setup
    p = rs.players or 0
    kings_total = component_count(rs, "king")
    castles = component_count(rs, "castle")
    tiles = component_count(rs, "starting-tile")
    size = rs.kingdom_size
    facts: dict[str, Any] = {
        "dominoes_used": row.dominoes_used,
        "dominoes_removed": row.dominoes_removed,
        "line_size": row.line_size,
        "rounds": row.rounds,
        "leftover_per_line": row.leftover_per_line,
        "kings_per_player": row.kings_per_player,
        "kings_in_play": row.kings_in_play,
        "kings_in_box": kings_total - row.kings_in_play,
        "dominoes_per_player": row.dominoes_per_player,
        "kingdom_size": size,
        "active_bonuses": {b.id: b.points for b in rs.bonuses.values() if b.active},
        "tiebreak": list(rs.tiebreak),
        "games": rs.games_per_match,
    }
    take = [
        SheetItem(f"{plural(row.dominoes_used, 'domino', 'dominoes')}, shuffled number side up", row.dominoes_used),
        SheetItem(plural(p, "castle"), p),
        SheetItem(plural(p, "starting tile"), p),
        SheetItem(f"{plural(row.kings_in_play, 'king')} ({row.kings_per_player} per player)", row.kings_in_play),
    ]
    box = []
    if row.dominoes_removed:
        box.append(SheetItem(f"{plural(row.dominoes_removed, 'domino', 'dominoes')}, drawn at random and "
                             "returned unseen", row.dominoes_removed))
    box += [
        SheetItem(plural(n, word), n)
        for n, word in ((kings_total - row.kings_in_play, "king"), (castles - p, "castle"),
                        (tiles - p, "starting tile"))
        if n
    ]
    each = [
        SheetItem("starting tile with the castle of your colour on it", 1),
        SheetItem(f"{plural(row.kings_per_player, 'king')} of your colour", row.kings_per_player),
        SheetItem(f"room for a {size}x{size} kingdom around your castle (it need not be central)"),
        SheetItem(f"{plural(row.dominoes_per_player, 'domino', 'dominoes')} to place over the game",
                  row.dominoes_per_player),
    ]
    area = [
        SheetItem("draw pile of the shuffled dominoes (the box can hold them)"),
        SheetItem(f"{plural(row.line_size, 'domino', 'dominoes')} per line: the line being placed "
                  "and the next line being claimed", row.line_size),
        SheetItem(rs.lines_text),
    ]
    flow = [
        SheetItem(f"{plural(row.rounds, 'round')}, one line drawn each; then one last round in which "
                  "players only place", row.rounds),
        SheetItem("each round, the king on the lowest-numbered domino acts first: place that domino, "
                  "then claim one in the next line"),
    ]
    if row.leftover_per_line:
        flow.append(SheetItem(f"after the claims, discard the {plural(row.leftover_per_line, 'domino', 'dominoes')}"
                              " left unclaimed in each line", row.leftover_per_line))
    if rs.games_per_match > 1:
        flow.append(SheetItem(f"play {rs.games_per_match} games in a row; the highest total wins",
                              rs.games_per_match))
    for b in rs.bonuses.values():
        if b.active:
            flow.append(SheetItem(f"bonus {b.id}: +{b.points} points", b.points))
    sections = [
        SheetSection("take", "Take out of the box", tuple(take)),
        SheetSection("box", "Leave in the box", tuple(box)),
        SheetSection("each", "Each player", tuple(each)),
        SheetSection("area", "Play area", tuple(area)),
        SheetSection("first", "First claims", (SheetItem(rs.first_player_text),)),
        SheetSection("flow", "Rounds", tuple(flow)),
    ]
    rules = ["kd.setup.players", "kd.setup.lines", "kd.setup.first-claims", "kd.turn.order",
             "kd.turn.last-round", "kd.place.size", "kd.setup.three-player-leftover"]
    summary = (f"{row.dominoes_used} dominoes used, {row.dominoes_removed} returned to the box, "
               f"{row.line_size} per line, {row.rounds} rounds, {size}x{size} kingdoms")
    if row.leftover_per_line:
        summary += ", the unclaimed domino of each line discarded"
    return make_sheet(rs, summary, facts, sections, rules)
