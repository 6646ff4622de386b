"""Bounded work per call: resumable backfill with a persisted cursor, indexed relationship candidates, linear extraction."""
from __future__ import annotations

import pytest

from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer
from reference.knowledge import backfill as bf
from reference.knowledge import entity_table
from reference.knowledge.extractor import EntityExtractor
from reference.knowledge.relations import NOT_SHARED
from reference.store import MemoryStore

from .conftest import DAY, START

TEXTS = [f"Fixed retry {i} in src/features/{'billing' if i % 2 else 'auth'}/retry{i % 3}.ts after review."
         for i in range(12)] + ["Unrelated note about lunch.", "Profiled src/features/billing/retry1.ts at noon."]


def relationships(store):
    return store.tracker.conn().execute(
        "SELECT source_id, target_id, type, confidence FROM relationships ORDER BY source_id, target_id").fetchall()


def bare_store(path, texts=TEXTS, same_time=False):
    clock = LogicalClock(START)
    store = MemoryStore.open(path, clock=clock)
    for t in texts:
        if not same_time:
            clock.advance(DAY)
        store.write_memory(t)
    return store, clock


def test_backfill_in_bounded_steps_across_reopens_gives_the_same_links(tmp_path, monkeypatch):
    whole, _ = bare_store(tmp_path / "whole")
    KnowledgeLayer.for_store(whole)
    expected = relationships(whole)
    whole.close()
    assert expected

    monkeypatch.setattr(bf, "PER_OPEN", 3)
    store, _ = bare_store(tmp_path / "steps")
    store.close()
    done = []
    for _ in range(3):  # three opens: three bounded steps, each resuming at the persisted cursor
        with MemoryStore.open(tmp_path / "steps", clock=LogicalClock(START + 100 * DAY)) as s:
            KnowledgeLayer.for_store(s)
            done.append(s.tracker.conn().execute("SELECT count(*) FROM temporal_data").fetchone()[0])
            cursor = bf.read_cursor(s.tracker.conn())
    assert done == [3, 6, 9] and cursor is not None
    with MemoryStore.open(tmp_path / "steps", clock=LogicalClock(START + 100 * DAY)) as s:
        layer = KnowledgeLayer.for_store(s)
        assert layer.backfill() == len(TEXTS) - 12   # the rest in one unbounded call
        assert layer.backfill() == 0
        assert relationships(s) == expected


def test_live_writes_drain_a_backlog_a_few_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setattr(bf, "PER_OPEN", 1)
    store, clock = bare_store(tmp_path / "s")
    try:
        KnowledgeLayer.for_store(store)
        count = lambda: store.tracker.conn().execute("SELECT count(*) FROM temporal_data").fetchone()[0]  # noqa: E731
        assert count() == 1
        clock.advance(DAY)
        store.write_memory("A live note about src/features/auth/retry0.ts.")
        assert count() == 1 + 1 + bf.PER_WRITE   # the live memory plus a backlog step
        for _ in range(len(TEXTS)):
            clock.advance(DAY)
            store.write_memory("Another live note.")
        assert count() == store.tracker.conn().execute("SELECT count(*) FROM memories").fetchone()[0]
    finally:
        store.close()


def test_equal_times_are_walked_in_id_order_without_skipping(tmp_path, monkeypatch):
    monkeypatch.setattr(bf, "PAGE", 4)   # groups of equal created_at larger than a page
    store, _ = bare_store(tmp_path / "s", same_time=True)
    try:
        seen = [key for key, _, _ in bf.pending(store.tracker.conn(), None, 1000)]
        ids = sorted(r[0] for r in store.tracker.conn().execute("SELECT id FROM memories"))
        assert [mid for _, mid in seen] == ids
        half = seen[5]
        assert [k for k, _, _ in bf.pending(store.tracker.conn(), half, 1000)] == seen[6:]
    finally:
        store.close()


def test_relationship_candidates_are_bounded_per_entity_and_newest_first(tmp_path):
    texts = [f"Note {i} touches src/features/auth/session.ts." for i in range(30)]
    store, _ = bare_store(tmp_path / "s", texts)
    try:
        KnowledgeLayer.for_store(store)
        conn = store.tracker.conn()
        last = conn.execute("SELECT id FROM memories ORDER BY created_at DESC LIMIT 1").fetchone()[0]
        cands = entity_table.sharing_candidates(conn, last, NOT_SHARED, per_entity=5)
        newest = [r[0] for r in conn.execute("SELECT id FROM memories WHERE id != ? ORDER BY created_at DESC LIMIT 5",
                                             (last,))]
        assert sorted(cands) == sorted(newest)
        ranked = entity_table.rank_sharing(cands)
        assert [d for d, _ in ranked] == newest   # equal sharing: newest first
    finally:
        store.close()


def test_concepts_are_placed_by_whole_tokens():
    ex = EntityExtractor()
    text = "OAuth flow. Then the auth token refresh, and Auth  Token again."
    concepts = ["auth token", "oauth", "auth", "missing"]
    got = {m.name: m.position for m in ex.extract(text, START, {"concepts": concepts})}
    # "auth" is not placed inside "OAuth": a concept matches whole tokens
    assert got == {"auth token": text.index("auth token"), "oauth": 0, "auth": text.index("auth token"),
                   "missing": None}


@pytest.mark.parametrize("n", [300])
def test_many_concepts_and_paths_are_all_extracted(n):
    names = [f"concept {i} of many" for i in range(n)]
    text = "Learned: " + ", ".join(names) + ". " + " ".join(f"src/m{i}/f{i}.py" for i in range(n))
    mentions = EntityExtractor().extract(text, START, {"concepts": names})
    concepts = [m for m in mentions if m.type == "concept"]
    assert len(concepts) == n and all(text[m.position:m.end].lower() == m.name for m in concepts)
    assert len([m for m in mentions if m.type == "file"]) == n


def test_a_run_of_ingested_memories_is_passed_in_one_step_whatever_the_scan_cap(tmp_path, monkeypatch):
    """A store written with the layer on, then a few memories without it: one small step reaches the backlog."""
    clock = LogicalClock(START)
    with MemoryStore.open(tmp_path / "s", clock=clock) as s:
        KnowledgeLayer.for_store(s)
        for t in TEXTS[:10]:
            clock.advance(DAY)
            s.write_memory(t)
    with MemoryStore.open(tmp_path / "s", clock=clock) as s:   # no layer: these three are the backlog
        for t in TEXTS[10:13]:
            clock.advance(DAY)
            s.write_memory(t)
        last = s.tracker.conn().execute("SELECT created_at, id FROM memories ORDER BY created_at DESC").fetchone()
    with MemoryStore.open(tmp_path / "s", clock=clock) as s:
        layer = KnowledgeLayer(s)   # not for_store: its open step would drain the backlog before we look
        monkeypatch.setattr(bf, "PAGE", 2)
        assert layer.backfill(limit=5, scan_cap=2) == 2    # ten ingested rows skipped, then two rows examined
        assert layer._backlog
        assert layer.backfill(limit=5, scan_cap=2) == 1
        assert layer.backfill(limit=5, scan_cap=2) == 0 and not layer._backlog
        assert bf.read_cursor(s.tracker.conn()) == (float(last[0]), last[1])


def test_a_store_built_with_the_layer_on_has_no_backlog_after_one_small_step(tmp_path, monkeypatch):
    clock = LogicalClock(START)
    with MemoryStore.open(tmp_path / "s", clock=clock) as s:
        KnowledgeLayer.for_store(s)
        for t in TEXTS:
            clock.advance(DAY)
            s.write_memory(t)
        last = s.tracker.conn().execute("SELECT created_at, id FROM memories ORDER BY created_at DESC").fetchone()
    with MemoryStore.open(tmp_path / "s", clock=clock) as s:
        layer = KnowledgeLayer(s)
        monkeypatch.setattr(bf, "PAGE", 2)
        assert layer.backfill(limit=5, scan_cap=1) == 0 and not layer._backlog   # live writes need no step
        assert bf.read_cursor(s.tracker.conn()) == (float(last[0]), last[1])
