"""oracle_search with tuned constants: the code-aware lexical search (lexical_search.py), its filters and details."""
import pytest

from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer
from reference.knowledge import layer as knowledge_layer
from reference.knowledge.hybrid import hybrid_search
from reference.rankers import Query, make_ranker
from reference.store import MemoryStore
from reference.tuning import SEED_DEFAULTS, use_tuning

from .conftest import DAY, START

NOTES = [
    "Token refresh races when two tabs refresh at once (src/features/auth/session.ts).",
    "Refresh the access token before it expires; see src/features/auth/session.ts.",
    "Invoice totals are rounded with decimal at the end (src/features/billing/invoice.ts).",
    "Cache pip wheels in the CI pipeline to speed up builds.",
    "Deploy notes on 2025-11-08: rollback of the payments service.",
]


def _fill(store, clock) -> list[str]:
    ids = []
    for text in NOTES:
        ids.append(store.write_memory(text).id)
        clock.advance(DAY)
    return ids


def test_oracle_search_is_the_tuned_ranker_search_with_details(store, clock, layer):
    ids = _fill(store, clock)
    assert knowledge_layer.ORACLE_SEARCH == "lexical"
    got = layer.search("token refresh tabs", record_access=False)
    ranker = make_ranker("oracle-hybrid", store)
    want = ranker.search(Query("token refresh tabs", options={"include_related": True}))
    assert [(h.id, h.score) for h in got] == [(h.id, h.score) for h in want]
    assert got[0].id == ids[0] and got[0].match_type == "hybrid" and "lexical" in got[0].components
    assert "file:src/features/auth/session.ts" in got[0].related_entities


def test_filters_and_min_relevance_restrict_the_tuned_search(store, clock, layer):
    ids = _fill(store, clock)
    auth = {h.id for h in layer.search("refresh", entity_filter=["feature:auth"], record_access=False)}
    assert auth and auth <= {ids[0], ids[1]}
    # the document date 2025-11-08 of the deploy note, half open
    assert [h.id for h in layer.search("payments rollback", before="2025-11-09", record_access=False)] == [ids[4]]
    assert layer.search("payments rollback", after="2025-11-09", before="2026-01-01", record_access=False) == []
    assert layer.search("token refresh", min_relevance=1.01, record_access=False) == []


def test_seed_values_and_a_seed_choice_run_the_seeds_hybrid(tmp_path, monkeypatch):
    for seeded in (True, False):
        clock = LogicalClock(START)
        store = MemoryStore.open(tmp_path / f"s{seeded}", clock=clock)
        try:
            if seeded:
                use_tuning(store, SEED_DEFAULTS)
            else:
                monkeypatch.setattr(knowledge_layer, "ORACLE_SEARCH", "seed")
            layer = KnowledgeLayer.for_store(store)
            _fill(store, clock)
            got = layer.search("token refresh tabs", record_access=False)
            want = hybrid_search(store, layer.extractor, "token refresh tabs", decay_weight=layer.decay_weight)
            assert [(h.id, h.score, h.match_type) for h in got] == [(h.id, h.score, h.match_type) for h in want]
            assert {h.match_type for h in got} <= {"keyword", "semantic", "hybrid", "related"}
        finally:
            store.close()


def test_bad_arguments_are_refused_before_either_search(layer):
    with pytest.raises(Exception, match="limit"):
        layer.search("token", limit=0)
    with pytest.raises(Exception, match="after"):
        layer.search("token", after="not a date")
