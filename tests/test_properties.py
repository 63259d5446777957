"""Property tests: the YAML reader never crashes, and overlays behave as merge patches."""

from __future__ import annotations

import contextlib
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from kbgrules.core.effective import merge_patch
from kbgrules.core.yamlsafe import parse_bytes, parse_text
from kbgrules.errors import UnsafeYamlError

scalars = st.one_of(st.integers(-1000, 1000), st.text(alphabet="abcxyz -", max_size=8), st.booleans())
keys = st.text(alphabet="abcdef", min_size=1, max_size=4)
trees = st.recursive(scalars, lambda inner: st.dictionaries(keys, inner, max_size=4)
                     | st.lists(inner, max_size=4), max_leaves=20)
docs = st.dictionaries(keys, trees, max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_give_data_or_diagnostics(raw: bytes) -> None:
    try:
        doc = parse_bytes("f.yaml", raw)
    except UnsafeYamlError as exc:
        assert exc.diagnostics
        return
    for d in doc.diagnostics:
        assert d.line >= 1 and d.col >= 1


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" :-[]{}&*!#'\"\n\tabc019,.?|>", max_size=120))
def test_yamlish_text_never_crashes(text: str) -> None:
    with contextlib.suppress(UnsafeYamlError):
        parse_text("f.yaml", text)


@settings(max_examples=200, deadline=None)
@given(docs)
def test_round_trip_through_safe_dump(data: dict[str, Any]) -> None:
    text = yaml.safe_dump(data, allow_unicode=True)
    doc = parse_text("f.yaml", text)
    if not doc.diagnostics:
        assert doc.data == data


@given(docs)
def test_empty_patch_is_identity(data: dict[str, Any]) -> None:
    assert merge_patch(data, {}) == data


@given(docs, docs)
def test_patch_wins_and_keeps_the_rest(base: dict[str, Any], patch: dict[str, Any]) -> None:
    out = merge_patch(base, patch)
    for k, v in patch.items():
        if not isinstance(v, dict):
            assert out[k] == v
    for k in base.keys() - patch.keys():
        assert out[k] == base[k]
    assert merge_patch(out, patch) == out  # applying twice changes nothing


@given(docs)
def test_null_deletes(base: dict[str, Any]) -> None:
    out = merge_patch(base, dict.fromkeys(base))
    assert out == {}
