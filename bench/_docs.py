"""Shared by the bench scripts: time a call, write a figures section between markers in a docs page."""

from __future__ import annotations

import platform
import time
from collections.abc import Callable
from pathlib import Path


def best_of(repeats: int, fn: Callable[[], object]) -> float:
    """The best wall-clock time, in seconds, of ``repeats`` calls of ``fn``."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def figures(begin: str, end: str, command: str, what: str, rows: list[tuple[str, str]]) -> str:
    """A figures section: how it was measured, then a measure/figure table."""
    machine = f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}"
    table = "\n".join(["| measure | figure |", "| --- | --- |", *(f"| {a} | {b} |" for a, b in rows)])
    return f"{begin}\nMeasured with `{command}` ({machine}; {what}).\n\n{table}\n{end}"


def write_section(doc: Path, begin: str, end: str, text: str, heading: str | None = None) -> None:
    """Replace the text between ``begin`` and ``end`` (``text`` includes both markers)."""
    page = doc.read_text(encoding="utf-8") if doc.exists() else "# Benchmarks\n\n"
    if begin in page:
        page = page[: page.index(begin)] + text + page[page.index(end) + len(end):]
    else:
        page = page.rstrip() + (f"\n\n## {heading}\n\n" if heading else "\n\n") + text + "\n"
    doc.write_text(page, encoding="utf-8")
