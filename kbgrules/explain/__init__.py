"""``kbg explain``: answers from the rule data, in the words players use.

- :mod:`kbgrules.explain.text` reads a question, and the rule data, into terms and glossary concepts;
- :mod:`kbgrules.explain.index` builds the index from the rule data (``python -m kbgrules.explain --build``);
- :mod:`kbgrules.explain.rank` ranks the entries for a question.

>>> from kbgrules.explain import search
>>> search("can I heal in tokyo?").best.id
'kot.faq.heal-in-tokyo'
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
    search,
    topics,
)

__all__ = ["Hit", "QueryError", "Result", "check_query", "document_title", "entries_path", "game_id", "games",
           "index_path", "load_index", "lookup", "search", "topics"]
