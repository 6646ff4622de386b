"""Tuned galaxybrain: lexical candidates re-ranked by meaning, filled by meaning when few memories match a word."""
from __future__ import annotations

from reference.clock import LogicalClock
from reference.lexical.layer import LexicalLayer
from reference.lexical.params import RERANK_CANDIDATES, TUNED
from reference.rankers import Query, make_ranker
from reference.store import MemoryStore


def test_few_keyword_matches_are_joined_by_the_nearest_by_meaning(tmp_path):
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path, clock=clock)
    matched = [store.write_memory(t).id for t in ("refresh the tokenizer cache", "tokenizer refresh is slow")]
    # no query term (and no stem of one), but shared character n-grams: a positive cosine
    near = [store.write_memory(f"freshness of tokens number {i}").id for i in range(6)]
    for i in range(30):
        clock.advance(1)
        store.write_memory(f"billing invoice {i} paid by wire")
    layer = LexicalLayer.for_store(store)
    scores = layer.scores("refresh tokenizer", TUNED.with_(vector_weight=0.0))
    assert 0 < int((scores > 0).sum()) < RERANK_CANDIDATES       # the fill's condition holds
    hits = make_ranker("galaxybrain", store).search(Query("refresh tokenizer", top_k=10))
    ids = [h.id for h in hits]
    assert set(ids[:2]) == set(matched)
    assert set(near) & set(ids[2:]), ids     # memories with no keyword evidence answer, below the matches
    store.close()
