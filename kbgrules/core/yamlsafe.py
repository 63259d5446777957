"""Strict, bounded YAML reading with positions.

The document is built from PyYAML's event stream, so nesting depth and alias
expansion are bounded while parsing, and every value keeps its line and column.
Plain scalars resolve as in YAML 1.2 (core schema); YAML 1.1 booleans such as
``no`` or ``on``, duplicate keys, non-string keys, merge keys and custom tags are
reported instead of silently changing the data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from kbgrules.core.value import FrozenValue, Value
from kbgrules.errors import Diagnostic, UnsafeYamlError

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 48
MAX_NODES = 200_000

YamlPath = tuple[str | int, ...]


_NULL = {"", "~", "null", "Null", "NULL"}
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}
_YAML11_BOOL = {"yes", "no", "on", "off"}
_INT = re.compile(r"[-+]?[0-9]+\Z")
_INT_OCT = re.compile(r"0o[0-7]+\Z")
_INT_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_INF = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}
_NINF = {"-.inf", "-.Inf", "-.INF"}
_NAN = {".nan", ".NaN", ".NAN"}

_STD = "tag:yaml.org,2002:"


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Mark(FrozenValue):
    """Where a value starts (1-based); ``plain`` is the source text of a plain scalar."""

    line: int
    col: int
    plain: str | None = None


@dataclass(slots=True, repr=False, eq=False)
class YamlDocument(Value):
    """A parsed file: its data, the position of every value and key, and the problems found."""

    file: str
    data: Any
    marks: dict[YamlPath, Mark] = field(default_factory=dict)
    key_marks: dict[YamlPath, Mark] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def mark(self, path: YamlPath, *, key: bool = False) -> Mark:
        """The mark of ``path``, or of its nearest ancestor that has one."""
        p = tuple(path)
        if key and p in self.key_marks:
            return self.key_marks[p]
        while p:
            if p in self.marks:
                return self.marks[p]
            p = p[:-1]
        return self.marks.get((), Mark(1, 1))

    def diag(self, path: YamlPath, code: str, message: str, *, key: bool = False) -> Diagnostic:
        m = self.mark(path, key=key)
        return Diagnostic(self.file, m.line, m.col, code, message)


def _resolve_plain(text: str) -> tuple[Any, str | None]:
    """Value of a plain scalar under YAML 1.2 core rules, and a problem code if any."""
    if text in _NULL:
        return None, None
    if text in _TRUE:
        return True, None
    if text in _FALSE:
        return False, None
    if text.lower() in _YAML11_BOOL:
        return text, "yaml11-boolean"
    if len(text) > 40:  # no number of the rules is that long: left a string, which the schema refuses
        return text, None
    if _INT.match(text):
        return int(text), None
    if _INT_OCT.match(text):
        return int(text[2:], 8), None
    if _INT_HEX.match(text):
        return int(text[2:], 16), None
    if _FLOAT.match(text):
        return float(text), None
    if text in _INF:
        return float("inf"), None
    if text in _NINF:
        return float("-inf"), None
    if text in _NAN:
        return float("nan"), None
    return text, None


class _Frame:
    __slots__ = ("anchor", "container", "count", "is_key", "key", "key_mark", "path", "start")

    def __init__(self, container: Any, path: YamlPath, anchor: str | None, is_key: bool, start: Mark) -> None:
        self.container = container
        self.start = start
        self.path = path
        self.anchor = anchor
        self.is_key = is_key
        self.count = 1
        self.key: Any = None
        self.key_mark: Mark | None = None


def _check_size(file: str, raw: bytes, limit: int) -> str:
    if len(raw) > limit:
        raise UnsafeYamlError(
            [Diagnostic(file, 1, 1, "file-too-large", f"file is larger than the limit of {limit} bytes")]
        )
    if b"\x00" in raw[:8192] or b"\x00" in raw:
        raise UnsafeYamlError([Diagnostic(file, 1, 1, "binary-file", "file holds NUL bytes: not a text file")])
    from kbgrules.core.logfile import lines

    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:  # placed by lines (LF, CRLF, CR) and characters
        before = lines(raw[: exc.start].decode("utf-8-sig") + "|")
        raise UnsafeYamlError(
            [Diagnostic(file, len(before), len(before[-1]), "not-utf8",
                        f"byte 0x{raw[exc.start]:02x} is not valid UTF-8")]
        ) from None
    odd = next((i for i, ch in enumerate(text) if ch in "\x85\u2028\u2029"), -1) \
        if ("\x85" in text or "\u2028" in text or "\u2029" in text) else -1
    if odd >= 0:  # YAML 1.1 (PyYAML) ends a line there, so its positions would not match the file's lines
        before = lines(text[:odd] + "|")
        raise UnsafeYamlError([Diagnostic(file, len(before), len(before[-1]), "line-break",
                                          f"U+{ord(text[odd]):04X} is a line break to YAML: in a quoted string "
                                          f"write it as \\u{ord(text[odd]):04x}, elsewhere remove it")])
    return text


def parse_bytes(file: str, raw: bytes, *, max_bytes: int = MAX_BYTES) -> YamlDocument:
    """Parse one YAML document from bytes; raises UnsafeYamlError for hostile input."""
    return parse_text(file, _check_size(file, raw, max_bytes))


def parse_text(file: str, text: str) -> YamlDocument:
    """Parse one YAML document; recoverable problems are in ``diagnostics``."""
    doc = YamlDocument(file=file, data=None)
    diags = doc.diagnostics
    anchors: dict[str, tuple[Any, int]] = {}
    stack: list[_Frame] = []
    expanded = 0
    documents = 0
    root_set = False

    def fatal(line: int, col: int, code: str, message: str) -> UnsafeYamlError:
        return UnsafeYamlError([Diagnostic(file, line, col, code, message)])

    def attach(value: Any, mark: Mark, size: int, is_container_key: bool = False) -> None:
        nonlocal root_set
        if not stack:
            doc.data = value
            doc.marks[()] = mark
            root_set = True
            return
        top = stack[-1]
        top.count += size
        if isinstance(top.container, list):
            path = (*top.path, len(top.container))
            top.container.append(value)
            doc.marks.setdefault(path, mark)
            return
        if top.key_mark is None:  # this value is a key
            if is_container_key or not isinstance(value, str):
                diags.append(
                    Diagnostic(file, mark.line, mark.col, "non-string-key",
                               f"mapping keys must be strings; quote it: {mark.plain or value!r}")
                )
                value = str(mark.plain if mark.plain is not None else value)
            if value == "<<" and mark.plain is not None:
                diags.append(Diagnostic(file, mark.line, mark.col, "merge-key",
                                        "merge keys (<<) are not supported; write the keys out"))
            if value in top.container:
                first = doc.key_marks.get((*top.path, value))
                where = f" (first at line {first.line})" if first else ""
                diags.append(Diagnostic(file, mark.line, mark.col, "duplicate-key",
                                        f"duplicate key {value!r}{where}"))
            top.key = value
            top.key_mark = mark
            return
        key = top.key
        path = (*top.path, key)
        if key not in top.container:
            doc.key_marks[path] = top.key_mark
            doc.marks[path] = mark
            top.container[key] = value
        top.key = None
        top.key_mark = None

    def next_path() -> YamlPath:
        if not stack:
            return ()
        top = stack[-1]
        if isinstance(top.container, list):
            return (*top.path, len(top.container))
        if top.key_mark is None:
            return (*top.path, "<key>")
        return (*top.path, top.key)

    def in_key_position() -> bool:
        return bool(stack) and isinstance(stack[-1].container, dict) and stack[-1].key_mark is None

    def check_tag(tag: str | None, allowed: set[str], m: Mark) -> None:
        if tag is None or tag == "!" or tag in allowed:
            return
        raise fatal(m.line, m.col, "custom-tag", f"tag {tag!r} is not allowed in rule data")

    import yaml  # here, not at import: start-up reads the shipped data from rules_data/compiled/

    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        for ev in yaml.parse(text, Loader=loader):
            sm = ev.start_mark
            m = Mark(sm.line + 1, sm.column + 1) if sm is not None else Mark(1, 1)
            if isinstance(ev, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise fatal(m.line, m.col, "multiple-documents", "a rule file holds exactly one YAML document")
            elif isinstance(ev, yaml.ScalarEvent):
                size = 1 + len(ev.value) // 256  # a long string weighs what it holds: aliases to it add up
                expanded += size
                tag = ev.tag
                plain = ev.style in (None, "") and tag is None
                if plain:
                    value, problem = _resolve_plain(ev.value)
                    m = Mark(m.line, m.col, ev.value)
                    if problem == "yaml11-boolean":
                        diags.append(Diagnostic(
                            file, m.line, m.col, problem,
                            f"{ev.value!r} is a boolean in YAML 1.1 and a string in YAML 1.2: "
                            f"write true/false, or quote it"))
                else:
                    check_tag(tag, {_STD + "str", _STD + "int", _STD + "float", _STD + "bool", _STD + "null"}, m)
                    value = ev.value
                    if tag == _STD + "int" or tag == _STD + "float" or tag == _STD + "bool" or tag == _STD + "null":
                        value, _ = _resolve_plain(ev.value)
                if ev.anchor:
                    anchors[ev.anchor] = (value, size)
                attach(value, m, size)
            elif isinstance(ev, yaml.AliasEvent):
                if ev.anchor not in anchors:
                    raise fatal(m.line, m.col, "yaml-syntax", f"alias *{ev.anchor} names no finished anchor")
                value, size = anchors[ev.anchor]
                expanded += size
                if expanded > MAX_NODES:
                    raise fatal(m.line, m.col, "alias-limit",
                                f"aliases expand the document past {MAX_NODES} values (alias bomb?)")
                attach(value, m, size, is_container_key=isinstance(value, dict | list))
            elif isinstance(ev, yaml.MappingStartEvent | yaml.SequenceStartEvent):
                expanded += 1
                if len(stack) >= MAX_DEPTH:
                    raise fatal(m.line, m.col, "too-deep", f"nesting deeper than {MAX_DEPTH} levels")
                is_map = isinstance(ev, yaml.MappingStartEvent)
                check_tag(ev.tag, {_STD + ("map" if is_map else "seq")}, m)
                container: Any = {} if is_map else []
                stack.append(_Frame(container, next_path(), ev.anchor, in_key_position(), m))
            elif isinstance(ev, yaml.MappingEndEvent | yaml.SequenceEndEvent):
                frame = stack.pop()
                if frame.anchor:
                    anchors[frame.anchor] = (frame.container, frame.count)
                attach(frame.container, frame.start, frame.count, is_container_key=frame.is_key)
            if expanded > MAX_NODES:
                raise fatal(m.line, m.col, "too-large", f"document has more than {MAX_NODES} values")
    except yaml.MarkedYAMLError as exc:
        pm = exc.problem_mark or exc.context_mark
        line = pm.line + 1 if pm else 1
        col = pm.column + 1 if pm else 1
        problem = exc.problem or exc.context or "invalid YAML"
        if "nesting depth" in problem:
            raise fatal(line, col, "too-deep", f"nesting deeper than the parser allows ({problem})") from None
        diags.append(Diagnostic(file, line, col, "yaml-syntax", problem))
        doc.data = None
        return doc
    except yaml.YAMLError as exc:
        diags.append(Diagnostic(file, 1, 1, "yaml-syntax", str(exc).splitlines()[0]))
        doc.data = None
        return doc
    if documents == 0 or not root_set:
        diags.append(Diagnostic(file, 1, 1, "empty-file", "file holds no YAML document"))
    return doc
