"""mypyc's class decorators, for the optional compiled build (bench/build_mypyc.py).

Type checkers and mypyc see mypy_extensions' own; at run time these stand-ins, which change nothing,
are used (mypy_extensions is not needed, and importing it would import ``typing``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
    from mypy_extensions import trait as trait
else:

    def trait(cls):
        return cls

    def mypyc_attr(*attrs, **kwattrs):
        return lambda cls: cls
