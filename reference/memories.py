"""Memory operations of the store (seed 000 §3-§4): write, get, delete, list, search.

`Memories` holds one store's components and its in-memory indexes (the label filter index,
and the keyword and id indexes that follow its write notes); the operations are plain
functions on it, one module per concept:

- `memory_writes.py`: write, write a batch, update metadata, delete (one tracker
  transaction each; the filter index told after the commit);
- `memory_insert.py`: ids (`derive_memory_id`), keys, blob records and rows;
- `memory_search.py`: cosine and keyword rankings, and both lists for rank fusion;
- `memory_args.py`: `InvalidArgument`, `check_memory_id`, counts.

Rankings break ties by id ascending.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from reference import memory_search, memory_writes
from reference.blob import Blob
from reference.clock import Clock
from reference.embed import Embedder
from reference.memory_args import InvalidArgument, check_count, check_memory_id
from reference.memory_input import check_tags
from reference.memory_insert import MAX_SALT, derive_memory_id
from reference.memory_record import MemoryEntry
from reference.ontology import check_context, check_insights, check_task
from reference.tracker import MemoryFilter, Tracker, check_where_metadata
from reference.tracker.filter_index import FilterIndex
from reference.tracker.id_index import IdIndex
from reference.tracker.keyword_index import KeywordIndex
from reference.tracker.memories_table import ORDER_NEWEST
from reference.vectors import VectorCache

__all__ = ["InvalidArgument", "MAX_SALT", "Memories", "check_memory_id", "derive_memory_id"]


class Memories:
    """Memory rows, blob records and vectors of one store."""

    def __init__(self, tracker: Tracker, blob: Blob, vectors: VectorCache, embedder: Embedder, clock: Clock,
                 redactor: Callable[[str], str] | None = None) -> None:
        self.tracker, self.blob, self.vectors, self.embedder = tracker, blob, vectors, embedder
        self.clock, self.redactor = clock, redactor
        self.filter_index = FilterIndex()

    # -- writing (memory_writes.py) ------------------------------------------------
    write = memory_writes.write
    write_many = memory_writes.write_many
    update_metadata = memory_writes.update_metadata
    delete = memory_writes.delete

    # -- reading -----------------------------------------------------------------
    def get(self, memory_id: str) -> MemoryEntry | None:
        """Seed 000 §4.1: look the row up by hash64(memory_id)."""
        entry = self.tracker.get_memory_by_key(self.tracker.hash_fn(check_memory_id(memory_id)))
        return entry if entry is not None and entry.id == memory_id else None

    def filter(self, task: Any = None, context: Any = None, insights: Any = None, tags: Any = None,
               where_metadata: Any = None) -> MemoryFilter:
        """Validated filters (unknown slugs raise `UnknownSlug`)."""
        if isinstance(context, str) or isinstance(insights, str):
            raise InvalidArgument("context and insights filters must be lists of slugs, not a string")
        return MemoryFilter(task=check_task(task), context=tuple(check_context(context)),
                            insights=tuple(check_insights(insights)), tags=check_tags(tags),
                            where_metadata=check_where_metadata(where_metadata))

    def list(self, flt: MemoryFilter, limit: int = 50, offset: int = 0) -> list[MemoryEntry]:
        """Newest first (created_at descending, then id ascending)."""
        return self.tracker.memories.query(self.tracker.conn(), flt, order=ORDER_NEWEST,
                                           limit=check_count("limit", limit), offset=check_count("offset", offset))

    def iter(self, flt: MemoryFilter) -> Iterator[MemoryEntry]:
        """Oldest first, streamed in batches."""
        return self.tracker.memories.iter(self.tracker.conn(), flt)

    # -- searching (memory_search.py) ----------------------------------------------
    search = memory_search.search
    keyword = memory_search.keyword
    ranked_ids = memory_search.ranked_ids
    ranked_lists = memory_search.ranked_lists
    vector_scores = memory_search.vector_scores

    @functools.cached_property
    def keyword_index(self) -> KeywordIndex:
        """bm25 rankings without FTS5's per-row work; follows the filter index's write notes."""
        index = KeywordIndex()
        self.filter_index.followers.append(index)
        return index

    @functools.cached_property
    def id_index(self) -> IdIndex:
        """key hash -> memory id from memory instead of SQL; follows the filter index's write notes."""
        index = IdIndex(self.tracker.memories)
        self.filter_index.followers.append(index)
        return index

    def candidates(self, flt: MemoryFilter) -> np.ndarray:
        """Key hashes (sorted uint64) of the memories passing `flt`, from the label index."""
        return self.filter_index.candidates(self.tracker.conn(), flt)

    def embed_query(self, query: str) -> np.ndarray:
        if not isinstance(query, str):
            raise InvalidArgument(f"query must be a string, got {type(query).__name__}")
        return self.embedder.embed([query])[0]
