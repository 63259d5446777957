"""Setup sheets: what to take out of the box, what stays in it, what each player gets, how play starts.

Every number comes from the ruleset; this module only arranges them for people and tools.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kbgrules.model import KingdominoRuleset, KingOfTokyoRuleset, Ruleset


@dataclass(frozen=True, slots=True)
class SheetItem:
    """One line of a setup sheet: a count (or None) and what it counts."""

    text: str
    count: int | None = None

    def __str__(self) -> str:
        return f"{self.count} {self.text}" if self.count is not None else self.text


@dataclass(frozen=True, slots=True)
class SheetSection:
    id: str
    title: str
    items: tuple[SheetItem, ...]


@dataclass(frozen=True, slots=True)
class SetupSheet:
    game: str
    game_name: str
    edition: str
    edition_title: str
    variants: tuple[str, ...]
    players: int
    summary: str
    facts: dict[str, Any]
    sections: tuple[SheetSection, ...]
    rules: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "kbg_json": 1,
            "game": self.game,
            "edition": self.edition,
            "variants": list(self.variants),
            "players": self.players,
            "summary": self.summary,
            "facts": self.facts,
            "sections": [
                {"id": s.id, "title": s.title,
                 "items": [{"count": i.count, "text": i.text} for i in s.items]}
                for s in self.sections
            ],
            "rules": list(self.rules),
        }


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return word if n == 1 else (plural or word + "s")


def _component_count(rs: Ruleset, cid: str) -> int:
    for c in rs.components:
        if c.id == cid and c.count is not None:
            return c.count
    return 0


def _sheet(rs: Ruleset, summary: str, facts: dict[str, Any], sections: list[SheetSection],
           rules: list[str]) -> SetupSheet:
    assert rs.players is not None
    sections.append(SheetSection("variants", "Variants in play", tuple(
        SheetItem(f"{v.title}: {v.summary}") for v in rs.variants) or (SheetItem("none"),)))
    return SetupSheet(
        game=rs.game.id, game_name=rs.game.name, edition=rs.edition.id, edition_title=rs.edition.title,
        variants=tuple(v.id for v in rs.variants), players=rs.players, summary=summary, facts=facts,
        sections=tuple(sections),
        rules=tuple(r for r in rules if r in rs.rules),
    )


def kingdomino_sheet(rs: KingdominoRuleset) -> SetupSheet:
    row = rs.setup
    p = rs.players or 0
    kings_total = _component_count(rs, "king")
    castles = _component_count(rs, "castle")
    tiles = _component_count(rs, "starting-tile")
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
        SheetItem(f"{_plural(row.dominoes_used, 'domino', 'dominoes')}, shuffled number side up", row.dominoes_used),
        SheetItem(_plural(p, "castle"), p),
        SheetItem(_plural(p, "starting tile"), p),
        SheetItem(f"{_plural(row.kings_in_play, 'king')} ({row.kings_per_player} per player)", row.kings_in_play),
    ]
    box = []
    if row.dominoes_removed:
        box.append(SheetItem(f"{_plural(row.dominoes_removed, 'domino', 'dominoes')}, drawn at random and "
                             "returned unseen", row.dominoes_removed))
    box += [
        SheetItem(_plural(n, word), n)
        for n, word in ((kings_total - row.kings_in_play, "king"), (castles - p, "castle"),
                        (tiles - p, "starting tile"))
        if n
    ]
    each = [
        SheetItem("starting tile with the castle of your colour on it", 1),
        SheetItem(f"{_plural(row.kings_per_player, 'king')} of your colour", row.kings_per_player),
        SheetItem(f"room for a {size}x{size} kingdom around your castle (it need not be central)"),
        SheetItem(f"{_plural(row.dominoes_per_player, 'domino', 'dominoes')} to place over the game",
                  row.dominoes_per_player),
    ]
    area = [
        SheetItem("draw pile of the shuffled dominoes (the box can hold them)"),
        SheetItem(f"{_plural(row.line_size, 'domino', 'dominoes')} per line: the line being placed "
                  "and the next line being claimed", row.line_size),
        SheetItem(rs.lines_text),
    ]
    flow = [
        SheetItem(f"{_plural(row.rounds, 'round')}, one line drawn each; then one last round in which "
                  "players only place", row.rounds),
        SheetItem("each round, the king on the lowest-numbered domino acts first: place that domino, "
                  "then claim one in the next line"),
    ]
    if row.leftover_per_line:
        flow.append(SheetItem(f"after the claims, discard the {_plural(row.leftover_per_line, 'domino', 'dominoes')}"
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
    return _sheet(rs, summary, facts, sections, rules)


def _reward_text(amount: int, resource: str) -> str:
    return f"+{amount} {'VP' if resource == 'vp' else 'energy'}"


def king_of_tokyo_sheet(rs: KingOfTokyoRuleset) -> SetupSheet:
    row = rs.setup
    p = rs.players or 0
    monsters = _component_count(rs, "monster-board") or len(rs.monsters)
    facts: dict[str, Any] = {
        "tokyo_spaces": list(row.tokyo_spaces),
        "optional_tokyo_spaces": list(row.optional_tokyo_spaces),
        "start_life": rs.start_life,
        "start_vp": rs.start_vp,
        "start_energy": rs.start_energy,
        "max_life": rs.max_life,
        "vp_goal": rs.vp_goal,
        "market_size": rs.market_size,
        "standard_dice": rs.standard_dice,
        "extra_dice": rs.extra_dice,
        "deck_size": rs.deck_size,
        "monsters_in_box": monsters - p,
        "enter_reward": {"resource": rs.enter_reward.resource, "amount": rs.enter_reward.amount},
        "start_turn_reward": {"resource": rs.start_turn_reward.resource, "amount": rs.start_turn_reward.amount},
        "phases": list(rs.phases),
    }
    tokens = [c for c in rs.components if c.id.endswith("-token") and c.id not in ("position-token", "monster-token")]
    dice = [c for c in rs.components if c.id.endswith("-die")]
    plain = next((c.name for c in dice if c.count == rs.standard_dice), "black die").split(" (")[0]
    extra = next((c.name for c in dice if c.count == rs.extra_dice), "green die").split(" (")[0]
    energy = next((c.name for c in rs.components if c.id.startswith("energy-")), "energy cube")
    boxed = _component_count(rs, "power-card")
    facts["dice_names"] = {"standard": plain, "extra": extra}
    cards = (SheetItem(f"power cards, shuffled into a deck; reveal {rs.market_size} face up as the market",
                       rs.deck_size) if rs.deck_size else
             SheetItem(f"power cards (the box has {boxed}): kbg has none for this edition; give yours with "
                       "--rules DIR", 0))
    take = [
        SheetItem("Tokyo board", 1),
        SheetItem(f"{_plural(p, 'monster board')} and figures, one per player", p),
        SheetItem(f"{plain.replace('die', 'dice')} in the middle; the {rs.extra_dice} "
                  f"{extra.replace('die', 'dice')} stay aside until a card grants them", rs.standard_dice),
        cards,
        SheetItem(f"{energy}s as a shared pool"),
        *(SheetItem(f"{_plural(c.count or 0, c.name)} near the board", c.count) for c in tokens),
    ]
    w = rs.wickedness
    if w is not None:
        per_level = ", ".join(f"{n} of level {lv}" for lv, n in w.supply.items())
        take.append(SheetItem(f"wickedness tiles beside the gauge, {w.default_side} side up unless you agree "
                              f"otherwise ({per_level})", sum(w.supply.values())))
        take.append(SheetItem("wickedness counters, one per player, at 0 on the gauge", p))
        facts["wickedness"] = {"thresholds": list(w.thresholds), "max": w.max, "tiles": dict(w.supply),
                               "sides": list(w.sides), "default_side": w.default_side}
    ev = rs.evolution
    if ev is not None:
        start = (f"; everyone starts with {ev.start_keep} (draw {ev.start_draw}, keep {ev.start_keep})"
                 if ev.start_draw else "")
        how = "8 cards of evolutions drafted from all decks" if ev.draft else "its own monster's evolution cards"
        take.append(SheetItem(f"each player shuffles {how} face down{start}", p))
        facts["evolution"] = {"hearts": ev.hearts, "draw": ev.draw, "keep": ev.keep, "others": ev.others,
                              "start_draw": ev.start_draw, "draft": ev.draft}
    box = [SheetItem(f"{_plural(monsters - p, 'monster board')} and {_plural(monsters - p, 'figure')}",
                     monsters - p)] if monsters > p else [SheetItem("nothing: every monster is in play")]
    each = [
        SheetItem("life points (dial)", rs.start_life),
        SheetItem("victory points (dial)", rs.start_vp),
        SheetItem("energy", rs.start_energy),
        SheetItem("nobody starts in Tokyo"),
    ]
    spaces = {"city": "Tokyo City", "bay": "Tokyo Bay"}
    area = [SheetItem(f"{spaces[s]}: in use") for s in row.tokyo_spaces]
    area += [SheetItem(f"{spaces[s]}: optional (advanced rule)") for s in row.optional_tokyo_spaces]
    area += [SheetItem(f"{spaces[s]}: not used with {p} players")
             for s in rs.tokyo_spaces if s not in row.tokyo_spaces and s not in row.optional_tokyo_spaces]
    flow = [
        SheetItem("phases: " + ", ".join(rs.phases)),
        SheetItem(f"up to {rs.rolls} rolls each turn", rs.rolls),
        SheetItem(f"Tokyo: {_reward_text(rs.enter_reward.amount, rs.enter_reward.resource)} on entering, "
                  f"{_reward_text(rs.start_turn_reward.amount, rs.start_turn_reward.resource)} "
                  "at the start of your turn there"),
        SheetItem(f"win at {rs.vp_goal} VP or as the last monster standing", rs.vp_goal),
    ]
    if w is not None:
        flow.append(SheetItem(f"wickedness: 1-1-1 gives {w.gains.get('1', 0)}, 2-2-2 gives {w.gains.get('2', 0)}; "
                              f"a tile at {', '.join(map(str, w.thresholds))}"))
    if ev is not None:
        flow.append(SheetItem(f"{ev.hearts} or more hearts at the end of the roll: draw {ev.draw} "
                              + _plural(ev.draw, "evolution") + (f", keep {ev.keep}" if ev.draw > ev.keep else "")))
    if rs.dice_tokens_per_turn:
        flow.append(SheetItem(f"spend up to {rs.dice_tokens_per_turn} dice tokens before the first roll for "
                              f"extra dice (never more than {rs.max_dice} dice)", rs.dice_tokens_per_turn))
    if rs.buy_fallback_energy:
        flow.append(SheetItem(f"buy cards, or take {rs.buy_fallback_energy} energy if you buy none"))
    sections = [
        SheetSection("take", "Take out of the box", tuple(take)),
        SheetSection("box", "Leave in the box", tuple(box)),
        SheetSection("each", "Each player", tuple(each)),
        SheetSection("area", "Board", tuple(area)),
        SheetSection("first", "First player", (SheetItem(rs.first_player_text),)),
        SheetSection("flow", "Turns", tuple(flow)),
    ]
    rules = ["kot.setup.start", "kot.setup.market", "kot.setup.dice", "kot.setup.tokyo-spaces",
             "kot.setup.first-player", "kot.turn.phases", "kot.tokyo.rewards"]
    if p == 2:
        rules.append("kot.variant.two-player")
    rules += [r for r in ("kot.dark.wickedness", "kot.dark.tiles", "kot.evolution.decks", "kot.evolution.draw",
                          "kot.godzilla.dice-tokens", "kot.godzilla.buy-or-energy") if r in rs.rules and (
        (r.startswith("kot.dark") and w is not None) or (r.startswith("kot.evolution") and ev is not None)
        or (r.startswith("kot.godzilla") and rs.dice_tokens_per_turn))]
    summary = (f"{' and '.join(spaces[s] for s in row.tokyo_spaces)}; each monster starts with "
               f"{rs.start_life} life, {rs.start_vp} VP, {rs.start_energy} energy; a market of "
               f"{rs.market_size} cards; {rs.standard_dice} {plain.replace('die', 'dice')}")
    return _sheet(rs, summary, facts, sections, rules)


def setup_sheet(rs: Ruleset) -> SetupSheet:
    """The setup sheet of a ruleset loaded with a player count."""
    if isinstance(rs, KingdominoRuleset):
        return kingdomino_sheet(rs)
    if isinstance(rs, KingOfTokyoRuleset):
        return king_of_tokyo_sheet(rs)
    raise TypeError(f"no setup sheet for {type(rs).__name__}")
