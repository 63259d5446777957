"""The fuzzer of bench/fuzz.py at a small size, on every change (issue 15): mutated logs, positions,
grids and queries must give reports or KbgErrors, with every diagnostic inside the input."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from .conftest import ROOT


def _fuzz() -> object:
    spec = importlib.util.spec_from_file_location("kbg_fuzz", ROOT / "bench" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["kbg_fuzz"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mutated_inputs_give_reports_not_crashes(seed: int) -> None:
    findings = _fuzz().fuzz(150, seed)  # type: ignore[attr-defined]
    assert not findings, "\n".join(findings)


def test_a_grid_cell_error_in_a_log_points_at_the_cell() -> None:
    """bench/fuzz.py seed 1: a bad cell was placed at the kingdom line with the cell's column, past its end."""
    from kbgrules.core.check import check_text

    text = "@game kingdomino\n@start position\n@players Ann Bob\nAnn kingdom\n    C W\n    LC  .\n"
    (g,) = check_text("g.log", text).games
    assert [(e.line, e.col, e.code) for e in g.errors] == [(6, 5, "grid-cell")]
