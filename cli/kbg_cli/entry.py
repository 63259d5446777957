"""The ``kbg`` console script: ``kbg explain`` takes a fast path that imports neither typer nor rich."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from .startup import pause, resume

    collecting = pause()
    try:
        args = list(sys.argv[1:] if argv is None else argv)
        if args[:1] == ["explain"] and sys.stdout is not None and sys.stderr is not None:
            return _explain(args[1:])
        from .app import main as full

        return full(args)
    finally:
        resume(collecting, exiting=argv is None)  # no argv: the console script, whose process ends now


def _explain(args: list[str]) -> int:
    """``kbg explain`` without typer, with the same handling of a closed pipe and of bugs."""
    from .explain_cmd import Declined
    from .explain_cmd import run as run_explain

    try:
        try:
            code = run_explain(args)
        except Declined:
            from .app import main as full

            return full(["explain", *args])
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # the reader went away (`| head`): not a failure
        from .render import reader_gone

        reader_gone()
        return 0
    except Exception as exc:
        from kbgrules.errors import debug

        if debug():
            raise
        kind = "io" if isinstance(exc, OSError) else "internal"
        sys.stderr.write(f"kbg: error {kind}: {type(exc).__name__}: {exc} (set KBG_DEBUG=1 for a traceback)\n")
        return 2


def run() -> None:
    sys.exit(main())
