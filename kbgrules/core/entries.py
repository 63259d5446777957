"""A reference entry: one topic that ``kbg explain`` answers and the offline site shows.

The core makes the entries of every game's rules, FAQ, components, editions and variants; a game's
engine adds the entries of its own tables (``reference_entries``: its cards, pieces, tiles...), so
the explain index and the site name no game.
"""

from __future__ import annotations

from typing import Any

from kbgrules.core.views import Grid

Picture = Grid  # an entry drawn as a small grid (a piece's squares)


class Entry:
    """One topic kbg can explain."""

    def __init__(self, id: str, game: str, kind: str, title: str, text: str,
                 sources: list[dict[str, Any]] | None = None, related: list[str] | None = None,
                 conflict: str | None = None, notes: list[str] | None = None, editions: list[str] | None = None,
                 translations: dict[str, str] | None = None, aliases: list[tuple[str, str]] | None = None,
                 variants: list[str] | None = None, title_translations: dict[str, str] | None = None,
                 number: int | None = None) -> None:
        self.id = id
        self.game = game
        self.kind = kind  # a core kind, or one its game's engine names (kbgrules.core.kinds)
        self.title = title
        self.text = text
        self.sources = sources or []
        self.related = related or []
        self.conflict = conflict
        self.notes = notes or []
        self.by_edition: dict[str, str] = {}  # edition -> its text, where it differs
        self.editions = editions or []  # editions the entry exists in (empty: all)
        self.translations = translations or {}
        self.title_translations = title_translations or {}  # the title (a FAQ entry's question) per language
        self.aliases: list[str] = []  # words players use, every language
        self.alias_langs: list[str] = []  # the language of each
        self.add_aliases(aliases or [])
        self.variants = variants or []  # variants the entry exists in (empty: the base game)
        self.number = number  # found by its number alone (a numbered piece's)

    def add_aliases(self, aliases: list[tuple[str, str]]) -> None:
        """Add words players use, each as (language, word)."""
        for lang, word in aliases:
            self.aliases.append(word)
            self.alias_langs.append(lang)

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "alias_langs" and not (k == "number" and v is None)}
