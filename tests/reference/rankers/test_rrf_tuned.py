"""The tuned rrf fuses the lexical ranking, the cosine list and galaxybrain's list (not the seed's three)."""
from __future__ import annotations

import random

from reference.clock import LogicalClock
from reference.lexical.layer import LexicalLayer
from reference.lexical.params import TUNED
from reference.rankers import Query, make_ranker
from reference.rankers.rrf import rrf
from reference.store import MemoryStore

WORDS = "auth token refresh race billing invoice cache redis queue worker retry deploy schema index".split()
FILES = ["src/auth.py", "src/billing.py", "docs/index.rst", "src/queue.py"]


def test_rrf_fuses_lexical_vector_and_galaxybrain(tmp_path):
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path, clock=clock)
    rng = random.Random(11)
    for _ in range(120):
        clock.advance(60)
        store.write_memory(" ".join(rng.choices(WORDS, k=rng.randint(2, 6))) + " Files: " + rng.choice(FILES),
                           context=rng.sample(["context:auth", "context:api"], rng.randint(0, 1)))
    ranker = make_ranker("rrf", store)
    for text, ctx in [("auth token cache", None), ("billing retry", ["context:api"])]:
        q = Query(text, context=ctx, top_k=10)
        flt = store.memories.filter(context=ctx)
        allowed = None if flt.empty else store.memories.candidates(flt)
        keyword = [m for m, _ in LexicalLayer.for_store(store).ranked(text, TUNED.with_(vector_weight=0.0), 100,
                                                                         allowed)]
        vector = [m for m, _ in store.memories.ranked_lists(text, flt, 100, keyword=False)[1]]
        galaxy = [m for m, _ in ranker.galaxybrain.ranked_ids(q, 100)]
        assert keyword and vector and galaxy and galaxy != vector   # three different lists
        want = rrf([keyword, vector, galaxy])[:10]
        assert [(h.id, h.score) for h in ranker.search(q)] == want
    store.close()
