"""Optional: compile the hot modules of kbgrules with mypyc, in place (next to the .py files).

    pip install -e '.[mypyc]'             # mypy (with mypyc) and setuptools>=77, which reads this pyproject.toml
    python bench/build_mypyc.py           # about 2 minutes, one compiler job: kbgrules/**/*.so
    python bench/build_mypyc.py --clean   # back to pure Python

Tests on a compiled tree: PY_IGNORE_IMPORTMISMATCH=1 python -m pytest (the doctests of kbgrules/ import
the .so, not the .py; the doctests of compiled functions are not collected).

The pure-Python package stays the default: without the .so files nothing changes.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the hot path of `kbg check`; not the models (their frozen dataclasses must stay deep-copyable and
# subclassable), errors.py (compiled, subclasses lose their class attribute ``code``), the explain/CLI code,
# or the public entry points core/check.py and kingdomino/positions.py (read_grid): they check their
# arguments' types themselves (a TypeError naming the parameter), which a compiled signature would do
# first with a message that names none
MODULES = os.environ.get("KBG_MYPYC_MODULES", "").split() or sorted(
    str(p.relative_to(ROOT))
    for pattern in ("kbgrules/king_of_tokyo/**/*.py", "kbgrules/kingdomino/*.py", "kbgrules/core/logfile.py")
    for p in ROOT.glob(pattern)
    if p.name not in ("model.py", "positions.py", "result.py")
)


def clean() -> None:
    for so in (ROOT / "kbgrules").rglob("*.so"):
        so.unlink()
    for so in ROOT.glob("*__mypyc*.so"):
        so.unlink()
    shutil.rmtree(ROOT / "build", ignore_errors=True)


def main() -> int:
    if "--clean" in sys.argv[1:]:
        clean()
        return 0
    from mypyc.build import mypycify
    from setuptools import setup

    os.chdir(ROOT)
    setup(name="kbgrules", packages=[], py_modules=[],
          ext_modules=mypycify(MODULES, opt_level="3", multi_file=False),
          script_args=["build_ext", "--inplace", "-j", "1"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
