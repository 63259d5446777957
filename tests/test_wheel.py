"""The wheel carries the rule data and the kbg command, and works with no checkout beside it."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("build")
    pytest.importorskip("hatchling")
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True)
    (whl,) = out.glob("kbgrules-*.whl")
    return whl


def test_wheel_contents(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    data_files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "rules_data").rglob("*") if p.is_file()}
    assert {"kbgrules/" + n for n in data_files} <= names
    assert "kbg_cli/app.py" in names and "kbgrules/__init__.py" in names
    assert "kbgrules/rules_data/explain-index.json" in names
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "kbg = kbg_cli.entry:main" in zipfile.ZipFile(wheel).read(entry).decode()
    assert not any(n.startswith(("tests/", "cli/", "rules_data/")) for n in names)


def test_installed_wheel_runs_from_anywhere(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    probe = "import kbgrules, kbgrules.core.data as d; print(kbgrules.__file__); print(d.data_root())"
    r = subprocess.run([sys.executable, "-c", probe], cwd=elsewhere, env=env, capture_output=True, text=True,
                       check=True)
    module_file, root = r.stdout.splitlines()
    assert module_file.startswith(str(target)) and root == str(target / "kbgrules" / "rules_data")
    r = subprocess.run([sys.executable, "-m", "kbg_cli", "setup", "kingdomino", "--players", "3"], cwd=elsewhere,
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "36 dominoes used, 12 returned to the box, 3 per line, 12 rounds" in r.stdout
