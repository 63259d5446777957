"""The one helper that finds the known names closest to a mistyped one.

Candidates are shortlisted by difflib's ratio (no dependency) and kept only within a few typing
mistakes, counted as edits where swapping two neighbouring letters is one edit: ``yeild`` ->
``yield`` and ``Bernad`` -> ``Bernard`` are one edit; ``track`` -> ``stack`` is two, so a real word
is not taken for a typo of another.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


def edits(a: str, b: str, limit: int | None = None) -> int:
    """Typing mistakes between two strings: insertions, deletions, substitutions and swaps of two
    neighbouring letters (optimal string alignment distance). With ``limit``, any count above it may
    come back as ``limit + 1``: a row's smallest count never shrinks, so the work stops there."""
    if a == b:
        return 0
    if limit is not None and abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if limit is not None and min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def allowed_edits(word: str) -> int:
    """How many typing mistakes a word of this length may hold and still be recognised."""
    return 0 if len(word) < 4 else 1 if len(word) < 8 else 2


def closest(word: str, candidates: Iterable[str], n: int = 3, cutoff: float = 0.6,
            max_edits: int | None = None) -> list[str]:
    """Up to ``n`` candidates within ``max_edits`` typing mistakes of ``word`` (default: by its
    length, see :func:`allowed_edits`), fewest mistakes first."""
    import difflib

    limit = allowed_edits(word) if max_edits is None else max_edits
    shortlist = difflib.get_close_matches(word, list(candidates), n=max(10, n), cutoff=cutoff)
    scored = sorted((edits(word, c, limit), i, c) for i, c in enumerate(shortlist))
    return [c for d, _, c in scored if d <= limit][:n]


def similarity(a: str, b: str) -> float:
    """How alike two strings are, from 0 to 1 (difflib's ratio)."""
    import difflib

    return difflib.SequenceMatcher(None, a, b).ratio()


def did_you_mean(word: str, candidates: Iterable[str], n: int = 2, max_edits: int | None = None) -> str:
    """``; did you mean 'x'?`` for the candidates closest to a mistyped ``word``, or nothing."""
    from kbgrules.errors import suggest

    return suggest(list(dict.fromkeys(closest(word, candidates, n=n, max_edits=max_edits))))
