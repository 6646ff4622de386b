"""The store's vectors as the relationship rules read them: nearest eligible memories and cosines.

`RelationshipBuilder` gets both bound to one store (`KnowledgeLayer.__init__`). A live
batch brings its own neighbours (`neighbours.live_neighbours`), so `similar` serves only a
memory ingested alone (`single_ingest.py`: backfill, or a call restricted to `eligible`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from reference.knowledge import backfill as bf
from reference.knowledge.neighbour_rows import id_text_many
from reference.memories.record import MemoryEntry
from reference.vectors.search import KIND_TAGS


def cosines(store: Any, entry: MemoryEntry, memory_ids: list[str]) -> dict[str, float]:
    """Cosine of `entry` with each listed memory; memories without a vector (or `entry` without one) left out."""
    vec = store.vectors.get(entry.key_hash)
    if vec is None or not memory_ids:
        return {}
    sims = store.vectors.scores(vec, [store.tracker.hash_fn(m) for m in memory_ids])
    return {m: float(x) for m, x in zip(memory_ids, sims) if not np.isnan(x)}


def similar(store: Any, entry: MemoryEntry, k: int, eligible: Callable[[str], bool]) -> list[tuple[Any, float]]:
    """The `k` eligible memories nearest to `entry` by the store's vectors (itself excluded).

    Live writes find every other memory eligible; a backfill only the ones
    before it, so when the first `k + 1` neighbours hold too few the window
    widens (x4 a step) up to `MAX_NEIGHBOUR_WINDOW`, never to the whole store.
    """
    vec = store.vectors.get(entry.key_hash)
    if vec is None:
        return []
    conn = store.tracker.conn()
    want = k + 1
    while True:
        pairs = store.vectors.topk(vec, want, tags=[KIND_TAGS["memory"]])
        entries = id_text_many(conn, [h for h, _ in pairs])
        out = [(entries[h], s) for h, s in pairs
               if h in entries and h != entry.key_hash and eligible(entries[h].id)]
        if len(out) >= k or len(pairs) < want or want >= bf.MAX_NEIGHBOUR_WINDOW:
            break
        want = min(want * 4, bf.MAX_NEIGHBOUR_WINDOW)
    out.sort(key=lambda es: (-es[1], es[0].id))
    return out[:k]
