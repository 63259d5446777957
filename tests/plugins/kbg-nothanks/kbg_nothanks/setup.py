"""The No Thanks! setup sheet (``kbg setup nothanks``): the numbers of the ruleset, arranged."""

from __future__ import annotations

from typing import Any

from kbg_nothanks.model import NoThanksRuleset
from kbgrules.core.reference import Page, ruleset_title
from kbgrules.core.setup import SetupSheet, SheetItem, SheetSection, component_count, make_sheet, plural
from kbgrules.core.views import Column, Table


def setup_sheet(rs: NoThanksRuleset) -> SetupSheet:
    """The setup sheet of a ruleset loaded with a player count."""
    p = rs.players or 0
    chips = rs.setup.chips
    box_chips = component_count(rs, "chip")
    cards, deck = len(rs.card_numbers), rs.deck_size
    always = ", ".join(map(str, rs.always_removed))
    facts: dict[str, Any] = {
        "cards": cards, "lowest": rs.lowest, "highest": rs.highest, "removed": rs.removed,
        "always_removed": list(rs.always_removed), "deck_size": deck, "chips_per_player": chips,
        "chips_in_play": chips * p, "chips_in_box": max(0, box_chips - chips * p),
    }
    take = [SheetItem(f"cards numbered {rs.lowest} to {rs.highest}, shuffled face down", cards),
            SheetItem(plural(chips * p, "chip"), chips * p)]
    unseen = f"{plural(rs.removed, 'card')}, put back unseen: nobody may look at them"
    if rs.always_removed:
        unseen = f"{plural(rs.removed, 'card')}: the {always}, then {rs.removed - len(rs.always_removed)} more " \
                 "drawn at random, put back unseen"
    box = [SheetItem(unseen, rs.removed)]
    if box_chips > chips * p:
        box.append(SheetItem(plural(box_chips - chips * p, "chip"), box_chips - chips * p))
    each = [SheetItem(f"{plural(chips, 'chip')}, kept in your hand", chips)]
    area = [SheetItem("cards in a face-down pile", deck),
            SheetItem("the first player turns its top card face up in the middle of the table")]
    flow = [SheetItem("on your turn: take the face-up card with every chip on it, or pay a chip onto it"),
            SheetItem("whoever takes a card turns the next one and decides on it first"),
            SheetItem(f"the game ends when the last of the {deck} cards is taken", deck),
            SheetItem("score: each run of consecutive cards counts its lowest card, each chip one point "
                      "off; the lowest score wins")]
    sections = [
        SheetSection("take", "Take out of the box", tuple(take)),
        SheetSection("box", "Leave in the box", tuple(box)),
        SheetSection("each", "Each player", tuple(each)),
        SheetSection("area", "Play area", tuple(area)),
        SheetSection("flow", "Turns", tuple(flow)),
    ]
    rules = ["nt.setup.chips", "nt.setup.removed", "nt.setup.first-card", "nt.turn.actions", "nt.turn.after-take",
             "nt.score.runs", "nt.end.winner"]
    summary = f"{deck} of the {cards} cards played ({rs.removed} removed unseen), {chips} {plural(chips, 'chip')} each"
    return make_sheet(rs, summary, facts, sections, rules)


def setup_table(rs: NoThanksRuleset) -> Page:
    """The chips per player count (``kbg rules nothanks setup``): each player's, all in play, left in the
    box; only the counts the variants in play allow."""
    box = component_count(rs, "chip")
    counts = [n for n in rs.setup_table if all(not v.players or n in v.players for v in rs.variants)]
    rows = tuple((n, rs.setup_table[n].chips, rs.setup_table[n].chips * n, max(0, box - rs.setup_table[n].chips * n))
                 for n in counts)
    keys = ("players", "chips_per_player", "chips_in_play", "chips_in_box")
    return Page(f"Setup per player count - {ruleset_title(rs)}",
                (Table(None, tuple(Column(k.replace("_", " "), True) for k in keys), rows),),
                {"setup": [dict(zip(keys, r, strict=True)) for r in rows]},
                sources=tuple(dict.fromkeys(s for n in counts for s in rs.setup_table[n].sources)))
