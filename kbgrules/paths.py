"""Where the shipped rule data lives (imports nothing heavy: used on start-up paths)."""

from __future__ import annotations

from pathlib import Path


def data_root() -> Path:
    """The shipped ``rules_data`` directory: inside the installed package, or beside it in a checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "rules_data", here.parent / "rules_data"):
        if (candidate / "schema").is_dir():
            return candidate
    from .errors import KbgError

    raise KbgError("the shipped rule data (rules_data/) is missing from this installation", code="no-data")
