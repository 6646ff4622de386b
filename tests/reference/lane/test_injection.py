"""Session-aware injection and the rendered prompt block (seed 004 Phase 5-6); expected text written by hand."""
from __future__ import annotations

import pytest

from reference.clock import LogicalClock
from reference.lane import MemoryLane
from reference.lane.errors import LaneError
from reference.lane.injection import render_block
from reference.lane.resolver import Ambiguity
from reference.rankers import Query, make_ranker
from reference.store import MemoryStore


@pytest.fixture
def lane(tmp_path):
    with MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0)) as store:
        yield MemoryLane.for_store(store)


def _auth(lane):
    texts = [("Refreshing the auth token on the UI thread was wrong; refresh in the worker.", "correction"),
             ("We decided auth refresh tokens live in an httpOnly cookie.", "decision"),
             ("Auth token refresh fails when the clock skew is large.", "learning"),
             ("Auth token refresh    logs\nthe request id.", "workflow_note")]
    return [lane.store(t, memory_type=m, paths=["src/features/auth/session.ts"]).id for t, m in texts]


def test_injections_never_repeat_a_memory_in_a_session(lane):
    ids = _auth(lane)
    first = lane.inject("auth token refresh", "s1", limit=2)
    second = lane.inject("auth token refresh", "s1", limit=2)
    third = lane.inject("auth token refresh", "s1", limit=2)
    assert len(first.memory_ids) == 2 and len(second.memory_ids) == 2 and third.memory_ids == ()
    assert set(first.memory_ids) | set(second.memory_ids) == set(ids)
    assert third.block == ""
    assert lane.recalled("s1") == list(first.memory_ids + second.memory_ids)
    assert lane.inject("auth token refresh", "s2", limit=2).memory_ids == first.memory_ids   # a new session


def test_session_aware_ranker_skips_injected_memories(lane):
    _auth(lane)
    ranker = make_ranker("memory-lane", lane.memstore)
    injected = lane.inject("auth token refresh", "s1", limit=1).memory_ids
    in_session = [h.id for h in ranker.search(Query("auth token refresh", session_id="s1"))]
    elsewhere = [h.id for h in ranker.search(Query("auth token refresh", session_id="s2"))]
    assert injected[0] not in in_session and elsewhere[0] == injected[0]
    assert in_session == elsewhere[1:]


def test_block_text(lane):
    ids = _auth(lane)
    got = lane.inject("auth token refresh", "s1", limit=4)
    order = {mid: i for i, mid in enumerate(got.memory_ids)}
    lines = got.block.splitlines()
    assert lines[0] == "<memory-lane>" and lines[-1] == "</memory-lane>" and got.block.endswith("\n")
    assert lines[1] == "Memories recalled for this prompt, most important first:"
    assert lines[2 + order[ids[3]]] == (f"{order[ids[3]] + 1}. [workflow_note] Auth token refresh logs the request id. "
                                        f"(feature:auth; {ids[3]})")
    assert lines[2 + order[ids[0]]].startswith(f"{order[ids[0]] + 1}. [correction] Refreshing the auth token")


def test_block_cuts_long_text_and_names_missing_entities(lane):
    mid = lane.store("word " * 100, memory_type="learning").id
    hit = lane.find("word", top_k=1).hits[0]
    line = render_block([hit]).splitlines()[2]
    assert line == "1. [learning] " + ("word " * 60)[:297].rstrip() + f"... (no entity; {mid})"


def test_clarification_block_and_no_recall(lane):
    lane.store("Payments retries must reuse one idempotency key.", paths=["src/features/payments/charge.ts"])
    lane.store("The payments service retries webhooks for a day.", entities=["project:payments"])
    got = lane.inject("payments retries", "s1")
    assert got.clarification_required and got.memory_ids == ()
    assert got.block == ("<memory-lane>\nClarification required before recalling memories:\n"
                         '- "payments" could mean feature:payments or project:payments.\n'
                         "Ask the user which one is meant.\n</memory-lane>\n")
    assert lane.recalled("s1") == []
    assert render_block([], [Ambiguity("x", ("a:b", "c:d"))]).count("could mean a:b or c:d.") == 1


def test_inject_needs_a_session(lane):
    for bad in ("", "  ", None):
        with pytest.raises(LaneError, match="session_id"):
            lane.inject("auth", bad)


def test_a_secret_in_an_injection_query_or_session_id_never_reaches_the_disk(tmp_path):
    from tests.reference.secret_samples import PLANTS, all_bytes

    folder = tmp_path / "store"
    with MemoryStore.open(folder, clock=LogicalClock(1_700_000_000.0)) as store:
        lane = MemoryLane.for_store(store)
        _auth(lane)
        answered = 0
        for kind, text, _ in PLANTS:
            injected = lane.inject(f"auth token refresh {text}", f"session {text}", limit=1)
            lane.feedback(_auth_id(lane), "helpful", session_id=f"session {text}")
            answered += bool(injected.memory_ids)
            assert lane.recalled(f"session {text}") == list(injected.memory_ids), kind  # one key per session
        # recall rows (query and session id) were written for most kinds, so the grep below looks at them
        assert answered >= len(PLANTS) // 2
    data = all_bytes(folder)
    leaked = [kind for kind, _, secret in PLANTS if secret.encode() in data]
    assert leaked == []


def _auth_id(lane):
    return lane.memstore.list_memories(limit=1)[0].id
