"""The optional compiled build (mypyc, docs/scale.md): which build runs, and mypyc's class decorators.

:func:`build` names the build that runs, as ``kbg --version`` shows it.

For the decorators, type checkers and mypyc see mypy_extensions' own; at run time these stand-ins,
which change nothing, are used (mypy_extensions is not needed, and importing it would import ``typing``).
"""

from __future__ import annotations

PURE, MYPYC = "pure Python", "compiled: mypyc"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
    from mypy_extensions import trait as trait
else:

    def trait(cls):
        return cls

    def mypyc_attr(*attrs, **kwattrs):
        return lambda cls: cls


def build(package: str | None = None) -> str:
    """``"compiled: mypyc"`` when kbgrules runs compiled, else ``"pure Python"``.

    Told by the file the import system would load for ``kbgrules.core.logfile``, which the compiled
    build compiles with the games' engines (an extension module comes before the ``.py`` beside it),
    without importing anything. ``package``: the ``kbgrules`` folder to look in (default: this one).
    """
    import os
    from importlib.machinery import EXTENSION_SUFFIXES

    core = os.path.join(package, "core") if package else os.path.dirname(__file__)
    compiled = any(os.path.isfile(os.path.join(core, "logfile" + suffix)) for suffix in EXTENSION_SUFFIXES)
    return MYPYC if compiled else PURE
