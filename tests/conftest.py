from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
os.environ.pop("COLUMNS", None)  # plain output wraps at COLUMNS when set: the expected outputs are at 100
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="kbg-test-cache-")  # explain's index cache, not the user's
REFERENCE = ROOT / "tests" / "reference"  # facts of the project's reference the tests compare with


@pytest.fixture
def write_rules(tmp_path: Path) -> Callable[[str, str], Path]:
    """Write one user rule file into a fresh directory and return the directory."""

    def write(name: str, text: str) -> Path:
        d = tmp_path / "rules"
        d.mkdir(exist_ok=True)
        (d / name).write_text(text, encoding="utf-8")
        return d

    return write
