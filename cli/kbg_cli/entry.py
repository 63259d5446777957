"""The ``kbg`` console script: ``kbg explain`` takes a fast path that imports neither typer nor rich."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["explain"] and sys.stdout is not None:
        from .explain_cmd import run

        return run(args[1:])
    from .app import main as full

    return full(args)


def run() -> None:
    sys.exit(main())
