"""Reading game logs: header tags, then one event per line, actor first (see docs/log-format.md).

This module knows the shape of a log, not the rules of any game: it splits a file into games,
header tags and event lines with their positions. Indented lines after an event form its block
(a grid, for example).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final

from kbgrules.core.compiled import mypyc_attr
from kbgrules.errors import Diagnostic, LogSyntaxError

__all__ = ["Event", "GameText", "Header", "LogSyntaxError", "PlayerNames", "Token", "decode", "iter_games",
           "log_files", "read_input", "split_games", "tokens"]

MAX_LOG_BYTES = 16 * 1024 * 1024
FORMAT_VERSION = "1"
MAX_DIGITS = 9  # no number of a rule needs more; a longer one is refused before any int() of it
_DIGIT_RUN = re.compile(r"[0-9]{10}").search
_ODD_BLANK = re.compile(r"[^\S \t\n\r]").search  # white space other than a space, a tab or a line end
_WORDS = re.compile(r"[^ \t]+").findall


def lines(text: str) -> list[str]:
    """The lines of ``text``: only LF, CRLF and CR end a line (``str.splitlines`` also splits at form
    feeds, U+0085, U+2028... which may stand inside a comment or a name)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    return out


def line_count(text: str) -> int:
    """How many lines ``lines(text)`` gives, counted without making them (LF, CRLF and CR end a line)."""
    ends = text.count("\n") + text.count("\r") - text.count("\r\n")
    return ends + (not text.endswith(("\n", "\r")) if text else 0)


def iter_lines(text: str) -> Iterator[str]:
    """``lines(text)`` one at a time: a log's lines are never all held at once (for a 16 MiB log of
    short lines, the list would take several times the text)."""
    for chunk in _line_chunks(text):
        yield from chunk


_CHUNK = 1 << 12  # characters split into lines at a time (a few KB of line objects)


def _line_chunks(text: str) -> Iterator[list[str]]:
    """``lines(text)`` in consecutive lists of the lines of about ``_CHUNK`` characters each."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start + _CHUNK)
        if end < 0:
            chunk = text[start:].split("\n")
            if chunk[-1] == "":
                chunk.pop()
            yield chunk
            return
        yield text[start:end].split("\n")
        start = end + 1


_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_STRIDE = (MAX_DIGITS + 1) // 2  # a run of MAX_DIGITS + 1 digits holds two characters _STRIDE apart


def _oddities(text: str) -> tuple[bool, bool]:
    """Whether ``text`` may hold white space other than spaces, tabs and line ends, and a run of more
    than MAX_DIGITS digits: searched once over the whole text (a regex per line costs 5% of a check)."""
    if text.isascii():
        odd = ("\x0b" in text or "\x0c" in text or "\x1c" in text or "\x1d" in text or "\x1e" in text
               or "\x1f" in text)
        raw = text.encode("ascii")
        # every _STRIDE-th character first: a run shows there as two digits in a row
        digits = b"00" in raw[::_STRIDE].translate(_DIGITS_AS_ZERO) and \
            b"0" * (MAX_DIGITS + 1) in raw.translate(_DIGITS_AS_ZERO)
        return odd, digits
    return _ODD_BLANK(text) is not None, _DIGIT_RUN(text) is not None


HEADERS = {  # every game's; a game adds its own (``log_headers`` in its game.yaml), checked once it is known
    "kbg": "format version (1)",
    "game": "the game (an id or alias: kbg list)",
    "edition": "the edition (default: the game's default)",
    "variant": "a variant; repeat the tag or list several",
    "variants": "variants, separated by spaces",
    "players": "the players in seat order, separated by spaces",
    "start": "'setup' (default) or 'position'",
    "event": "free text",
    "site": "free text",
    "date": "free text",
    "round": "free text",
    "note": "free text",
}


_TAG_NAME = re.compile(r"[a-z][a-z0-9-]{0,31}")  # a tag the game may know: checked when the game is known


def unknown_tags(file: str, g: GameText, game_tags: Mapping[str, str]) -> Diagnostic | None:
    """The first header tag of ``g`` that neither every game nor this one (``game_tags``) knows."""
    for h in g.headers:
        if h.name not in HEADERS and h.name not in game_tags:
            known = ", ".join("@" + t for t in (*HEADERS, *game_tags))
            return Diagnostic(file, h.line, h.col, "log-header", f"unknown header tag @{h.name}; known: {known}")
    return None


class Token:
    """A word of a log line and its 1-based column."""

    __slots__ = ("col", "text")

    def __init__(self, text: str, col: int) -> None:
        self.text = text
        self.col = col

    def __repr__(self) -> str:
        return f"Token({self.text!r}, {self.col})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Token) and (self.text, self.col) == (other.text, other.col)

    def __hash__(self) -> int:
        return hash((self.text, self.col))


class Event:
    """One event line: its tokens with columns, and the indented lines under it.

    Events read by :func:`split_games` keep their text and make the tokens on first use:
    ``words``, the texts of the tokens, is all most lines need; columns matter only for messages.
    """

    __slots__ = ("_text", "_tokens", "block", "line", "words")
    __match_args__: Final = ("line", "tokens", "block")  # Final: a class attribute in the compiled build too
    _tokens: list[Token] | None
    words: list[str]

    def __init__(self, line: int, tokens: list[Token] | None, block: list[tuple[int, str]] | None = None,
                 text: str = "", words: list[str] | None = None) -> None:
        """``tokens`` None: the tokens of ``text`` (one line, see :meth:`from_text`), made on first use;
        ``words``, its words, when the caller has them."""
        self.line = line
        self._text = text
        self.block: list[tuple[int, str]] = [] if block is None else block
        if tokens is None:
            self._tokens = None
            self.words = text.split() if words is None else words
        else:
            self.tokens = tokens

    @classmethod
    def from_text(cls, line: int, text: str, odd: bool = True) -> Event:
        """An event of one line of text (no indentation, comment or trailing blanks); tokens on demand.
        ``odd=False`` says the text holds no white space but spaces and tabs (the caller checked)."""
        words = _WORDS(text) if odd and _ODD_BLANK(text) else text.split()
        if _new_event is None:
            return cls(line, None, None, text, words)
        ev = _new_event(cls)  # __init__, inlined (see _new_event)
        ev.line = line
        ev._tokens = None
        ev._text = text
        ev.words = words
        ev.block = []
        return ev

    @property
    def tokens(self) -> list[Token]:
        if self._tokens is None:
            self._tokens = _tokens_of(self._text, self.words)
        return self._tokens

    @tokens.setter
    def tokens(self, value: list[Token]) -> None:
        self._tokens = value
        self.words = [t.text for t in value]

    @property
    def col(self) -> int:
        return self.tokens[0].col

    def __repr__(self) -> str:
        return f"Event(line={self.line!r}, tokens={self.tokens!r}, block={self.block!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Event)
        return (self.line, self.tokens, self.block) == (other.line, other.tokens, other.block)

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it replaces


# Pure Python, an event made without __init__ costs less (a class call runs __init__ in a frame of its own).
# Compiled, Event.__new__ runs __init__ (its slots are no member descriptors there): the class is called.
_new_event = Event.__new__ if type(vars(Event)["line"]).__name__ == "member_descriptor" else None


@dataclass(slots=True)
class Header:
    name: str
    values: list[Token]
    line: int
    col: int


@dataclass(slots=True)
class GameText:
    """One game of a log file, as text: its header tags and its event lines."""

    index: int
    line: int
    headers: list[Header] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    stop: int | None = None  # the first event line that could not even be split into an event (log-number)

    def tag(self, name: str) -> Header | None:
        for h in self.headers:
            if h.name == name:
                return h
        return None


@mypyc_attr(allow_interpreted_subclasses=True)  # a plug-in game's parser may build on it
class PlayerNames:
    """Player names of one game, looked up by token with a one-line error."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players
        self.index = {p: i for i, p in enumerate(players)}

    def player(self, tok: Token) -> int:
        i = self.index.get(tok.text)
        if i is None:
            from kbgrules.core.closest import allowed_edits, did_you_mean

            raise LogSyntaxError(f"{tok.text!r} is not a player of this game ({', '.join(self.players)})"
                                 + did_you_mean(tok.text, self.players, max_edits=max(1, allowed_edits(tok.text))),
                                 tok.col, "log-player")  # a game has few players: a short name may be a typo too
        return i


def tokens(text: str, offset: int = 0) -> list[Token]:
    """The words of ``text`` (runs of characters other than spaces and tabs) with their 1-based columns,
    plus ``offset``."""
    if _ODD_BLANK(text):  # str.split() also splits at form feeds, U+0085, U+00A0...: not blanks in a log
        return _tokens_of(text, _WORDS(text), offset)
    return _tokens_of(text, text.split(), offset)


def _tokens_of(text: str, words: list[str], offset: int = 0, pos: int = 0) -> list[Token]:
    """The tokens of ``words``, the words of ``text`` from index ``pos`` on."""
    out = []
    find = text.find
    for word in words:
        pos = find(word, pos)  # only blanks lie between pos and the word, so this is its start
        out.append(Token(word, offset + pos + 1))
        pos += len(word)
    return out


def read_input(path: str) -> tuple[str, bytes | None, Diagnostic | None]:
    """The name and bytes of a file (``-``: standard input), never reading more than the size limit
    allows; or why it cannot be read."""
    if path == "-":
        import sys

        return "<stdin>", sys.stdin.buffer.read(MAX_LOG_BYTES + 1), None
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size  # known: no 16 MiB buffer for a small log
            raw = fh.read(min(size, MAX_LOG_BYTES) + 1)
            if len(raw) > size:  # it grew since, or its size was not known (0 for /proc files)
                raw += fh.read(MAX_LOG_BYTES + 1 - len(raw))
            return path, raw, None
    except OSError as exc:
        return path, None, Diagnostic(path, 1, 1, "unreadable", exc.strerror or str(exc))
    except ValueError:  # a NUL in the name: no file can have it
        return path, None, Diagnostic(path, 1, 1, "unreadable", "a file name cannot hold a NUL character")


def log_files(directory: str) -> list[str]:
    """Every ``*.log`` file in a directory and its subdirectories, in sorted order."""
    from pathlib import Path

    return sorted(str(x) for x in Path(directory).rglob("*.log") if x.is_file())


def input_files(paths: list[str]) -> list[str]:
    """The files named by command-line inputs: each directory stands for its ``*.log`` files (a
    directory without one stays, to be reported as such); ``-`` is standard input."""
    from pathlib import Path

    out: list[str] = []
    for p in paths:
        found = log_files(p) if p != "-" and Path(p).is_dir() else []
        out.extend(found or [p])
    return out


def no_logs(directory: str) -> Diagnostic:
    """The input error of a directory named on the command line that holds no log."""
    return Diagnostic(directory, 1, 1, "no-logs", "no *.log file in this directory")


def read_text(path: str) -> tuple[str, str | None, list[Diagnostic]]:
    """The name and text of a log file (``-``: standard input), or why it cannot be read as one."""
    name, raw, err = read_input(path)
    if raw is None:
        assert err is not None
        return name, None, [err]
    text, errors = decode(name, raw)
    return name, text, errors


def decode(file: str, raw: bytes) -> tuple[str | None, list[Diagnostic]]:
    """Text of a log file, or None with the reason it cannot be read."""
    if len(raw) > MAX_LOG_BYTES:
        return None, [Diagnostic(file, 1, 1, "file-too-large", f"a log is at most {MAX_LOG_BYTES} bytes")]
    if b"\x00" in raw:
        return None, [Diagnostic(file, 1, 1, "binary-file", "the file holds NUL bytes: not a text log")]
    try:
        return raw.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:  # its position in lines (LF, CRLF, CR) and characters, not bytes
        before = lines(raw[: exc.start].decode("utf-8-sig") + "|")  # the part before it is valid
        return None, [Diagnostic(file, len(before), len(before[-1]), "not-utf8",
                                 f"byte 0x{raw[exc.start]:02x} is not valid UTF-8")]


def _header(file: str, n: int, body: str, count: int, current: GameText | None,
            errors: list[Diagnostic]) -> GameText:
    """Read the header tag on line ``n``; returns the game it belongs to (a new one, number
    ``count + 1``, after events)."""
    words = _WORDS(body) if _ODD_BLANK(body) else body.split()
    toks = _tokens_of(body, words[1:], 0, len(words[0]))  # the values: no token for the tag
    name = words[0][1:].lower()
    if current is None or current.events:
        current = GameText(count + 1, n)
    if name not in HEADERS and not _TAG_NAME.fullmatch(name):
        known = ", ".join("@" + h for h in HEADERS)
        errors.append(Diagnostic(file, n, 1, "log-header", f"unknown header tag @{name}; known: {known}"))
    elif not toks:
        what = HEADERS.get(name, "a value")
        errors.append(Diagnostic(file, n, 1, "log-header", f"@{name} needs a value: {what}"))
    elif current.tag(name) is not None and name not in ("variant", "note"):
        errors.append(Diagnostic(file, n, 1, "log-header", f"@{name} is given twice in this game"))
    else:
        current.headers.append(Header(name, toks, n, 1))
    return current


def _finish(file: str, g: GameText, errors: list[Diagnostic]) -> None:
    version = g.tag("kbg")
    if version is not None and version.values[0].text != FORMAT_VERSION:
        errors.append(Diagnostic(file, version.line, version.values[0].col, "log-header",
                                 f"log format {version.values[0].text} is not known; this kbg reads format "
                                 f"{FORMAT_VERSION}"))
    if g.tag("game") is None:
        errors.append(Diagnostic(file, g.line, 1, "log-header", f"game {g.index} has no @game tag"))
    if g.tag("players") is None:
        errors.append(Diagnostic(file, g.line, 1, "log-header", f"game {g.index} has no @players tag"))


def iter_games(file: str, text: str) -> Iterator[tuple[GameText | None, list[Diagnostic]]]:
    """The games of a log, one at a time as they are read, each with the problems found on its
    lines; problems before the first game (or in a log without one) come with ``None`` first.
    A header tag that follows events starts a new game."""
    pending: list[Diagnostic] = []
    current: GameText | None = None
    last_event: Event | None = None
    count = 0

    def cut(before: int) -> list[Diagnostic]:
        nonlocal pending
        mine = [d for d in pending if d.line < before]
        pending = [d for d in pending if d.line >= before]
        return mine

    odd, digits = _oddities(text)
    new_event, split, odd_blank, words_of = _new_event, str.split, _ODD_BLANK, _WORDS
    add: Callable[[Event], None] | None = None  # current.events.append while event lines take the short path
    n = 0
    for chunk in _line_chunks(text):
        for body in chunk:
            n += 1
            if "#" in body:
                body = body[:body.index("#")]
            body = body.rstrip()
            if not body:
                continue
            first = body[0]
            if add is not None and first not in "@ \t":
                # an event line of the game being read: most lines (from_text, inlined)
                words = words_of(body) if odd and odd_blank(body) else split(body)
                if new_event is None:
                    ev = Event(n, None, None, body, words)
                else:  # Event.__init__, inlined
                    ev = new_event(Event)
                    ev.line = n
                    ev._tokens = None
                    ev._text = body
                    ev.words = words
                    ev.block = []
                last_event = ev
                add(ev)
                continue
            run = _DIGIT_RUN(body) if digits and first not in " \t" else None  # grid rows: their own reader
            if run is not None:
                pending.append(Diagnostic(file, n, run.start() + 1, "log-number",
                                          f"a number has at most {MAX_DIGITS} digits (no rule needs more)"))
                if current is not None and first != "@" and current.stop is None:
                    current.stop = n  # the game's checking stops here, as at any syntax error
                continue
            if first == " " or first == "\t":
                if last_event is None:
                    pending.append(Diagnostic(file, n, 1, "log-syntax", "an indented line must follow an event"))
                else:
                    last_event.block.append((n, body))
                continue
            last_event = None
            if first == "@":
                previous = current
                current = _header(file, n, body, count, current, pending)
            elif current is None:
                pending.append(Diagnostic(file, n, 1, "log-header",
                                          "a game starts with header tags (@game ..., @players ...) before its "
                                          "events"))
                previous, current = None, GameText(count + 1, n)
            else:
                previous = current
            if current is not previous:  # a game starts on line n: the one before it is complete
                count += 1
                if previous is not None:
                    _finish(file, previous, pending)
                    yield previous, cut(n)
                elif count == 1 and any(d.line < n for d in pending):
                    yield None, cut(n)
            if first != "@":
                last_event = Event.from_text(n, body, odd)
                current.events.append(last_event)
            add = None if digits else current.events.append
    if current is not None:
        _finish(file, current, pending)
        yield current, pending
    elif pending:
        yield None, pending
    else:
        yield None, [Diagnostic(file, 1, 1, "log-empty", "the log holds no game")]


def split_games(file: str, text: str) -> tuple[list[GameText], list[Diagnostic]]:
    """Every game of a log, and every problem found reading it (see :func:`iter_games`)."""
    games: list[GameText] = []
    errors: list[Diagnostic] = []
    for g, found in iter_games(file, text):
        if g is not None:
            games.append(g)
        errors.extend(found)
    return games, errors
