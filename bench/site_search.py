"""How closely the offline site's search (cli/kbg_cli/web/static/search.js) follows `kbg explain`.

    python bench/site_search.py            # agreement per question set, and the time per query
    python bench/site_search.py --diff     # also lists the questions whose answers differ

Every question of tests/explain (written alongside the data: questions-kd.yaml, questions-kot.yaml;
real players' words: real/dev.yaml, real/test.yaml) is asked of kbgrules.explain.search and of the
JavaScript port, which runs in one node process on what the site ships: the index with the second
stage's weights (kbg_cli.web.site.search_index: rules_data/explain-index.json and explain-model.json).
"top-1" counts the questions whose first answer is the same entry, "top-3" those whose first three
are the same entries in the same order; "lang" and "game" compare the language and game read from
the question; "whole" the whole result (same_result: every hit, probabilities, what each term and
each feature gave, confidence, coverage...). tests/test_site_search.py asserts the same agreement.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from kbg_cli.web.site import search_index
from kbgrules.explain import QueryError, search
from kbgrules.explain.store import load_index

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "cli" / "kbg_cli" / "web" / "static" / "search.js"
SETS = {"written kd": "tests/explain/questions-kd.yaml", "written kot": "tests/explain/questions-kot.yaml",
        "real dev": "tests/explain/real/dev.yaml", "real test": "tests/explain/real/test.yaml"}
# Asks every search of the jobs file, timing each, folds its texts and finds the candidates closest
# to its typos; prints the results as JSON.
RUNNER = r"""
const fs = require("fs");
const [script, indexPath, jobsPath] = process.argv.slice(2);
const KbgSearch = require(script);
const index = JSON.parse(fs.readFileSync(indexPath, "utf8"));
const jobs = JSON.parse(fs.readFileSync(jobsPath, "utf8"));
const begin = process.hrtime.bigint();
KbgSearch.search(index, "warm up");
const first = Number(process.hrtime.bigint() - begin) / 1e6;
const results = jobs.searches.map(([query, options]) => {
  const start = process.hrtime.bigint();
  const result = KbgSearch.search(index, query, options);
  return Object.assign(result, {ms: Number(process.hrtime.bigint() - start) / 1e6});
});
const folded = jobs.fold.map(KbgSearch.fold);
const closest = jobs.typos.map((word) => KbgSearch.closest(word, jobs.candidates, 0.7));
process.stdout.write(JSON.stringify({results, folded, closest, first}));
"""


def load_items() -> list[dict[str, Any]]:
    """Every question of the question sets: ``{"set", "q", "game"}``."""
    items = []
    for name, path in SETS.items():
        for q in yaml.safe_load((ROOT / path).read_text(encoding="utf-8"))["questions"]:
            game = q.get("game") or ("kingdomino" if str(q.get("expect", "")).startswith("kd.") else "king-of-tokyo")
            items.append({"set": name, "q": q["q"], "game": game})
    return items


def start_node(node: str, searches: list[list[Any]], folder: str, fold: Sequence[str] = (),
               typos: Sequence[str] = (), candidates: Sequence[str] = (),
               data: dict[str, Any] | None = None) -> subprocess.Popen[str]:
    """node, in the background, running the searches (``[query, options]``) on ``data`` (by default
    what the site ships: the index with the model), folding the texts and finding the candidate
    closest to each typo."""
    runner, jobs = os.path.join(folder, "runner.js"), os.path.join(folder, "jobs.json")
    index = os.path.join(folder, "index.json")
    Path(runner).write_text(RUNNER, encoding="utf-8")
    data = search_index(load_index()) if data is None else data
    Path(index).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    Path(jobs).write_text(json.dumps({"searches": searches, "fold": list(fold), "typos": list(typos),
                                      "candidates": list(candidates)}), encoding="utf-8")
    return subprocess.Popen([node, runner, str(SCRIPT), index, jobs], stdout=subprocess.PIPE, text=True,
                            encoding="utf-8")


def node_results(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"node failed (exit {proc.returncode})")
    data: dict[str, Any] = json.loads(out)
    return data


def python_result(query: str, options: dict[str, Any]) -> dict[str, Any]:
    """kbgrules.explain.search's result in the shape search.js gives it."""
    try:
        r = search(query, **options)
    except QueryError as e:
        return {"error": str(e), "code": e.code}

    def hit(h: Any) -> dict[str, Any]:
        return {"id": h.id, "score": h.score, "why": dict(h.why), "shares": dict(h.shares)}

    return {"hits": [hit(h) for h in r.hits], "lang": r.lang, "game": r.game, "confident": r.confident,
            "confidence": r.confidence, "coverage": r.coverage, "terms": list(r.terms), "notes": list(r.notes),
            "other_game": hit(r.other_game) if r.other_game else None}


def ids(result: dict[str, Any], n: int) -> list[str]:
    return [h["id"] for h in result.get("hits", [])[:n]]


def close(a: float, b: float) -> bool:
    """Equal to their rounding (3 decimals; a last-digit difference allowed)."""
    return abs(a - b) <= 1e-3 + 1e-9


def same_result(p: dict[str, Any], j: dict[str, Any]) -> bool:
    """Everything Python's Result holds, numbers to their rounding."""
    if "error" in p or "error" in j:
        return p == {k: j.get(k) for k in ("error", "code")}
    pairs = list(zip(p["hits"], j["hits"], strict=False))
    return (ids(p, 99) == ids(j, 99)
            and all(close(a["score"], b["score"]) for a, b in pairs)  # probabilities
            and all(sorted(a["why"]) == sorted(b["why"]) for a, b in pairs)  # the terms and phrases each gave
            and all(sorted(a["shares"]) == sorted(b.get("shares", {}))  # and each feature of the second stage
                    and all(close(v, b["shares"][f]) for f, v in a["shares"].items()) for a, b in pairs)
            and all(p[k] == j[k] for k in ("lang", "game", "confident", "terms", "notes"))
            and close(p["coverage"], j["coverage"]) and close(p["confidence"], j["confidence"])
            and (p["other_game"] or {}).get("id") == (j["other_game"] or {}).get("id"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--diff", action="store_true", help="list the questions whose answers differ")
    args = ap.parse_args()
    node = shutil.which("node")
    if node is None:
        print("node is not installed", file=sys.stderr)
        return 1
    items = load_items()
    with tempfile.TemporaryDirectory(prefix="kbg-site-search-") as folder:
        proc = start_node(node, [[it["q"], {}] for it in items], folder)
        search("warm up")  # loads the index, as node's first query does
        py, py_ms = [], []
        for it in items:
            t = time.perf_counter()
            py.append(python_result(it["q"], {}))
            py_ms.append((time.perf_counter() - t) * 1000)
        out = node_results(proc)
    js = out["results"]
    print("| questions | items | top-1 | top-3 | lang | game | whole | node ms/query | Python ms/query |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in [*SETS, "all"]:
        rows = [k for k, it in enumerate(items) if name in ("all", it["set"])]
        n = len(rows)

        def share(same: Any, rows: list[int] = rows, n: int = n) -> str:
            return f"{sum(bool(same(py[k], js[k])) for k in rows) / n:.1%}"

        node_ms = sum(js[k]["ms"] for k in rows) / n
        print(f"| {name} | {n} | {share(lambda p, j: ids(p, 1) == ids(j, 1))} | "
              f"{share(lambda p, j: ids(p, 3) == ids(j, 3))} | {share(lambda p, j: p.get('lang') == j.get('lang'))} | "
              f"{share(lambda p, j: p.get('game') == j.get('game'))} | {share(same_result)} | {node_ms:.2f} | "
              f"{sum(py_ms[k] for k in rows) / n:.1f} |")
    print(f"\nThe first query in node also decodes the index's tables: {out['first']:.0f} ms.")
    if args.diff:
        for it, p, j in zip(items, py, js, strict=True):
            if not same_result(p, j):
                print(f"differ [{it['set']}] {it['q'][:100]!r}\n    python {ids(p, 3)} {p.get('lang')} {p.get('game')}"
                      f" {p.get('confidence')}\n    node   {ids(j, 3)} {j.get('lang')} {j.get('game')}"
                      f" {j.get('confidence')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
