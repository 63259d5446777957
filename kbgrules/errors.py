"""Exceptions and diagnostics.

Every error kbgrules raises is a :class:`KbgError` with a stable ``code``.
Errors tied to a place in a file carry :class:`Diagnostic` objects whose
``str()`` is ``file:line:col: error CODE: message``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # this module is imported by every command: typing and dataclasses cost start-up time
    from collections.abc import Mapping, Sequence
    from typing import Any


class Diagnostic:
    """One message about one place in one file (line and column are 1-based); immutable, hashable."""

    __slots__ = ("code", "col", "file", "line", "message", "severity")
    file: str
    line: int
    col: int
    code: str
    message: str
    severity: str

    def __init__(self, file: str, line: int, col: int, code: str, message: str, severity: str = "error") -> None:
        for name, value in (("file", file), ("line", line), ("col", col), ("code", code), ("message", message),
                            ("severity", severity)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Diagnostic is immutable: cannot set {name}")

    def _key(self) -> tuple[str, int, int, str, str, str]:
        return (self.file, self.line, self.col, self.code, self.message, self.severity)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Diagnostic) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[type[Diagnostic], tuple[str, int, int, str, str, str]]:
        return (Diagnostic, self._key())  # pickled to and from worker processes (kbg check -j)

    def __repr__(self) -> str:
        return (f"Diagnostic(file={self.file!r}, line={self.line!r}, col={self.col!r}, code={self.code!r}, "
                f"message={self.message!r}, severity={self.severity!r})")

    def __str__(self) -> str:
        return shown(f"{self.file}:{self.line}:{self.col}: {self.severity} {self.code}: {self.message}")


def debug() -> bool:
    """``KBG_DEBUG=1``: let unexpected exceptions through, with their traceback, instead of one line."""
    import os

    return os.environ.get("KBG_DEBUG", "").lower() in ("1", "true", "yes")


def shown(text: str) -> str:
    """``text`` safe for a terminal, on one line: control and format characters (an escape sequence, a
    line break, a right-to-left override in a name or a file name) are written as ``\\x1b``, ``\\u202e``."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else
                   (f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}") for ch in text)


class KbgError(Exception):
    """Base class of every kbgrules error; ``code`` is stable and documented. An error that comes
    from a place in a file (a replayed log's line) has ``file``, ``line`` and ``col`` set, and its
    ``str()`` starts with ``file:line:col: ``."""

    code = "kbg-error"
    file: str | None = None
    line: int | None = None
    col: int | None = None

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        if self.file is not None:
            return shown(f"{self.file}:{self.line}:{self.col}: {self.message}")
        return shown(self.message)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled without its __init__, whose arguments differ by subclass: to and from worker processes
        return _unpickled_error, (type(self), self.args), self.__dict__

    def located(self, file: str, line: int, col: int) -> KbgError:
        """This error, tied to a place in a file; returns itself."""
        self.file, self.line, self.col = file, line, col
        return self

    def lines(self) -> list[str]:
        """The error as the CLI prints it: one line per problem."""
        return [f"error {self.code}: {self.message}"]


def _unpickled_error(cls: type[KbgError], args: tuple[Any, ...]) -> KbgError:
    return cls.__new__(cls, *args)  # its attributes follow (the pickle's state)


class DataError(KbgError):
    """Rule data (shipped or user-supplied) that cannot be used; holds every diagnostic found."""

    code = "data-error"

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        super().__init__(str(first) if first else "invalid rule data", code=first.code if first else None)

    def lines(self) -> list[str]:
        return [str(d) for d in self.diagnostics]


class UnsafeYamlError(DataError):
    """YAML refused before it is used: too large, binary, too deep, alias bombs, custom tags."""


def suggest(names: Sequence[str]) -> str:
    """``; did you mean 'a' or 'b'?`` for the close names found, nothing when there are none."""
    return "; did you mean " + " or ".join(repr(n) for n in names) + "?" if names else ""


class UnknownNameError(KbgError):
    """An unknown game, edition or variant; ``suggestions`` holds close names."""

    def __init__(self, kind: str, name: str, known: Sequence[str], suggestions: Sequence[str]) -> None:
        self.kind = kind
        self.name = name
        self.known = tuple(known)
        self.suggestions = tuple(suggestions)
        msg = f"unknown {kind} {name!r}"
        if self.suggestions:
            msg += suggest(self.suggestions)
        elif self.known:
            msg += "; known: " + ", ".join(self.known)
        super().__init__(msg, code=f"unknown-{kind}")


class PlayerCountError(KbgError):
    """A player count the game, or a chosen variant, does not allow."""

    code = "player-count"


class VariantConflictError(KbgError):
    """Two variants that cannot be combined, or a variant that needs another edition."""

    code = "variant-conflict"


class LogSyntaxError(KbgError):
    """A log line (or a move's text) that cannot be read; ``col`` is where on the line, 1-based."""

    col: int

    def __init__(self, message: str, col: int, code: str = "log-syntax") -> None:
        super().__init__(message, code=code)
        self.col = col

    def __str__(self) -> str:
        return shown(f"{self.file}:{self.line}:{self.col}: {self.message}" if self.file is not None else self.message)


class AmbiguousMoveError(KbgError):
    """A move's text that fits several legal moves; ``candidates`` holds their texts."""

    code = "ambiguous-move"

    def __init__(self, message: str, candidates: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.candidates = tuple(candidates)


class IllegalMoveError(KbgError):
    """A move the rules forbid; ``rule`` is the id of the rule it breaks, ``params`` fill the message."""

    def __init__(self, code: str, rule: str, message: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message, code=code)
        self.rule = rule
        self.params = dict(params or {})
