"""How many candidates the neighbour lookup asks the vector index for, and what it finds with them on real text."""
from __future__ import annotations

import numpy as np
import pytest

from bench.benchmarks.real_neighbours import neighbour_recall, real_texts
from bench.scenario.home import project_root
from reference.vectors import index as vector_index
from reference.clock import LogicalClock
from reference.knowledge.neighbours import live_neighbours
from reference.knowledge.relations import RELATE_THRESHOLD, VECTOR_CANDIDATES
from reference.store import MemoryStore


@pytest.mark.parametrize("least, k, want", [(1_000, 10, 500), (1_000, 80, 800), (100, 10, 100), (200, 10, 100)])
def test_neighbour_candidates_are_half_the_topk_floor(monkeypatch, least, k, want):
    monkeypatch.setattr(vector_index, "MIN_CANDIDATES", least)
    assert vector_index.neighbour_candidates(k) == want
    assert vector_index.neighbour_candidates(k) <= vector_index.oversample(k)


def test_the_lookup_asks_the_index_for_neighbour_candidates(tmp_path, monkeypatch):
    """Past the (lowered) index threshold a single write's lookup and a batch's each ask for
    `neighbour_candidates(VECTOR_CANDIDATES)` rows, not `oversample`'s, and find what the exact scan finds."""
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_760_000_000.0), redact=False)
    rng = np.random.default_rng(7)
    vocab = [f"w{i}" for i in range(60)]
    store.write_memories([dict(text=" ".join(rng.choice(vocab, size=8))) for _ in range(1_500)])
    batch = store.write_memories([dict(text=" ".join(rng.choice(vocab, size=8))) for _ in range(40)])
    exact = live_neighbours(store, batch, VECTOR_CANDIDATES, RELATE_THRESHOLD)
    asked = []
    real = store.vectors.candidate_rows_many
    monkeypatch.setattr(store.vectors, "candidate_rows_many",
                        lambda q, count, **kw: asked.append(count) or real(q, count, **kw))
    monkeypatch.setattr(vector_index, "INDEX_MIN_ROWS", 1_000)
    indexed = live_neighbours(store, batch, VECTOR_CANDIDATES, RELATE_THRESHOLD)
    single = live_neighbours(store, batch[-1:], VECTOR_CANDIDATES, RELATE_THRESHOLD)
    assert asked == [500, 500]
    top = lambda hs: sorted(hs, key=lambda h: (-h[1], h[0]))[:VECTOR_CANDIDATES]  # noqa: E731
    assert [top(g) for g in indexed] == [top(w) for w in exact]
    assert top(single[0]) == top(exact[-1])
    assert sum(map(len, indexed)) > 200
    store.close()


def test_recall_on_real_commit_text(tmp_path):
    """Commit and hunk texts of the shipped histories (2,500 of them, the index forced on from 1,200 rows,
    lookups for the latest 300 as a batch and 20 single ones): the index finds the exact top 10."""
    texts = real_texts(project_root(), 2_500)
    assert len(texts) == 2_500
    mean, worst, lookups, rows = neighbour_recall(tmp_path / "v", texts, 1_200, batch=300, singles=20)
    assert lookups == 320 and rows > 2_400
    assert mean >= 0.999
