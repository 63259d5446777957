"""How well `kbg explain` finds the right entry: hit@1 and hit@3 over real player questions.

    python bench/explain_hits.py            # prints the figures and the misses
    python bench/explain_hits.py --write    # also rewrites the figures in docs/explain.md

The questions are in tests/explain/questions-*.yaml (English, Korean, French, Vietnamese).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import yaml
from _docs import write_section

from kbgrules.explain import search

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "explain.md"
BEGIN, END = "<!-- hits:begin -->", "<!-- hits:end -->"


def questions() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for path in sorted((ROOT / "tests" / "explain").glob("questions-*.yaml")):
        out.extend(yaml.safe_load(path.read_text(encoding="utf-8"))["questions"])
    return out


def evaluate() -> tuple[dict[str, list[int]], list[tuple[dict[str, str], list[str]]]]:
    per_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    misses = []
    for q in questions():
        hits = [h.id for h in search(q["q"]).hits[:3]]
        row = per_lang[q.get("lang", "en")]
        row[0] += 1
        row[1] += int(bool(hits) and hits[0] == q["expect"])
        row[2] += int(q["expect"] in hits)
        if not hits or hits[0] != q["expect"]:
            misses.append((q, hits))
    return dict(per_lang), misses


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    per_lang, misses = evaluate()
    total = [sum(r[i] for r in per_lang.values()) for i in range(3)]
    lines = ["| language | questions | hit@1 | hit@3 |", "| --- | --- | --- | --- |"]
    for lang, (n, h1, h3) in sorted(per_lang.items()):
        lines.append(f"| {lang} | {n} | {h1 / n:.0%} | {h3 / n:.0%} |")
    lines.append(f"| all | {total[0]} | {total[1] / total[0]:.0%} | {total[2] / total[0]:.0%} |")
    text = f"{BEGIN}\nMeasured with `python bench/explain_hits.py` over tests/explain/questions-*.yaml.\n\n" \
           + "\n".join(lines) + f"\n{END}"
    print(text)
    for q, hits in misses:
        print(f"miss [{q.get('lang', 'en')}] {q['q']!r}: expected {q['expect']}, got {hits}")
    if args.write:
        write_section(DOC, BEGIN, END, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
