"""King of Tokyo's own pages in ``kbg rules``: the power cards, the Dark Edition's wickedness tiles, the
Power Up! evolutions, one card by its id or name, the setup table per player count."""

from __future__ import annotations

from collections.abc import Sequence

from kbgrules.core.datafiles import normalize
from kbgrules.core.reference import Page, Topic, ruleset_title, sources_json
from kbgrules.core.views import Column, Table, Text
from kbgrules.errors import KbgError
from kbgrules.king_of_tokyo.model import Card, KingOfTokyoRuleset
from kbgrules.king_of_tokyo.parse import slug
from kbgrules.king_of_tokyo.result import PLACES

TOPICS = (Topic("cards"), Topic("tiles", ("wickedness-tiles",)), Topic("evolutions"))


def _table(columns: list[str], numeric: set[int], rows: Sequence[tuple[object, ...]]) -> Table:
    return Table(None, tuple(Column(c, i in numeric) for i, c in enumerate(columns)), tuple(rows))


def page(rs: KingOfTokyoRuleset, topic: str) -> Page:
    """The page of one of :data:`TOPICS` or of ``setup``; KbgError where ``rs`` has none of them."""
    title = ruleset_title(rs)
    if topic == "cards":
        n = len(rs.cards)
        return Page(f"Power cards - {title}: {rs.deck_size} card{'s' * (rs.deck_size != 1)}, "
                    f"{n} title{'s' * (n != 1)}",
                    (_table(["cost", "type", "card", "effect"], {0},
                            [(c.cost, c.type, c.name + (f" (x{c.copies})" if c.copies > 1 else ""), c.effect)
                             for c in rs.cards]),),
                    {"cards": [{"id": c.id, "name": c.name, "cost": c.cost, "type": c.type, "copies": c.copies,
                                "effect": c.effect, "clarification": c.clarification} for c in rs.cards]})
    if topic == "tiles":
        if not rs.tiles:
            raise KbgError(f"{title} has no wickedness tiles (they are in the Dark Edition: --edition dark)",
                           code="unknown-topic")
        tiles = sorted(rs.tiles, key=lambda x: (x.level, x.side != "red", x.id))
        return Page(f"Wickedness tiles - {title}: {len(rs.tiles)} sides",
                    (_table(["level", "side", "tile", "effect"], {0},
                            [(t.level, t.side + (" (discard)" if t.type == "discard" else ""), t.name, t.effect)
                             for t in tiles]),),
                    {"tiles": [{"id": t.id, "name": t.name, "level": t.level, "side": t.side, "back": t.back or None,
                                "type": t.type, "effect": t.effect, "clarification": t.clarification}
                               for t in rs.tiles]})
    if topic == "evolutions":
        if not rs.evolutions:
            why = ("no evolutions are loaded for this edition (give yours with --rules DIR)" if rs.evolution
                   else "evolutions are not in play (add --variant power-up)")
            raise KbgError(f"{title}: {why}", code="unknown-topic")
        return Page(f"Evolution cards - {title}: {sum(c.copies for c in rs.evolutions)} cards",
                    (_table(["monster", "type", "evolution", "effect"], set(),
                            [(_monster_name(rs, c.monster), c.type, c.name, c.effect) for c in rs.evolutions]),),
                    {"evolutions": [{"id": c.id, "name": c.name, "monster": c.monster, "type": c.type,
                                     "copies": c.copies, "effect": c.effect, "clarification": c.clarification}
                                    for c in rs.evolutions]})
    if topic == "setup":
        rows = [(r.players, list(r.tokyo_spaces), list(r.optional_tokyo_spaces)) for r in rs.setup_table.values()]
        keys = ["players", "tokyo_spaces", "optional_tokyo_spaces"]
        return Page(f"Setup per player count - {title}",
                    (_table(["players", "Tokyo spaces", "optional spaces"], {0},
                            [(n, _places(spaces), _places(optional)) for n, spaces, optional in rows]),),
                    {"setup": [dict(zip(keys, r, strict=True)) for r in rows]})
    raise KbgError(f"{rs.game.name} has no table {topic!r}", code="unknown-topic")


def _places(places: list[str]) -> str:
    return ", ".join(PLACES.get(p, p) for p in places)


def _monster_name(rs: KingOfTokyoRuleset, monster: str) -> str:
    """A monster's name from the id its evolutions give (``the-king``: The King)."""
    names = {slug(m): m for m in rs.monsters}
    return names.get(monster, monster.replace("-", " ").title())


def item(rs: KingOfTokyoRuleset, key: str) -> Page | None:
    """A power card by its id or its name in the edition loaded."""
    card = next((c for c in rs.cards if key in (c.id, normalize(c.name))), None)
    return None if card is None else _card(card)


def _card(card: Card) -> Page:
    copies = f", {card.copies} copies in the deck" if card.copies > 1 else ""
    return Page(f"{card.name}: {card.type} card, cost {card.cost}{copies}", (Text(card.effect),),
                {"card": {"id": card.id, "name": card.name, "cost": card.cost, "type": card.type,
                          "copies": card.copies, "effect": card.effect, "clarification": card.clarification,
                          "sources": sources_json(card.sources)}},
                note="Clarification: " + card.clarification if card.clarification else None,
                sources=card.sources)
