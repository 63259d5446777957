from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
os.environ.pop("COLUMNS", None)  # plain output wraps at COLUMNS when set: the expected outputs are at 100
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="kbg-test-cache-")  # explain's index cache, not the user's
REFERENCE = ROOT / "tests" / "reference"  # facts of the project's reference the tests compare with


def fuzz_module() -> Any:
    """bench/fuzz.py as a module (bench/ is not a package), loaded once."""
    import importlib.util
    import sys

    if "kbg_fuzz" not in sys.modules:
        spec = importlib.util.spec_from_file_location("kbg_fuzz", ROOT / "bench" / "fuzz.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["kbg_fuzz"] = module
        spec.loader.exec_module(module)
    return sys.modules["kbg_fuzz"]


@pytest.fixture
def write_rules(tmp_path: Path) -> Callable[[str, str], Path]:
    """Write one user rule file into a fresh directory and return the directory."""

    def write(name: str, text: str) -> Path:
        d = tmp_path / "rules"
        d.mkdir(exist_ok=True)
        (d / name).write_text(text, encoding="utf-8")
        return d

    return write
