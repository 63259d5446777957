"""`kbg check` gives the Camouflage dice of the lines after an action before applying it, with no copy of
the state to undo (log.Replay.fed); where they do not fit it replays the game the slow way (each
action undone and applied again with each line's dice). Both ways must give the same report, on logs
with Camouflage as played and with their Camouflage lines spoiled."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from kbgrules.core.check import check_text
from kbgrules.core.compiled import PURE, build
from kbgrules.king_of_tokyo import log
from kbgrules.king_of_tokyo.simulate import simulate_king_of_tokyo

EDITIONS = [(None, ()), ("2011", ()), ("dark", ()), (None, ("power-up",)), ("dark", ("power-up",))]
# the slow replay is patched into the module: compiled (docs/scale.md), the patch would change nothing
pytestmark = pytest.mark.skipif(build() != PURE, reason="patching a compiled module has no effect")


class _SlowReplay(log.Replay):
    """The replay with every action undone and applied again for Camouflage dice (the reference)."""

    @property  # type: ignore[override]
    def fed(self) -> None:
        return None

    @fed.setter
    def fed(self, value: object) -> None:
        pass


def _games() -> list[str]:
    out = []
    for seed in range(60):
        for edition, variants in EDITIONS:
            text = simulate_king_of_tokyo(4, seed, edition, variants)
            if " camouflage " in text:
                out.append(text)
    return out[:40]


def _put(lines: list[str], i: int, *new: str) -> list[str]:
    """``lines`` with line ``i`` replaced by ``new``."""
    return [*lines[:i], *new, *lines[i + 1:]]


def _spoiled(text: str) -> Iterator[str]:
    """The log as played, then each Camouflage line spoiled one way at a time."""
    yield text
    lines = text.splitlines()
    at = [i for i, line in enumerate(lines) if " camouflage " in line]
    players = next(line.split()[1:] for line in lines if line.startswith("@players"))
    for i in at[:3]:
        words = lines[i].split()
        other = next(p for p in players if p != words[0])
        variants = [
            _put(lines, i),  # the dice missing
            _put(lines, i, lines[i], lines[i]),  # dice nobody needs
            _put(lines, i, " ".join(words[:-1])) if len(words) > 3 else None,  # a die short
            _put(lines, i, lines[i] + " h"),  # a die too many
            _put(lines, i, " ".join([other, *words[1:]])),  # another monster's
            [*lines[:i], *lines[i + 1:i + 2], lines[i], *lines[i + 2:]],  # a line late
        ]
        for v in variants:
            if v is not None:
                yield "\n".join(v) + "\n"


def _report(text: str) -> dict[str, Any]:
    out: dict[str, Any] = check_text("c.log", text).to_json(turns=True)
    return out


@pytest.mark.parametrize("n", range(4))
def test_dice_first_gives_the_report_of_the_slow_replay(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [t for k, text in enumerate(_games()) if k % 4 == n for t in _spoiled(text)]
    fast = [_report(t) for t in texts]
    monkeypatch.setattr(log, "Replay", _SlowReplay)
    slow = [_report(t) for t in texts]
    assert len(texts) > 20
    for t, a, b in zip(texts, fast, slow, strict=True):
        assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True), t
    clean = sum(not g["violations"] and not g["errors"] for r in fast for g in r["games"])
    assert 0 < clean < len(fast)  # both logs played cleanly and spoiled ones
