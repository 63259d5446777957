"""One escaping path for everything kbg writes (issue 25): whatever comes from a log, a rule file or an
argument reaches a terminal or a pipe with its control characters written out (``\\x1b``), in every
command. Each command below runs the real ``kbg`` on a log whose player is named with escape sequences
and with a rule folder whose titles hold them; no raw C0 or C1 control character may come out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

EVIL = "A\x1b]0;pwned\x07\x1b[2J\x9b31m"
RULES = """\
kind: rules
game: kingdomino
rules:
  kd.house.evil:
    title: "X\\u001b]0;pwned\\u0007\\u001b[2J"
    text: "Evil \\u001b[31mrule\\u009b text."
    sources: [{doc: R1, section: "S\\u001b[2J"}]
    related: [kd.setup.players]
  kd.house.other:
    title: Other house rule
    text: Another house rule about the kingdom.
    sources: [{doc: R1, section: Connecting dominoes}]
    related: [kd.house.evil]
---
"""
VARIANT = """\
kind: variant
game: kingdomino
id: evil
title: "Evil \\u001b[5m variant"
summary: "A house rule \\u001b]0;x\\u0007 with escapes."
sources: [{doc: R1, section: Connecting dominoes}]
patch: {}
"""


def _raw_controls(text: str) -> list[str]:
    return [repr(c) for c in text if (ord(c) < 32 and c not in "\n") or 0x7F <= ord(c) < 0xA0]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("escapes")
    (d / "rules").mkdir()
    (d / "rules" / "evil.yaml").write_text(RULES.split("---")[0], encoding="utf-8")
    (d / "rules" / "variant.yaml").write_text(VARIANT, encoding="utf-8")
    for game, name in (("kingdomino", "two-players"), ("king-of-tokyo", "annotated")):
        text = (ROOT / "examples" / game / f"{name}.log").read_text(encoding="utf-8")
        player = "Ann"
        (d / f"{game}.log").write_text(text.replace(player, EVIL), encoding="utf-8")
    return d


COMMANDS = [
    ["check", "{d}/kingdomino.log"], ["check", "{d}/king-of-tokyo.log"], ["show", "{d}/kingdomino.log"],
    ["show", "{d}/king-of-tokyo.log"], ["check", "--summary", "{d}/kingdomino.log"],
    ["check", "{d}/kingdomino.log", "--html", "{d}/out.html"], ["--rules", "{d}/rules", "list"],
    ["--rules", "{d}/rules", "rules", "kd"], ["--rules", "{d}/rules", "rules", "kd", "kd.house.evil"],
    ["--rules", "{d}/rules", "explain", "kd.house.other"], ["--rules", "{d}/rules", "explain", "kd.house.evil"],
    ["--rules", "{d}/rules", "explain", "evil rule"], ["--rules", "{d}/rules", "setup", "kd", "-p", "2", "-v", "evil"],
    ["--rules", "{d}/rules", "setup", "kd", "-p", "2", "-v", "\x1b[31m"], ["check", "{d}/\x1b[2J.log"],
    ["rules", "kd", "\x1b]0;x\x07"], ["explain", "\x1b[2J yield \x9b"], ["setup", "\x1b[31mkd"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a).replace("{d}/", "") for a in COMMANDS])
def test_no_raw_control_character_reaches_the_output(hostile: Path, argv: list[str]) -> None:
    args = [a.replace("{d}", str(hostile)) for a in argv]
    r = subprocess.run([sys.executable, "-m", "kbg_cli", *args], capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin", "HOME": str(hostile),
                                                      "XDG_CACHE_HOME": str(hostile / "cache")})
    assert r.returncode in (0, 1, 2), r.stderr
    assert "Traceback" not in r.stderr
    assert not _raw_controls(r.stdout), (_raw_controls(r.stdout)[:3], r.stdout[:400])
    assert not _raw_controls(r.stderr), (_raw_controls(r.stderr)[:3], r.stderr[:400])
