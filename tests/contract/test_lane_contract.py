"""Contract of `memory_lane` (seed 004): typed memories about entities, entity-aware find, feedback, injection.

What the `memory-lane` scenario relies on:
- `lane_store(text, type, entities, paths)` returns an id; entities are slugs `type:name`, and a
  path under `src/features/<f>/` names `feature:<f>`; an entity without a type is refused with
  ValueError naming the `type:name` form.
- `lane_find(query)` returns {results best first with id, score, memory_type, entity_slugs,
  clarification_required, candidates}; a query naming an entity finds that entity's memories.
- Type weights order memories of identical text (a correction before a learning); `lane_feedback`
  `harmful` on the correction returns its state and puts the learning first; `helpful` on a memory
  makes it lead. An unknown signal is refused with ValueError.
- A query whose word names two entities (`feature:kpay` and `project:kpay`) asks for clarification
  (`clarification_required`, both slugs among the candidates) and returns no results.
- `lane_inject(query, session)` never injects a memory twice in one session; another session may
  get it again.
"""
import pytest

from bench.backends import Capability as C

CAPABILITY = C.MEMORY_LANE


def _ids(found):
    return [r["id"] for r in found["results"]]


def test_store_then_find_by_entity(backend):
    mid = backend.lane_store("Kbilling retries must use exponential backoff with jitter.", "decision",
                             ["feature:kbilling"])
    found = backend.lane_find("kbilling retries backoff", None, 5)
    assert found["clarification_required"] is False and _ids(found)[:1] == [mid]
    top = found["results"][0]
    assert top["memory_type"] == "decision" and "feature:kbilling" in top["entity_slugs"]
    assert all(a["score"] >= b["score"] for a, b in zip(found["results"], found["results"][1:]))


def test_an_entity_without_a_type_is_refused(backend):
    with pytest.raises(ValueError, match="type:name"):
        backend.lane_store("Entities need a type.", None, ["kauth"])


def test_type_weights_then_harmful_feedback_reorder_identical_texts(backend):
    text, path = "Kledger exports are flushed hourly.", ["src/features/kledger/index.ts"]
    correction = backend.lane_store(text, "correction", None, path)
    learning = backend.lane_store(text, "learning", None, path)
    assert _ids(backend.lane_find("kledger exports flush", None, 5))[:2] == [correction, learning]
    out = backend.lane_feedback(correction, "harmful")
    assert out["memory_id"] == correction and out["state"] == "harmful"
    assert _ids(backend.lane_find("kledger exports flush", None, 5))[:2] == [learning, correction]


def test_helpful_feedback_makes_a_memory_lead(backend):
    text, path = "Kqueue consumers ack after the write commits.", ["src/features/kqueue/index.ts"]
    correction = backend.lane_store(text, "correction", None, path)
    decision = backend.lane_store(text, "decision", None, path)
    assert _ids(backend.lane_find("kqueue consumers ack", None, 5))[:2] == [correction, decision]
    assert backend.lane_feedback(decision, "helpful")["state"] == "helpful"
    assert _ids(backend.lane_find("kqueue consumers ack", None, 5))[:2] == [decision, correction]
    with pytest.raises(ValueError):
        backend.lane_feedback(decision, "meh")


def test_an_ambiguous_entity_asks_for_clarification(backend):
    backend.lane_store("The kpay feature flag lives in config.", "insight", ["feature:kpay"])
    backend.lane_store("The kpay project kicks off in May.", "insight", ["project:kpay"])
    found = backend.lane_find("kpay", None, 5)
    assert found["clarification_required"] is True and found["results"] == []
    assert {"feature:kpay", "project:kpay"} <= {s for slugs in found["candidates"].values() for s in slugs}


def test_injection_never_repeats_a_memory_within_a_session(backend):
    mid = backend.lane_store("Kretry budget is three attempts per request.", "decision", ["feature:kretry"])
    first = backend.lane_inject("kretry budget attempts", "contract-s1", 3)["memory_ids"]
    assert mid in first and len(first) == len(set(first))
    again = backend.lane_inject("kretry budget attempts", "contract-s1", 3)["memory_ids"]
    assert not set(again) & set(first)
    assert mid in backend.lane_inject("kretry budget attempts", "contract-s2", 3)["memory_ids"]
