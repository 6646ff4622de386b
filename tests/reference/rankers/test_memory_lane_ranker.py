"""The `memory-lane` ranker: the lane's search behind the ranker protocol, with filters and ambiguity."""
from __future__ import annotations

import pytest

from reference.clock import LogicalClock
from reference.lane import MemoryLane
from reference.rankers import Query, make_ranker
from reference.store import MemoryStore


@pytest.fixture
def world(tmp_path):
    with MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0)) as store:
        lane = MemoryLane.for_store(store)
        ids = {
            "pay_f": lane.store("payments retries reuse one idempotency key", entities=["feature:payments"],
                                context=["context:billing"]).id,
            "pay_p": lane.store("payments service retries webhooks for a day", entities=["project:payments"]).id,
            "auth": lane.store("auth token refresh was wrong on the UI thread", entities=["feature:auth"],
                               context=["context:auth"]).id,
            "plain": store.write_memory("payments retries dashboards and charts", context=["context:billing"]).id,
        }
        yield store, lane, ids


def test_ambiguous_mention_searches_every_reading(world):
    store, lane, ids = world
    assert lane.find("payments retries").clarification_required
    hits = make_ranker("memory-lane", store).search(Query("payments retries", top_k=10))
    assert {h.id for h in hits} == {ids["pay_f"], ids["pay_p"]}         # the entity filter: not `plain`
    assert all(h.meta["mode"] == "entity" for h in hits)


def test_structured_filters_apply(world):
    store, _, ids = world
    hits = make_ranker("memory-lane", store).search(Query("payments retries", context=["context:billing"]))
    assert {h.id for h in hits} == {ids["pay_f"]}                        # entity filter AND context filter
    hits = make_ranker("memory-lane", store).search(Query("retries dashboards", context=["context:billing"]))
    assert {h.id for h in hits} == {ids["pay_f"], ids["plain"]}          # no entity named: filter only, no floor


def test_hits_carry_the_score_factors(world):
    store, _, ids = world
    hit = make_ranker("memory-lane", store).search(Query("what mistake was the auth token refresh?"))[0]
    assert hit.id == ids["auth"] and hit.meta["memory_type"] == "correction" and hit.meta["intent_boost"] == 1.15
    assert hit.score == pytest.approx(hit.meta["relevance"] * 1.0 * 1.15 * 1.0)


def test_no_text_lists_newest_first(world):
    store, _, _ = world
    got = make_ranker("memory-lane", store).search(Query(None, context=["context:billing"]))
    assert [h.id for h in got] == [h.id for h in store.search_memories(None, context=["context:billing"])]
