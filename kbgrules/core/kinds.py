"""The kinds of reference entries (``kbg explain``'s answers, the site's entries) and the role each plays.

The core makes the entries of any game's rule data, of the kinds :data:`CORE_KINDS`; a core kind's
role is the kind itself. A game's engine adds the entries of its own tables (``reference_entries``)
under kinds of its own naming, and declares the role of each (``reference_kinds``): a
:data:`NAMED_PIECE` or a :data:`PIECE`. ``kbg explain`` ranks entries and words its answers by
role, never by a game's kind names, so a new game's entries rank sensibly with no change there.

A piece's ``conflict`` text clarifies what is printed on it; a rule's or an FAQ entry's says where
the sources differ.

This module imports nothing: ``kbg explain`` reads it on every question.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

CORE_KINDS = ("rule", "faq", "component", "edition", "variant", "option")
NAMED_PIECE = "named-piece"  # a thing of the game with a name of its own: found by that name, typos and all
PIECE = "piece"  # a thing of the game known by its number or by common words
PIECE_ROLES = (NAMED_PIECE, PIECE)
ROLES = (*CORE_KINDS, *PIECE_ROLES)


def role(kind: str, declared: Mapping[str, str]) -> str:
    """The role of the entries of ``kind``: the kind itself for a core kind, else the role the game's
    engine declares for it (``declared``: its ``reference_kinds``), a plain piece when it declares none."""
    if kind in CORE_KINDS:
        return kind
    return declared.get(kind, PIECE)


def is_piece(role: str) -> bool:
    """Whether entries of this role are things of a game (added by its engine), not rules or FAQ entries."""
    return role in PIECE_ROLES
