"""Named rankers: each seed's retrieval design over the same store primitives.

`make_ranker(name, store)` builds one; `RANKERS` lists the names. The
reference backend takes the name as its option (`reference:memory-lane`), so
one run can score the designs side by side.
"""
from reference.rankers.base import Query, Ranker
from reference.rankers.registry import DEFAULT_RANKER, RANKERS, make_ranker, register_ranker

__all__ = ["DEFAULT_RANKER", "Query", "RANKERS", "Ranker", "make_ranker", "register_ranker"]
