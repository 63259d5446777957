"""``kbg explain``: answers from the rule data, in the words players use.

- :mod:`kbgrules.explain.text` reads a question, and the rule data, into terms and glossary concepts;
- :mod:`kbgrules.explain.index` builds the index from the rule data (``python -m kbgrules.explain --build``);
- :mod:`kbgrules.explain.rank` ranks the entries for a question.

Any entry is found by its id, and an FAQ entry by its question:

>>> from kbgrules.explain import search, topics
>>> faq = next(t for t in topics() if t["kind"] == "faq")
>>> search(faq["id"]).best.id == faq["id"], search(faq["title"]).best.id == faq["id"]
(True, True)
"""

from kbgrules.explain.rank import (
    Hit,
    QueryError,
    Result,
    check_query,
    document_title,
    entries_path,
    game_id,
    games,
    index_path,
    load_index,
    lookup,
    role_of,
    search,
    topics,
)

__all__ = ["Hit", "QueryError", "Result", "check_query", "document_title", "entries_path", "game_id", "games",
           "index_path", "load_index", "lookup", "role_of", "search", "topics"]
