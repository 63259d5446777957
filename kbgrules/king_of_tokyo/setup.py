"""The King of Tokyo setup sheet (``kbg setup king-of-tokyo``): the numbers of the ruleset, arranged."""

from __future__ import annotations

from typing import Any

from kbgrules.core.setup import SetupSheet, SheetItem, SheetSection, component_count, make_sheet, plural
from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset


def _reward_text(amount: int, resource: str) -> str:
    return f"+{amount} {'VP' if resource == 'vp' else 'energy'}"


def setup_sheet(rs: KingOfTokyoRuleset) -> SetupSheet:
    """The King of Tokyo setup sheet of a ruleset loaded with a player count."""
    row = rs.setup
    p = rs.players or 0
    monsters = component_count(rs, "monster-board") or len(rs.monsters)
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
    boxed = component_count(rs, "power-card")
    facts["dice_names"] = {"standard": plain, "extra": extra}
    cards = (SheetItem(f"power cards, shuffled into a deck; reveal {rs.market_size} face up as the market",
                       rs.deck_size) if rs.deck_size else
             SheetItem(f"power cards (the box has {boxed}): kbg has none for this edition; give yours with "
                       "--rules DIR", 0))
    take = [
        SheetItem("Tokyo board", 1),
        SheetItem(f"{plural(p, 'monster board')} and figures, one per player", p),
        SheetItem(f"{plain.replace('die', 'dice')} in the middle; the {rs.extra_dice} "
                  f"{extra.replace('die', 'dice')} stay aside until a card grants them", rs.standard_dice),
        cards,
        SheetItem(f"{energy}s as a shared pool"),
        *(SheetItem(f"{plural(c.count or 0, c.name)} near the board", c.count) for c in tokens),
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
    box = [SheetItem(f"{plural(monsters - p, 'monster board')} and {plural(monsters - p, 'figure')}",
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
                              + plural(ev.draw, "evolution") + (f", keep {ev.keep}" if ev.draw > ev.keep else "")))
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
    return make_sheet(rs, summary, facts, sections, rules)
