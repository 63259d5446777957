"""``kbg --version`` names the build that runs: pure Python (``pip install .``) or compiled by mypyc.

This suite runs on both builds (.ci/run installs the compiled wheel and runs it there too, where it also
checks that the engine's modules are extension modules); here the label is checked against the module
Python actually imported, and the detection against a package folder of each kind.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import kbgrules
from kbg_cli.entry import main
from kbgrules.core.compiled import MYPYC, PURE, build


def test_version_names_the_build_that_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from kbgrules.core import logfile
    from kbgrules.king_of_tokyo import state

    running = PURE if (state.__file__ or "").endswith(".py") else MYPYC
    assert (logfile.__file__ or "").endswith(".py") == (running == PURE)  # compiled together
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"kbg {kbgrules.__version__} ({running})\n"
    assert build() == running


def test_a_package_with_only_sources_is_pure_python(tmp_path: Path) -> None:
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "logfile.py").write_text("", encoding="utf-8")
    (tmp_path / "core" / "logfile.cpython-20-x86_64-linux-gnu.so").write_bytes(b"")  # another Python's
    assert build(str(tmp_path)) == PURE == "pure Python"


def test_a_package_with_the_compiled_engine_is_mypyc(tmp_path: Path) -> None:
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "logfile.py").write_text("", encoding="utf-8")
    (tmp_path / "core" / f"logfile{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    assert build(str(tmp_path)) == MYPYC == "compiled: mypyc"
