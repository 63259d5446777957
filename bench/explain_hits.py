"""How well `kbg explain` finds the right entry: hit@1 and hit@3 over real players' words.

    python bench/explain_hits.py                 # both parts of the real corpus, with the misses of dev
    python bench/explain_hits.py --part test     # one part; --misses shows its misses too
    python bench/explain_hits.py --write         # also rewrites the figures in docs/explain.md

The corpus is tests/explain/real/{test,dev}.yaml: questions and rule statements found in public
forums, Q&A pages and reviews, each with the entries that answer it. The TEST part is frozen and
never tuned on; DEV is. tests/explain/questions-*.yaml (phrasings written alongside the data) are
reported apart as "written": they measure what the index remembers, not understanding.
A hit is an expected entry among the first 1 or 3; "other game" counts first answers from the
game the item is not about; "sure" counts the answers kbg gives as an answer rather than as the
closest three, and "right when sure" how many of those were right first.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml
from _docs import write_section

from kbgrules.explain import search

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "explain.md"
BEGIN, END = "<!-- hits:begin -->", "<!-- hits:end -->"
GAME = {"king-of-tokyo": "kot", "kingdomino": "kd"}


def load(part: str) -> list[dict[str, Any]]:
    if part == "written":
        out: list[dict[str, Any]] = []
        for path in sorted((ROOT / "tests" / "explain").glob("questions-*.yaml")):
            for q in yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]:
                game = "kingdomino" if q["expect"].startswith("kd.") else "king-of-tokyo"
                out.append({**q, "expect": [q["expect"]], "game": game, "kind": "written",
                            "lang": q.get("lang", "en")})
        return out
    data = yaml.safe_load((ROOT / "tests" / "explain" / "real" / f"{part}.yaml").read_text(encoding="utf-8"))
    return list(data["questions"])


Rows = dict[tuple[str, str], list[int]]


def evaluate(items: list[dict[str, Any]]) -> tuple[Rows, list[tuple[dict[str, Any], list[str]]]]:
    """Rows keyed by (dimension, value): [items, hit@1, hit@3, other game first, sure, right when sure]."""
    rows: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    misses = []
    for q in items:
        try:
            result = search(q["q"])
        except Exception:  # a query the library refuses counts as a miss
            result = None
        hits = [h.id for h in result.hits[:3]] if result else []
        h1 = bool(hits) and hits[0] in q["expect"]
        h3 = any(h in q["expect"] for h in hits)
        other = bool(result and result.hits) and result.hits[0].entry["game"] != q["game"]
        sure = bool(result and result.confident)
        for key in (("all", "all"), ("lang", q["lang"]), ("game", GAME[q["game"]]), ("kind", q["kind"])):
            r = rows[key]
            r[0] += 1
            r[1] += h1
            r[2] += h3
            r[3] += other
            r[4] += sure
            r[5] += sure and h1
        if not h1:
            misses.append((q, hits))
    return dict(rows), misses


def table(title: str, rows: Rows) -> list[str]:
    lines = [f"**{title}**", "", "| | items | hit@1 | hit@3 | other game first | sure | right when sure |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    order = {"all": 0, "kind": 1, "game": 2, "lang": 3}
    for (dim, val), (n, h1, h3, other, sure, right) in sorted(rows.items(),
                                                              key=lambda kv: (order[kv[0][0]], kv[0][1])):
        label = "all" if dim == "all" else f"{dim} {val}"
        when = f"{right / sure:.0%} ({right}/{sure})" if sure else "-"
        lines.append(f"| {label} | {n} | {h1 / n:.0%} | {h3 / n:.0%} | {other / n:.0%} | {sure / n:.0%} | {when} |")
    return lines


def main() -> int:
    os.environ["KBG_NO_PLUGINS"] = "1"  # kbg as shipped: a plug-in game installed here would change the index
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=["test", "dev", "written"], action="append")
    ap.add_argument("--misses", action="store_true", help="show the misses of every part measured")
    ap.add_argument("--write", action="store_true", help="rewrite the figures in docs/explain.md")
    args = ap.parse_args()
    parts = args.part or ["test", "dev", "written"]
    out: list[str] = []
    for part in parts:
        rows, misses = evaluate(load(part))
        title = {"test": "Test part (frozen, never tuned on)", "dev": "Dev part (tuned on)",
                 "written": "Written alongside the data (memory, not understanding)"}[part]
        out += [*table(title, rows), ""]
        if args.misses or part == "dev":
            for q, hits in misses:
                print(f"miss [{part} {q['lang']} {q['kind']}] {q['q'][:110]!r}\n    expected {q['expect']}, got {hits}",
                      file=sys.stderr)
    text = f"{BEGIN}\nMeasured with `python bench/explain_hits.py --write`.\n\n" + "\n".join(out).rstrip() + f"\n{END}"
    print(text)
    if args.write:
        write_section(DOC, BEGIN, END, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
