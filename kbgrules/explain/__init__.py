"""``kbg explain``: answers from the rule data, in the words players use.

- :mod:`kbgrules.explain.text` reads a question, and the rule data, into terms, and
  :mod:`kbgrules.explain.concepts` into glossary concepts;
- :mod:`kbgrules.explain.index` builds the index from the rule data (``python -m kbgrules.explain --build``),
  stored as :mod:`kbgrules.explain.packed` says and read by :mod:`kbgrules.explain.store`;
- :mod:`kbgrules.explain.rank` ranks the entries for a question (and :mod:`kbgrules.explain.rerank` re-ranks them).

Any entry is found by its id, and an FAQ entry by its question:

>>> from kbgrules.explain import search, topics
>>> faq = next(t for t in topics() if t["kind"] == "faq")
>>> search(faq["id"]).best.id == faq["id"], search(faq["title"]).best.id == faq["id"]
(True, True)
"""

from kbgrules.explain.rank import QueryError, Result, check_query, search
from kbgrules.explain.store import (
    Hit,
    document_title,
    entries_path,
    game_id,
    games,
    index_path,
    load_index,
    lookup,
    role_of,
    topics,
)

__all__ = ["Hit", "QueryError", "Result", "check_query", "document_title", "entries_path", "game_id", "games",
           "index_path", "load_index", "lookup", "role_of", "search", "topics"]
