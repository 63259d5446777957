"""Checking a corpus on a Dask cluster (``pip install 'kbgrules[dask]'``).

Dask does the scheduling, the workers and the transport; this module only cuts the corpus into a
bag of paths and checks each one with :func:`kbgrules.core.check.checked_alone`. The log files (and any
``rules_dirs``) must be readable at the same paths on every worker, as on a shared file system.
Example (docs/scale.md has more)::

    bag = check_files("corpus/**/*.log")
    broken = bag.filter(lambda r: r.exit_code == 1).count().compute()
"""

from __future__ import annotations

import glob
import importlib
import os
from collections.abc import Iterator, Sequence
from typing import Any

from kbgrules.core.check import RulesDirs, checked_alone
from kbgrules.core.logfile import log_files
from kbgrules.core.report import CheckReport
from kbgrules.errors import KbgError

__all__ = ["check_files", "iter_reports", "log_paths"]


def _dask_bag() -> Any:
    try:
        return importlib.import_module("dask.bag")
    except ImportError as exc:
        raise KbgError("Dask is not installed: pip install 'kbgrules[dask]'", code="dask-missing") from exc


def log_paths(paths_or_glob: str | Sequence[str]) -> list[str]:
    """The log files named by a glob pattern (``**`` recurses), a directory (every ``*.log`` in it)
    or a list of paths, in sorted order for a pattern or directory."""
    if not isinstance(paths_or_glob, str):
        return [os.fspath(p) for p in paths_or_glob]
    if os.path.isdir(paths_or_glob):
        return log_files(paths_or_glob)
    if glob.has_magic(paths_or_glob):
        return sorted(p for p in glob.glob(paths_or_glob, recursive=True) if os.path.isfile(p))
    return [paths_or_glob]


def _check(path: str, rules_dirs: tuple[str, ...]) -> CheckReport:
    return checked_alone(path, rules_dirs)


def check_files(paths_or_glob: str | Sequence[str], rules_dirs: RulesDirs = (),
                npartitions: int | None = None) -> Any:
    """A lazy Dask bag of :class:`~kbgrules.core.report.CheckReport`, one per log file, in input order.
    Nothing runs until ``.compute()`` (on the current Dask scheduler or ``distributed.Client``)."""
    bag = _dask_bag()
    paths = log_paths(paths_or_glob)
    if npartitions is None:
        npartitions = max(1, min(len(paths), 256, len(paths) // 50 or 1))
    dirs = tuple(os.fspath(d) for d in rules_dirs)
    return bag.from_sequence(paths, npartitions=npartitions).map(_check, dirs)


def iter_reports(paths: Sequence[str], address: str, rules_dirs: RulesDirs = ()) -> Iterator[CheckReport]:
    """Check ``paths`` on the Dask scheduler at ``address`` and yield the reports in input order,
    each partition as soon as it (and those before it) is done."""
    _dask_bag()
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError as exc:
        raise KbgError("Dask's distributed scheduler is not installed: pip install 'kbgrules[dask]'",
                       code="dask-missing") from exc
    if not paths:
        return
    try:
        client = distributed.Client(address, timeout="10s")
    except Exception as exc:  # not only OSError: a server that is not Dask's can answer anything (MemoryError...)
        reason = str(exc) or type(exc).__name__
        raise KbgError(f"cannot reach the Dask scheduler at {address}: {reason}", code="dask-unreachable") from exc
    with client:
        bag: Any = check_files(paths, rules_dirs)
        for future in client.compute(bag.to_delayed()):
            yield from future.result()
