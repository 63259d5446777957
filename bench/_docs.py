"""Shared by the bench scripts: write a figures section between markers in a docs page."""

from __future__ import annotations

from pathlib import Path


def write_section(doc: Path, begin: str, end: str, text: str, heading: str | None = None) -> None:
    """Replace the text between ``begin`` and ``end`` (``text`` includes both markers)."""
    page = doc.read_text(encoding="utf-8") if doc.exists() else "# Benchmarks\n\n"
    if begin in page:
        page = page[: page.index(begin)] + text + page[page.index(end) + len(end):]
    else:
        page = page.rstrip() + (f"\n\n## {heading}\n\n" if heading else "\n\n") + text + "\n"
    doc.write_text(page, encoding="utf-8")
