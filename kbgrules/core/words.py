"""Counted nouns in the sentences kbg writes: ``1 die``, ``2 dice``.

Rule data writes a count in a message template as ``{name:one|many}`` (``{got:die|dice}``), which
:func:`fill` turns into the number and the noun that agrees with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

TYPE_CHECKING = False
if TYPE_CHECKING:
    import string


def plural(n: int, word: str, many: str | None = None) -> str:
    """``word`` as it goes with the number ``n``: itself for 1, else ``many`` (default: ``word`` + s)."""
    return word if n == 1 else (many or word + "s")


def counted(n: int, word: str, many: str | None = None) -> str:
    """The number and the noun that agrees with it: ``counted(1, "die", "dice")`` is ``1 die``."""
    return f"{n} {plural(n, word, many)}"


@cache
def _formatter() -> string.Formatter:
    """Made on first use: importing :mod:`string` compiles its Template pattern (a cost on every start)."""
    import string

    class Formatter(string.Formatter):
        def format_field(self, value: Any, format_spec: str) -> str:
            if "|" in format_spec and isinstance(value, int):
                one, many = format_spec.split("|", 1)
                return counted(value, one, many)
            return str(super().format_field(value, format_spec))

    return Formatter()


def fill(template: str, params: Mapping[str, Any]) -> str:
    """``template.format(**params)``, where a field ``{name:one|many}`` writes its count with the noun
    that agrees:

    >>> fill("{n:die|dice} re-rolled, {m:new face|new faces} given", {"n": 1, "m": 2})
    '1 die re-rolled, 2 new faces given'
    """
    return _formatter().vformat(template, (), params)
