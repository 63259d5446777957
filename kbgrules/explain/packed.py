"""How the explain index stores its big tables: the format version, and mappings of strings packed into one
sorted text (:class:`Packed`), read a few keys at a time."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

INDEX_VERSION = 8  # of rules_data/explain-index.json; a shipped index of another version is rebuilt


class Packed:
    """A read-only mapping of strings stored as one text, ``"\nkey\tvalue\n..."``: the index's big
    tables (postings, phrases, glossary words) are looked up for a few keys per question, which
    costs less than decoding a JSON object of thousands of keys at start-up."""

    __slots__ = ("_text",)

    def __init__(self, text: str) -> None:
        self._text = text

    @staticmethod
    def pack(mapping: Mapping[str, str]) -> str:
        return "\n" + "".join(f"{k}\t{v}\n" for k, v in sorted(mapping.items()))

    def _find(self, key: str) -> int:
        """Where ``key``'s value starts, or -1: a binary search over the lines, which ``pack`` sorted
        (a scan of the text cost half of a question's time: ~185 lookups in up to 355 KB)."""
        text = self._text
        lo, hi = 1, len(text)  # whole lines: text[lo - 1] and text[hi - 1] are line ends
        while lo < hi:
            start = text.rfind("\n", lo - 1, (lo + hi) // 2) + 1
            tab = text.find("\t", start)
            found = text[start:tab]
            if found == key:
                return tab + 1
            if found < key:
                lo = text.index("\n", tab) + 1
            else:
                hi = start
        return -1

    def get(self, key: str, default: str | None = None) -> str | None:
        i = self._find(key)
        return default if i < 0 else self._text[i:self._text.index("\n", i)]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._find(key) >= 0

    def __getitem__(self, key: str) -> str:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def items(self) -> Iterable[tuple[str, str]]:
        for line in self._text.split("\n"):
            if line:
                k, _, v = line.partition("\t")
                yield k, v

    def __iter__(self) -> Iterable[str]:
        return (k for k, _ in self.items())

    def __len__(self) -> int:
        return self._text.count("\n") - 1


def table(value: Any) -> Any:
    """A stored table: a packed text becomes a :class:`Packed` view; a dict stays as it is."""
    return Packed(value) if isinstance(value, str) else value


def listed(value: Any) -> list[str]:
    """A table's value as a list (packed values are space-separated)."""
    if value is None:
        return []
    return value.split() if isinstance(value, str) else list(value)
