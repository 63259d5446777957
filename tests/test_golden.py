"""Golden logs: every shipped example checks clean and gives exactly its stored JSON report.

After an intended change of output, regenerate every report with ``python tests/golden/update.py``
and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kbgrules.core.check import check_text

from .conftest import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*/*.log"))


def rules_for(log: Path) -> tuple[str, ...]:
    """A log's own rule data: the directory beside it named STEM-rules (e.g. godzilla-rules)."""
    extra = log.with_name(log.stem + "-rules")
    return (str(extra),) if extra.is_dir() else ()


def test_every_example_has_a_golden_report() -> None:
    base = ROOT / "tests" / "golden"
    golden = {p.relative_to(base).with_suffix("") for p in base.rglob("*.json")}
    examples = {p.relative_to(ROOT / "examples").with_suffix("") for p in EXAMPLES}
    assert golden == examples and len(examples) >= 13


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_matches_golden(path: Path) -> None:
    got = check_text(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"), rules_for(path)).to_json()
    want = json.loads((ROOT / "tests" / "golden" / path.parent.name / (path.stem + ".json")).read_text())
    assert got == want
    assert all(g["valid"] for g in got["games"])
