"""Checks of a public function's arguments at the library's boundary: a wrong type is a ``TypeError``
that names the parameter, before any work (not an ``AttributeError`` from deep inside)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any


def folders(value: Any, name: str = "rules_dirs", what: str = "folder") -> tuple[str, ...]:
    """A folder, or an iterable of folders (str or os.PathLike), as a tuple of paths; a single string
    is one folder, not a sequence of one-letter names (``what``: the word the errors use)."""
    if isinstance(value, (str, os.PathLike)):
        return (os.fspath(value),)
    if not isinstance(value, Iterable):
        raise TypeError(f"{name} must be a {what} or a list of {what}s, not {type(value).__name__}")
    out = tuple(value)
    for d in out:
        if not isinstance(d, (str, os.PathLike)):
            raise TypeError(f"{name} must hold {what} paths (str or os.PathLike), not {type(d).__name__}")
    return tuple(os.fspath(d) for d in out)


def flag(value: Any, name: str) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, not {type(value).__name__}")


def of_type(value: Any, kind: type, name: str, what: str) -> None:
    """``value`` is a ``kind`` (``what``: how the error names it, e.g. "a Ruleset (from kbgrules.load)")."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be {what}, not {type(value).__name__}")


def text(value: Any, name: str, optional: bool = False) -> None:
    if not isinstance(value, str) and not (optional and value is None):
        raise TypeError(f"{name} must be a str{' or None' if optional else ''}, not {type(value).__name__}")


def names(value: Any, name: str) -> tuple[str, ...]:
    """A name or a sequence of names (strings)."""
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, Iterable):
        raise TypeError(f"{name} must be a str or a list of str, not {type(value).__name__}")
    out = tuple(value)
    for v in out:
        text(v, f"each of {name}")
    return out


def count(value: Any, name: str, optional: bool = False) -> None:
    if (value is None and optional) or (isinstance(value, int) and not isinstance(value, bool)):
        return
    raise TypeError(f"{name} must be an int{' or None' if optional else ''}, not {type(value).__name__}")


def data(value: Any, name: str) -> None:
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(f"{name} must be bytes, not {type(value).__name__}")


def path(value: Any, name: str = "path") -> str:
    """A file path (str or os.PathLike), as a str."""
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a str or os.PathLike, not {type(value).__name__}")
    return os.fspath(value)


def random_source(value: Any, name: str = "rng") -> None:
    """A ``random.Random`` (or a subclass), where chance is drawn."""
    import random

    if not isinstance(value, random.Random):
        raise TypeError(f"{name} must be a random.Random, not {type(value).__name__}")


def move(value: Any, kinds: tuple[type, ...], name: str = "move") -> None:
    """A move of one game: one of its move types (``kinds``), as legal_moves and parse_move give them."""
    if not isinstance(value, kinds):
        raise TypeError(f"{name} must be a move (from legal_moves() or parse_move()), not {type(value).__name__}")


def cell(value: Any, name: str, named: bool = True) -> None:
    """A cell: a tuple of two ints (offsets from the castle), or with ``named`` a name (``e5``)."""
    if (named and isinstance(value, str)) or (
            type(value) is tuple and len(value) == 2 and all(type(v) is int for v in value)):
        return
    kinds = "a cell name (str) or a tuple of two ints" if named else "a tuple of two ints"
    raise TypeError(f"{name} must be {kinds}, not {type(value).__name__}")


def timeline(value: Any, name: str = "timeline") -> None:
    """A game's timeline: a list of snapshots (dicts), as ``GameReport.show_timeline()`` gives it."""
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise TypeError(f"{name} must be a list of snapshots (dicts, from show_timeline()), not {type(value).__name__}")
