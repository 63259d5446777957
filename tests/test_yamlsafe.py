"""Each class of bad YAML is reported with its line and column, never as a crash."""

from __future__ import annotations

import pytest

from kbgrules.core.yamlsafe import MAX_DEPTH, parse_bytes, parse_text
from kbgrules.errors import UnsafeYamlError


def codes(text: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.col) for d in parse_text("f.yaml", text).diagnostics]


def refused(text: str | bytes) -> tuple[str, int, int]:
    raw = text.encode() if isinstance(text, str) else text
    with pytest.raises(UnsafeYamlError) as info:
        parse_bytes("f.yaml", raw)
    d = info.value.diagnostics[0]
    assert str(d).startswith(f"f.yaml:{d.line}:{d.col}: error {d.code}: ")
    return d.code, d.line, d.col


def test_plain_scalars_follow_yaml_1_2() -> None:
    doc = parse_text("f.yaml", "a: 1\nb: 1.10\nc: true\nd: ~\ne: '1.10'\nf: 0x1F\ng: 1:30\nh: text\n")
    assert doc.data == {"a": 1, "b": 1.1, "c": True, "d": None, "e": "1.10", "f": 31, "g": "1:30", "h": "text"}
    assert doc.diagnostics == []


def test_positions_of_values_and_keys() -> None:
    doc = parse_text("f.yaml", "top:\n  list:\n    - a\n    - {k: v}\n")
    assert (doc.mark(("top", "list", 1, "k")).line, doc.mark(("top", "list", 1, "k")).col) == (4, 11)
    assert doc.mark(("top", "list"), key=True).line == 2
    assert doc.mark(("top", "missing", 3)).line == 2  # nearest known ancestor


@pytest.mark.parametrize("word", ["no", "No", "yes", "on", "OFF"])
def test_yaml11_booleans_are_reported(word: str) -> None:
    assert codes(f"x: 1\nanswer: {word}\n") == [("yaml11-boolean", 2, 9)]


def test_quoted_yaml11_words_are_fine() -> None:
    assert codes("answer: 'no'\n") == []


def test_duplicate_key() -> None:
    doc = parse_text("f.yaml", "a: 1\nb:\n  c: 1\n  c: 2\n")
    assert [(d.code, d.line, d.col) for d in doc.diagnostics] == [("duplicate-key", 4, 3)]
    assert "first at line 3" in doc.diagnostics[0].message
    assert doc.data == {"a": 1, "b": {"c": 1}}


def test_non_string_keys() -> None:
    assert codes("2: x\n'3': y\n") == [("non-string-key", 1, 1)]
    assert codes("? [a, b]\n: 1\n")[0][0] == "non-string-key"
    assert codes("true: 1\n")[0][0] == "non-string-key"


def test_merge_key_reported() -> None:
    assert ("merge-key", 3, 3) in codes("x: &x {a: 1}\nz:\n  <<: *x\n")


def test_syntax_error_has_position() -> None:
    assert codes("a: [1, 2\nb: 3\n") == [("yaml-syntax", 2, 2)]


def test_empty_file() -> None:
    assert codes("") == [("empty-file", 1, 1)]
    assert codes("# only a comment\n") == [("empty-file", 1, 1)]


def test_custom_tag_refused() -> None:
    assert refused("a: !!python/object/apply:os.system ['echo hi']\n")[0] == "custom-tag"
    assert refused("a: !mytag x\n") == ("custom-tag", 1, 4)


def test_alias_bomb_refused() -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i, name in enumerate("bcdefgh"):
        prev = "a" if i == 0 else "bcdefgh"[i - 1]
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    assert refused("\n".join(lines) + "\n")[0] == "alias-limit"


def test_small_aliases_are_fine() -> None:
    doc = parse_text("f.yaml", "a: &a {x: 1}\nb: *a\n")
    assert doc.data == {"a": {"x": 1}, "b": {"x": 1}} and doc.diagnostics == []


def test_deep_nesting_refused() -> None:
    assert refused("[" * 10_000 + "]" * 10_000)[0] == "too-deep"
    block = "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 5))
    assert refused(block)[0] == "too-deep"


def test_binary_and_encoding() -> None:
    assert refused(b"\x89PNG\r\n\x1a\n\x00\x00") == ("binary-file", 1, 1)
    assert refused(b"a: ok\nb: caf\xe9\n") == ("not-utf8", 2, 7)


def test_bom_and_crlf_accepted() -> None:
    doc = parse_bytes("f.yaml", "\ufeffa: 1\r\nb: 2\r\n".encode())
    assert doc.data == {"a": 1, "b": 2} and doc.diagnostics == []


def test_oversized_file_refused() -> None:
    assert refused(b"a: " + b"x" * (3 * 1024 * 1024))[0] == "file-too-large"


def test_multiple_documents_refused() -> None:
    assert refused("a: 1\n---\nb: 2\n") == ("multiple-documents", 2, 1)
