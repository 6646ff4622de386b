"""rrf over the store's in-memory indexes (numpy bm25, the id map, one id lookup for both lists) gives
exactly the answer of FTS5's own ranking, SQL id lookups and the vector top-k, fused by `rrf`: ids,
scores, order and ties, with and without filters, through writes, updates and deletes between queries."""
from __future__ import annotations

import random

import pytest

from reference.clock import LogicalClock
from reference.rankers import Query, make_ranker
from reference.rankers.rrf import rrf
from reference.store import MemoryStore
from reference.tracker import fts_match
from reference.tracker.fts.topk import ranked_matches
from reference.tuning import SEED_DEFAULTS, use_tuning

WORDS = "auth token refresh race billing invoice cache redis queue worker retry deploy schema index".split()
CONTEXTS = ["context:auth", "context:billing", "context:api"]
QUERIES = [("auth token cache", None), ("billing invoice retry", ["context:billing"]), ("queue", None),
           ("deploy schema index worker", ["context:api"]), ("redis race", ["context:auth", "context:api"])]


def _record(rng: random.Random, i: int) -> dict:
    # few words per text: many rows score alike, so ties cross the depth cut in both lists
    return {"text": " ".join(rng.choices(WORDS, k=rng.randint(1, 4))), "context": rng.sample(CONTEXTS, rng.randint(0, 2)),
            "task": rng.choice(["task:debug", "task:refactor", None])}


def _reference(store: MemoryStore, text: str, context, depth: int, top_k: int) -> list[tuple[str, float]]:
    """The fusion from FTS5's bm25 order, SQL id lookups and the vector top-k."""
    m, conn = store.memories, store.tracker.conn()
    flt = m.filter(context=context)
    allowed = None if flt.empty else m.candidates(flt)
    kw = ranked_matches(conn, fts_match(text), depth, allowed)  # no index: FTS5 ranks
    vec = store.vectors.topk(m.embed_query(text), depth, allowed, tags=None if allowed is not None else [4],
                             with_ties=True)
    lists = []
    for pairs in (kw, vec):
        ids = store.tracker.memories.ids_of(conn, [h for h, _ in pairs])
        lists.append([i for i, _ in sorted(((ids[h], s) for h, s in pairs if h in ids),
                                           key=lambda x: (-x[1], x[0]))[:depth]])
    return rrf([lists[0], lists[1], lists[1]])[:top_k]


@pytest.mark.parametrize("depth", [5, 100])
def test_rrf_on_the_indexes_equals_fts5_and_sql(tmp_path, depth):
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path, clock=clock)
    use_tuning(store, SEED_DEFAULTS)   # the seed's lists: FTS5 bm25 and cosine (the tuned lists: test_rrf_tuned.py)
    rng = random.Random(3)
    store.write_memories([_record(rng, i) for i in range(2_100)])  # above the keyword index's MIN_ROWS
    ranker = make_ranker("rrf", store)
    ranker.depth = depth
    for step in range(3):
        for text, context in QUERIES:
            got = [(h.id, h.score) for h in ranker.search(Query(text, context=context, top_k=10))]
            assert got == _reference(store, text, context, max(depth, 10), 10), (step, text, context)
        assert store.memories.keyword_index._built and store.memories.id_index._built  # the indexes answered
        clock.advance(1)
        new = store.write_memories([_record(rng, i) for i in range(30)])
        store.write_memory("auth token cache auth token cache", context=["context:api"])
        store.update_metadata(new[0].id, {"n": step})
        victims = store.memories.list(store.memories.filter(), limit=3, offset=step * 7)
        for v in victims:
            store.delete_memory(v.id)
    store.close()
