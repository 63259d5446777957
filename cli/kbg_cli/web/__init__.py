"""HTML pages: the report of checked games (``kbg check --html``, ``kbg show --html``) and the offline
rules reference (``kbg site``).

Pages are Jinja2 templates (``templates/``) filled from view data built here, with pictures from
:mod:`.svg`; CSS and scripts are inlined from ``static/``, so every page works from a file, with
no server and no network. Nothing here is imported unless a page is asked for.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def environment() -> Any:
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    from .svg import SERIES

    env.globals.update(static=static, colours=SERIES)
    return env


def render(template: str, **context: Any) -> str:
    return str(environment().get_template(template).render(**context))


@lru_cache(maxsize=8)
def static(name: str) -> Any:
    """A file of ``static/`` to inline (its text, marked safe: it is ours)."""
    from markupsafe import Markup

    return Markup((HERE / "static" / name).read_text(encoding="utf-8"))
