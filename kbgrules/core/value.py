"""The ``__repr__``, ``__eq__`` and ``__hash__`` of the rule models' dataclasses, written once: dataclasses
generates (execs) each of them for every class, a cost every start pays (about 0.1 ms a method). A class
declares ``@dataclass(..., repr=False, eq=False)`` and derives from :class:`Value` (or :class:`FrozenValue`
when frozen): the methods behave as the generated ones (the fields' ``repr``, ``compare`` and ``hash``)."""

from __future__ import annotations

from _thread import get_ident

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_SPECS: dict[type, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}
_SHOWING: set[tuple[int, int]] = set()  # the reprs under way (a value inside itself is shown as ...)


def _spec(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The names of ``cls``'s fields that are compared, shown and hashed."""
    spec = _SPECS.get(cls)
    if spec is None:
        from dataclasses import fields

        fs = fields(cls)
        spec = _SPECS[cls] = (tuple(f.name for f in fs if f.compare), tuple(f.name for f in fs if f.repr),
                              tuple(f.name for f in fs if (f.compare if f.hash is None else f.hash)))
    return spec


class Value:
    """Shown and compared by its fields, as a dataclass with ``repr=True, eq=True``; unhashable unless frozen."""

    __slots__ = ()

    def __repr__(self) -> str:
        key = (id(self), get_ident())
        if key in _SHOWING:
            return "..."
        _SHOWING.add(key)
        try:
            shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in _spec(self.__class__)[1])
        finally:
            _SHOWING.discard(key)
        return f"{self.__class__.__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        names = _spec(self.__class__)[0]
        return _values(self, names) == _values(other, names)
    # (a class that defines __eq__ alone is unhashable: as a dataclass that is not frozen)


class FrozenValue(Value):
    """A :class:`Value` hashed by its fields, as a frozen dataclass with ``eq=True``."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(_values(self, _spec(self.__class__)[2]))


def _values(obj: Any, names: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple([getattr(obj, n) for n in names])
