"""Every ``kbgrules.…`` name the README and docs/*.md give exists: a module, or an attribute of one
(issue 25: the docs named entry points that did not exist)."""

from __future__ import annotations

import importlib
import re
from types import ModuleType
from typing import Any

import pytest

from .conftest import ROOT

NAME = re.compile(r"(?<![\w/.-])kbgrules(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _names() -> list[tuple[str, str]]:
    found = {(m.group(0), p.name) for p in PAGES for m in NAME.finditer(p.read_text(encoding="utf-8"))}
    return sorted(found)


def _resolve(name: str) -> Any:
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: ModuleType | Any = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)  # AttributeError: the page names what does not exist
        return obj
    raise ImportError(name)


def test_the_pages_name_some() -> None:
    assert len(_names()) > 50


@pytest.mark.parametrize(("name", "page"), _names())
def test_a_documented_name_exists(name: str, page: str) -> None:
    try:
        _resolve(name)
    except (ImportError, AttributeError) as exc:
        pytest.fail(f"{page} names {name}, which does not exist ({exc})")
