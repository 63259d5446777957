"""Fit the weights of `kbg explain`'s second stage (kbgrules/explain/rerank.py) and write them to
rules_data/explain-model.json.

    python bench/fit_explain.py             # cross-validate, fit on everything, write the model
    python bench/fit_explain.py --check     # cross-validate only; write nothing

Data: the dev part of the real players' words (tests/explain/real/dev.yaml) and the questions
written alongside the data (tests/explain/questions-*.yaml, weighted less: they repeat the data's
phrasings). The frozen test part is never read here. For every question, the first stage's best
candidates (the model's `pool`) are described by their features, twice for a question (which gets
weights of its own on top of the shared ones); a pairwise logistic regression learns to put an
expected entry above every other candidate (each question weighs the same, however many pairs it
gives). The regularisation is chosen by 5-fold cross-validation over the questions, and the same
out-of-fold answers calibrate the confidence (a logistic curve of how often a first answer was right
on dev against its probability and the question's form) and set `sure`, the lowest confidence from
which the first answers on dev were right 9 times in 10. Needs numpy and scikit-learn (the `fit`
extra); the query path does not.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
from explain_hits import load
from sklearn.linear_model import LogisticRegression

from kbgrules.explain.rank import first_stage
from kbgrules.explain.rerank import FEATURES, MODEL_VERSION, SURE, model_path, probabilities

POOL = 25
WRITTEN_WEIGHT = 0.5  # a written question counts half a real one
FOLDS = 5
MIN_SURE = 20  # the level of sure answers is judged on at least this many


def logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def rows(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each item's candidates: features, and which are expected."""
    out = []
    for item in items:
        stage = first_stage(item["q"])
        cands = stage.rows(POOL)
        if not cands:
            continue
        ids = [stage.view.meta[n][0] for n, _, _ in cands]
        x = np.array([x for _, _, x in cands], dtype=float)
        question = stage.query.form == "question"  # a question's own weights: x again
        out.append({"item": item, "ids": ids, "x": np.hstack([x, x * question]), "question": question,
                    "y": np.array([i in item["expect"] for i in ids], dtype=bool)})
    return out


def pairs(data: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Differences (expected - other) and their mirror, each question weighing its item weight."""
    xs, ys, ws = [], [], []
    for d in data:
        pos, neg = d["x"][d["y"]], d["x"][~d["y"]]
        if not len(pos) or not len(neg):
            continue
        diff = (pos[:, None, :] - neg[None, :, :]).reshape(-1, pos.shape[1])
        w = d["weight"] / len(diff)
        xs += [diff, -diff]
        ys += [np.ones(len(diff)), np.zeros(len(diff))]
        ws += [np.full(len(diff), w), np.full(len(diff), w)]
    return np.vstack(xs), np.concatenate(ys), np.concatenate(ws)


def fit(data: list[dict[str, Any]], c: float) -> np.ndarray:
    x, y, w = pairs(data)
    lr = LogisticRegression(C=c, fit_intercept=False, max_iter=5000)
    lr.fit(x, y, sample_weight=w * len(data))
    return np.asarray(lr.coef_[0])


def judge(data: list[dict[str, Any]], weights: np.ndarray) -> list[tuple[bool, bool, float]]:
    """Per question: first answer right, right among three, the first answer's probability."""
    out = []
    for d in data:
        z = d["x"] @ weights
        order = sorted(range(len(z)), key=lambda i: (-z[i], i))
        p = probabilities([float(z[i]) for i in order])
        out.append((bool(d["y"][order[0]]), bool(d["y"][order[:3]].any()), p[0]))
    return out


def folds(data: list[dict[str, Any]], c: float) -> list[tuple[bool, bool, float]]:
    """Out-of-fold judgements: each question scored by weights fitted without it."""
    out: list[tuple[bool, bool, float] | None] = [None] * len(data)
    for k in range(FOLDS):
        train = [d for i, d in enumerate(data) if i % FOLDS != k]
        held = [i for i in range(len(data)) if i % FOLDS == k]
        w = fit(train, c)
        for i, r in zip(held, judge([data[i] for i in held], w), strict=True):
            out[i] = r
    return [r for r in out if r is not None]


def calibrate(judged: list[tuple[bool, bool, float]], questions: list[bool]) -> tuple[float, float, float]:
    """How often a first answer is right, as a function of its probability and of the question's form:
    a logistic curve ``a + b * logit(p) + c * question``, fitted on out-of-fold answers."""
    x = np.array([[logit(p), float(q)] for (_, _, p), q in zip(judged, questions, strict=True)])
    y = np.array([h1 for h1, _, _ in judged])
    lr = LogisticRegression(C=10.0).fit(x, y)
    return float(lr.intercept_[0]), float(lr.coef_[0][0]), float(lr.coef_[0][1])


def confidence(p: float, question: bool, a: float, b: float, c: float) -> float:
    return 1 / (1 + math.exp(-(a + b * logit(p) + c * question)))


def sure_level(judged: list[tuple[bool, bool, float]], questions: list[bool], cal: tuple[float, float, float]) -> float:
    """The lowest calibrated confidence from which the first answers were right at least SURE of the
    time (counting at least MIN_SURE answers); 1.0 (never sure) when no level is."""
    ranked = sorted(((confidence(p, q, *cal), h1) for (h1, _, p), q in zip(judged, questions, strict=True)),
                    reverse=True)
    level, right = 1.0, 0
    for k, (c, h1) in enumerate(ranked, 1):
        right += h1
        if k >= MIN_SURE and right / k >= SURE and (k == len(ranked) or ranked[k][0] < c):
            level = c
    return max(level, 0.5)


def sure_answers(judged: list[tuple[bool, bool, float]], questions: list[bool],
                 cal: tuple[float, float, float], level: float) -> list[bool]:
    """Which first answers are sure: their calibrated confidence reaches ``level``."""
    return [confidence(p, q, *cal) >= level for (_, _, p), q in zip(judged, questions, strict=True)]


def report(name: str, judged: list[tuple[bool, bool, float]], sure: list[bool]) -> str:
    n = len(judged)
    h1 = sum(r[0] for r in judged) / n
    h3 = sum(r[1] for r in judged) / n
    conf = [r for r, s in zip(judged, sure, strict=True) if s]
    prec = sum(r[0] for r in conf) / len(conf) if conf else 0.0
    return (f"{name}: {n} questions, hit@1 {h1:.1%}, hit@3 {h3:.1%}, sure {len(conf) / n:.0%} "
            f"of answers, right {prec:.1%} when sure")


def figures(judged: list[tuple[bool, bool, float]], sure: list[bool]) -> dict[str, float]:
    right = sum(r[0] for r, s in zip(judged, sure, strict=True) if s)
    return {"hit1": round(sum(r[0] for r in judged) / len(judged), 4),
            "hit3": round(sum(r[1] for r in judged) / len(judged), 4),
            "sure_share": round(sum(sure) / len(judged), 4), "sure_right": round(right / max(1, sum(sure)), 4)}


def main() -> int:
    os.environ["KBG_NO_PLUGINS"] = "1"  # kbg as shipped: a plug-in game installed here would change the index
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="cross-validate only")
    ap.add_argument("--c", type=float, action="append", help="regularisation strengths to try")
    args = ap.parse_args()
    dev = rows(load("dev"))
    written = rows(load("written"))
    for d in dev:
        d["weight"] = 1.0
    for d in written:
        d["weight"] = WRITTEN_WEIGHT
    data = dev + written
    cs = sorted(args.c or [0.03, 0.1, 0.3, 1.0, 3.0, 10.0])
    questions = [d["question"] for d in data]
    scores = {}
    for c in cs:
        judged = folds(data, c)
        dev_j = judged[:len(dev)]
        scores[c] = sum(r[0] for r in dev_j) + 0.5 * sum(r[1] for r in dev_j)
        cal = calibrate(dev_j, questions[:len(dev)])
        sure = sure_answers(dev_j, questions[:len(dev)], cal, sure_level(dev_j, questions[:len(dev)], cal))
        print(f"C={c:g}: " + report("dev (out of fold)", dev_j, sure))
    # the strongest regularisation within a point of the best: differences smaller than that are noise here
    best_c = next(c for c in cs if scores[c] >= max(scores.values()) - 0.01 * len(dev))
    judged = folds(data, best_c)
    cal = calibrate(judged[:len(dev)], questions[:len(dev)])
    level = sure_level(judged[:len(dev)], questions[:len(dev)], cal)
    sure = sure_answers(judged, questions, cal, level)
    print(f"chosen C={best_c:g}; calibration a={cal[0]:.3f} b={cal[1]:.3f} question={cal[2]:.3f}; "
          f"sure from confidence {level:.3f}")
    print(report("dev (out of fold)", judged[:len(dev)], sure[:len(dev)]))
    print(report("written (out of fold)", judged[len(dev):], sure[len(dev):]))
    weights = fit(data, best_c)
    names = [*FEATURES, *(f"question:{f}" for f in FEATURES)]
    for f, w in sorted(zip(names, weights, strict=True), key=lambda fw: -abs(fw[1])):
        print(f"  {w:+8.3f}  {f}")
    if args.check:
        return 0
    model = {
        "version": MODEL_VERSION,
        "features": list(FEATURES),
        "weights": [round(float(w), 5) for w in weights[:len(FEATURES)]],
        "question_weights": [round(float(w), 5) for w in weights[len(FEATURES):]],
        "pool": POOL,
        "calibration": [round(v, 4) for v in cal],
        "sure": round(level, 4),
        "fitted": {
            "by": "bench/fit_explain.py", "date": datetime.date.today().isoformat(), "c": best_c,
            "questions": {"dev": len(dev), "written": len(written)},
            "dev_out_of_fold": figures(judged[:len(dev)], sure[:len(dev)]),
            "written_out_of_fold": figures(judged[len(dev):], sure[len(dev):]),
        },
    }
    Path(model_path()).write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {model_path()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
