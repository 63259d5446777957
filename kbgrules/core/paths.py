"""Where the shipped rule data lives (imports nothing heavy: used on start-up paths)."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

ENV_RULES = "KBG_RULES"


def data_dir() -> str:
    """The shipped ``rules_data`` directory as a string: inside the installed package, or beside it
    in a checkout (``kbg explain``'s start-up path: no pathlib)."""
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # kbgrules/
    for candidate in (os.path.join(package, "rules_data"), os.path.join(os.path.dirname(package), "rules_data")):
        if os.path.isdir(os.path.join(candidate, "schema")):
            return candidate
    from kbgrules.errors import KbgError

    raise KbgError("the shipped rule data (rules_data/) is missing from this installation", code="no-data")


def data_root() -> Path:
    """The shipped ``rules_data`` directory."""
    from pathlib import Path

    return Path(data_dir())


def cache_dir() -> str | None:
    """The user's cache folder for kbg (``$XDG_CACHE_HOME/kbg``, by default ``~/.cache/kbg``), where what
    is slow to make is kept (the explain index with the user's or plug-in games' data, a plug-in game's
    checked files); None with ``KBG_NO_CACHE=1``."""
    if os.environ.get("KBG_NO_CACHE", "").lower() in ("1", "true", "yes"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "kbg")


def rules_dirs_from_env() -> list[str]:
    """Directories named by the ``KBG_RULES`` environment variable (os.pathsep-separated)."""
    return [p for p in os.environ.get(ENV_RULES, "").split(os.pathsep) if p.strip()]
