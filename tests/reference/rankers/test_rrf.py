"""Reciprocal rank fusion: `rrf()` against hand computation, the `rrf` ranker against plain models."""
from __future__ import annotations

import random

import numpy as np
import pytest

from reference.clock import LogicalClock
from reference.rankers import RANKERS, Query, make_ranker
from reference.rankers.rrf import rrf
from reference.store import MemoryStore
from reference.tuning import SEED_DEFAULTS, use_tuning
from tests.bench.backends.bm25_model import bm25_scores


def test_rrf_hand_computed_k60():
    got = rrf([["a", "b", "c"], ["b", "a"], ["c"]])
    # a: 1/61 + 1/62, b: 1/62 + 1/61 (tie, id order), c: 1/63 + 1/61
    assert [d for d, _ in got] == ["a", "b", "c"]
    assert [s for _, s in got] == pytest.approx([123 / 3782, 123 / 3782, 1 / 63 + 1 / 61])


def test_rrf_hand_computed_k0_and_repeats():
    assert rrf([["x", "y"], ["y", "z"]], k=0) == [("y", 1.5), ("x", 1.0), ("z", 0.5)]
    assert rrf([["a", "a", "b"]], k=0) == [("a", 1.0), ("b", 1 / 3)]   # a repeat keeps its best rank
    assert rrf([]) == [] and rrf([[], []]) == []
    for bad in (-1, "60", True):
        with pytest.raises(ValueError, match="k"):
            rrf([["a"]], k=bad)


WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike oscar papa quebec".split()
CONTEXTS = ["context:auth", "context:billing", "context:api"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    rng = random.Random(5)
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path_factory.mktemp("rrf"), clock=clock)
    use_tuning(store, SEED_DEFAULTS)   # the seed's lists (FTS5 bm25, cosine, filtered cosine); tuned: test_rrf_tuned
    docs = {}
    for i in range(80):
        clock.advance(1)
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 9)))
        ctx = rng.sample(CONTEXTS, rng.randint(0, 2))
        e = store.write_memory(text, context=ctx)
        docs[e.id] = (text, set(ctx))
    yield store, docs
    store.close()


def _model(store, docs, query, ctx, top_k):
    """Keyword (bm25 over the whole index, then the filter), cosine and filtered-cosine lists, fused by hand."""
    allowed = [d for d, (_, c) in docs.items() if ctx is None or ctx in c]
    kw = bm25_scores({d: t for d, (t, _) in docs.items()}, query.split())
    keyword = sorted((d for d in kw if d in allowed), key=lambda d: (-kw[d], d))
    q = store.embedder.embed([query])[0].astype(np.float64)
    cos = {d: float(store.embedder.embed([docs[d][0]])[0].astype(np.float64) @ q) for d in allowed}
    vector = sorted(allowed, key=lambda d: (-cos[d], d))
    fused: dict[str, float] = {}
    for ranking in (keyword[:100], vector[:100], vector[:100]):   # galaxybrain = filtered cosine here
        for r, d in enumerate(ranking, start=1):
            fused[d] = fused.get(d, 0.0) + 1 / (60 + r)
    return sorted(fused.items(), key=lambda x: (-x[1], x[0]))[:top_k]


@pytest.mark.parametrize("query,ctx", [("alpha bravo", None), ("mike oscar papa", None), ("delta", None),
                                       ("golf hotel", "context:billing"), ("kilo", "context:auth")])
def test_rrf_ranker_matches_model(corpus, query, ctx):
    store, docs = corpus
    ranker = make_ranker("rrf", store)
    hits = ranker.search(Query(query, context=[ctx] if ctx else None, top_k=10))
    want = _model(store, docs, query, ctx, 10)
    assert [h.id for h in hits] == [d for d, _ in want]
    assert [h.score for h in hits] == pytest.approx([s for _, s in want])
    assert all(h.entry is not None and h.entry.id == h.id for h in hits)


def test_rrf_ranker_without_text_lists_like_the_store(corpus):
    store, _ = corpus
    hits = make_ranker("rrf", store).search(Query(None, context=["context:api"], top_k=5))
    assert [h.id for h in hits] == [h.id for h in store.search_memories(None, context=["context:api"], top_k=5)]


def test_rankers_are_registered():
    assert RANKERS["rrf"] == "reference.rankers.rrf:RRFRanker"
    assert RANKERS["memory-lane"] == "reference.rankers.memory_lane:MemoryLaneRanker"


@pytest.mark.parametrize("context", [None, ["context:auth"]])
def test_vector_list_is_galaxybrains_ranking(corpus, context):
    """The rrf ranker counts its vector list twice, as galaxybrain's; they must be the same ranking."""
    store, _ = corpus
    flt = store.memories.filter(context=context)
    for text in ("alpha bravo", "kilo lima mike", "papa"):
        gb = make_ranker("galaxybrain", store).search(Query(text, context=context, top_k=30))
        assert [h.id for h in gb] == [m for m, _ in store.memories.ranked_ids(text, flt, 30)]
        kw = store.memories.keyword(text, flt, 30)
        assert [(h.id, h.score) for h in kw] == store.memories.ranked_ids(text, flt, 30, keyword=True)
