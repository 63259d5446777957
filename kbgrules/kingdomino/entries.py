"""Kingdomino's own tables as reference entries for ``kbg explain`` and the site: the 48 dominoes
(found by their number too: ``kbg explain 37``) and the six terrains."""

from __future__ import annotations

from collections.abc import Sequence

from kbgrules.core.entries import Entry, Picture
from kbgrules.core.kinds import PIECE
from kbgrules.core.model import OverlayInfo, Ruleset
from kbgrules.kingdomino.model import KingdominoRuleset

PAGES = (("dominoes", "Dominoes", ("domino",)), ("components", "Components", ("component", "terrain")))
KINDS = {"domino": PIECE, "terrain": PIECE}  # found by a number and by common words, not by a name
NUMBER_WORDS = ("domino", "tile")  # "domino 37", "tile 37", "#37", "37": the entry of domino 37


def reference_entries(prefix: str, editions: Sequence[tuple[OverlayInfo, Ruleset]],
                      variants: Sequence[tuple[OverlayInfo, Ruleset]]) -> list[Entry]:
    """A domino's halves and a terrain's squares and crowns, from the base edition's dominoes."""
    base = editions[0][1]
    assert isinstance(base, KingdominoRuleset)
    game = base.game.id
    out = []
    tnames = {t.id: t.name for t in base.terrains}
    for dom in base.dominoes:
        halves = [f"{tnames[h.terrain]}" + (f" with {h.crowns} crown{'s' * (h.crowns > 1)}" if h.crowns else "")
                  for h in dom.halves]
        out.append(Entry(f"{prefix}.domino.{dom.number}", game, "domino", f"Domino {dom.number}",
                         f"Domino {dom.number}: first half {halves[0]}, second half {halves[1]}.",
                         [{"doc": "BGA", "section": "material.inc.php", "edition": None}],
                         [f"{prefix}.components.numbers"], number=dom.number))
    for t in base.terrains:
        squares = sum(1 for dom in base.dominoes for h in dom.halves if h.terrain == t.id)
        crowns = sum(h.crowns for dom in base.dominoes for h in dom.halves if h.terrain == t.id)
        out.append(Entry(f"{prefix}.terrain.{t.id}", game, "terrain", t.name.capitalize(),
                         f"{t.name.capitalize()} (letter {t.letter} in grids): {squares} squares and {crowns} "
                         f"crowns among the {len(base.dominoes)} dominoes.",
                         [{"doc": "R1", "section": "Components", "edition": None}],
                         [f"{prefix}.components.terrains", f"{prefix}.score.property"],
                         aliases=[("en", a) for a in (t.letter.lower(), *t.aliases)]))
    return out


def reference_pictures(rs: Ruleset) -> dict[str, Picture]:
    """Each domino as its two squares, in the colours of its terrains."""
    assert isinstance(rs, KingdominoRuleset)
    palette = tuple((t.letter, t.colour or "#cccccc") for t in rs.terrains)
    names = tuple((t.letter, t.name) for t in rs.terrains)
    letter = {t.id: t.letter for t in rs.terrains}
    return {f"{rs.game.short}.domino.{d.number}":
            Picture(f"Domino {d.number}",
                    (" ".join(f"{letter[h.terrain]}{h.crowns or ''}" for h in (d.first, d.second)),),
                    palette, names, mark="♛")
            for d in rs.dominoes}
