"""The pages' examples show kbg as shipped.

README.md and docs/library.md are doctested from the top folder (pyproject's testpaths), so the
fixture that hides a plug-in game installed here (tests/plugins/, installed by the test command)
from their examples lives here; tests/test_docs.py does the same for the pages' commands.
"""

from __future__ import annotations

import pytest

SHIPPED_PAGES = ("README.md", "library.md")


@pytest.fixture(autouse=True)
def _pages_show_kbg_as_shipped(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.path.name in SHIPPED_PAGES:
        monkeypatch.setenv("KBG_NO_PLUGINS", "1")
