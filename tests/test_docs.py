"""Every shell example in README.md and docs/*.md runs, from a fresh folder, and prints what the page shows.

A page's fenced blocks are read in order, in one temporary folder per page that holds copies of
``examples/`` and ``docs/examples/``:

- a block whose first line is ``# PATH`` (``# my-rules/mk-window.yaml``) is a file the page asks the
  reader to write: it is written there, comment included;
- in a block of ``$ COMMAND`` lines, each command runs with ``bash`` (``kbg`` is this checkout's
  command, ``.venv/bin/python`` this interpreter, ``/tmp/`` the page's folder) and what it prints,
  stderr then stdout or stdout then stderr, must be the lines that follow it. A ``...`` line stands
  for lines left out, and run times ``(0.1 s)`` may differ. ``$ cat FILE`` of a file that does not
  exist yet writes it with the lines shown;
- in an ``sh`` block of bare commands (the quick start), each line must run without a traceback
  and exit 0 or 1 (1: a log with a violation shown on purpose);
- ``<!-- not run: REASON -->`` just before a block skips it (it needs a machine the tests do not
  have), with the reason said there;
- the pages show kbg as shipped: the commands run with ``KBG_NO_PLUGINS=1``, but those of
  docs/plugins.md, which shows the plug-in game of ``tests/plugins/`` (installed by the test command).

The examples' input files must come out of the run unchanged.
"""

from __future__ import annotations

import filecmp
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]
PLUGIN_PAGES = ("docs/plugins.md",)  # its examples need the plug-in game of tests/plugins installed
FENCE = re.compile(r"^(<!-- not run: [^>]+ -->\n)?```(\w*)\n(.*?)^```", re.M | re.S)
TIME = re.compile(r"\(\d+(?:\.\d+)? s\)")


@dataclass
class Block:
    line: int
    lang: str
    text: str
    skipped: bool


def blocks(page: str) -> list[Block]:
    text = (ROOT / page).read_text(encoding="utf-8")
    return [Block(text.count("\n", 0, m.start(3)) + 1, m.group(2), m.group(3), bool(m.group(1)))
            for m in FENCE.finditer(text)]


def _file_target(b: Block) -> str | None:
    first = b.text.split("\n", 1)[0]
    m = re.fullmatch(r"# (\S+\.(?:yaml|yml|log|grid))", first)
    return m.group(1) if m else None


def _sessions(b: Block) -> list[tuple[int, str, list[str]]]:
    """The ``$ COMMAND`` lines of a block, each with its line number and the lines shown after it."""
    out: list[tuple[int, str, list[str]]] = []
    for i, line in enumerate(b.text.split("\n")[:-1]):
        if line.startswith("$ "):
            out.append((b.line + i, line[2:], []))
        elif out:
            out[-1][2].append(line)
    return out


def _json_tight(text: str) -> str:
    """JSON text without the white space outside its strings, so a page may show it compactly."""
    out: list[str] = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            escaped = not escaped and ch == "\\"
            in_string = escaped or ch != '"'
        elif ch == '"':
            in_string = True
        elif ch.isspace():
            continue
        out.append(ch)
    return "".join(out)


def _normal(text: str) -> str:
    text = TIME.sub("(T s)", text.strip("\n"))
    return re.sub(r"^={3,}$", "===", text, flags=re.M)  # a heading's rule is as long as its (path-bearing) heading


def _matches(shown: list[str], printed: str) -> bool:
    """``printed`` is ``shown``, where a ``...`` line stands for any lines and ``...`` in a line for any
    text; JSON is compared without the white space between its tokens."""
    expected, printed = _normal("\n".join(shown)), _normal(printed)
    if printed.startswith(("{", "[")):
        expected, printed = _json_tight(expected), _json_tight(printed)
    parts = f"\n{expected}\n".replace("\n...\n", "\n...").split("...")
    printed = f"\n{printed}\n"
    if len(parts) == 1:
        return printed == parts[0]
    if not printed.startswith(parts[0]) or not printed.endswith(parts[-1]):
        return False
    at = len(parts[0])
    for part in parts[1:-1]:  # leftmost matches: a wildcard pattern matches if and only if these do
        found = printed.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return at <= len(printed) - len(parts[-1])


def _run(command: str, folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = command.replace("/tmp/", f"{folder}/").replace(".venv/bin/python", sys.executable)  # this order:
    # the interpreter itself may live under /tmp/ (a clean clone in CI)
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=120)


def _folder(tmp: Path) -> tuple[Path, dict[str, str]]:
    shutil.copytree(ROOT / "examples", tmp / "examples")
    shutil.copytree(ROOT / "docs" / "examples", tmp / "docs" / "examples")
    bin_dir = tmp / ".bin"
    bin_dir.mkdir()
    (bin_dir / "kbg").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kbg_cli "$@"\n', encoding="utf-8")
    (bin_dir / "kbg").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "KBG_RULES", "NO_COLOR", "KBG_DEBUG")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "cli"), str(ROOT), env.get("PYTHONPATH")) if p)
    return tmp, env


@pytest.mark.parametrize("page", PAGES)
def test_examples_on_the_page_are_true(page: str, tmp_path: Path) -> None:
    folder, env = _folder(tmp_path)
    if page not in PLUGIN_PAGES:  # the pages show kbg as shipped; a plug-in game installed here is hidden
        env["KBG_NO_PLUGINS"] = "1"
    problems: list[str] = []
    ran = 0
    for b in blocks(page):
        if b.skipped:
            continue
        target = _file_target(b)
        if target:
            path = folder / target.replace("/tmp/", "").lstrip("/")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(b.text, encoding="utf-8")
            continue
        for line, command, shown in _sessions(b):
            cat = re.fullmatch(r"cat (\S+)", command)
            if cat and not (folder / cat.group(1).replace("/tmp/", "")).exists():
                path = folder / cat.group(1).replace("/tmp/", "")
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("\n".join(shown).rstrip("\n") + "\n", encoding="utf-8")
                continue
            r = _run(command, folder, env)
            ran += 1
            printed = [(r.stderr + r.stdout), (r.stdout + r.stderr)]
            printed = [p.replace(f"{folder}/", "/tmp/") for p in printed]
            if "Traceback" in r.stderr or not any(_matches(shown, p) for p in printed):
                problems.append(f"{page}:{line}: $ {command}\n--- the page shows:\n" + "\n".join(shown)
                                + f"\n--- it prints (exit {r.returncode}):\n{printed[0]}")
        if b.lang == "sh":
            for i, line_text in enumerate(b.text.split("\n")):
                command = re.split(r"\s#\s", line_text)[0].strip()
                if not command or command.startswith(("#", "$")):
                    continue
                r = _run(command, folder, env)
                ran += 1
                if r.returncode not in (0, 1) or "Traceback" in r.stderr:
                    problems.append(f"{page}:{b.line + i}: {command}: exit {r.returncode}\n{r.stderr}")
    assert not problems, "\n\n".join(problems)
    for sub in ("examples", "docs/examples"):
        cmp = filecmp.dircmp(ROOT / sub, folder / sub)
        assert not (cmp.diff_files or cmp.left_only), f"{sub} changed: {cmp.diff_files} {cmp.left_only}"
    if page in ("README.md", "docs/cli.md"):
        assert ran > 10  # the pages that are mostly examples keep them runnable
