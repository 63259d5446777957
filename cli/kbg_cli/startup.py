"""The garbage collector while ``kbg`` starts: start-up (typer, the rule data, the engines) makes tens of
thousands of long-lived objects and almost no garbage cycles, so the collections it would trigger cost a few
milliseconds for nothing, and the interpreter's collection at exit would scan them all again."""

from __future__ import annotations

import gc

_frozen: list[bool] = []


def pause() -> bool:
    """Stop collecting (the command starts); whether the collector was on."""
    collecting = gc.isenabled()
    gc.disable()
    return collecting


def started() -> None:
    """The command is under way: collect again, what exists now being kept (``gc.freeze``) so that later
    collections do not scan it again. Called where a run may grow long (after the first part of ``kbg
    check`` or ``kbg show``, before worker processes, for ``kbg site`` and ``--html``); a short command
    never collects."""
    if not gc.isenabled() and not _frozen:
        _frozen.append(True)
        gc.freeze()
        gc.enable()


def resume(collecting: bool, exiting: bool) -> None:
    """The command is done: the collector as it was (``collecting``). ``exiting``: the process ends now,
    so what it made is frozen, and the exit does not scan it."""
    if exiting:
        gc.freeze()
    elif _frozen:
        gc.unfreeze()
    _frozen.clear()
    if collecting:
        gc.enable()
