"""The write path reads neighbours' entities only where a rule needs them, and links exactly as the table reads do."""
from __future__ import annotations

from pathlib import Path

import pytest

from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer, entity_table, live_ingest
from reference.store import MemoryStore

FILES = ["lib/a.py", "lib/b.py", "src/auth.ts"]
LONG = ("fix the token refresh race condition when the session expires during a long running upload retry loop "
        "and the cache of user profiles is stale after the deploy")


def _texts() -> list[str]:
    """Near-repeats (cosine above the update threshold) about the same file, about other files, and about none."""
    out = []
    for i in range(30):
        tail = f" in {FILES[i % 3]}" if i % 4 else " somewhere"
        out.append(LONG + tail + (" also with care" if i % 5 == 0 else "") + (" instead of polling" if i % 7 == 0 else ""))
    return out


def _relationships(path: Path, batch: bool, from_table: bool, monkeypatch) -> list[tuple]:
    store = MemoryStore.open(path, clock=LogicalClock(1_760_000_000.0))
    layer = KnowledgeLayer.for_store(store)
    if from_table:   # the rules read every document's entities from entity_mentions themselves
        monkeypatch.setattr(live_ingest, "known_entities", lambda *a, **k: None)
    texts = _texts()
    if batch:
        store.write_memories([dict(text=t) for t in texts[:20]])
        store.write_memories([dict(text=t) for t in texts[20:]])
    else:
        for t in texts:
            store.clock.advance(1)
            store.write_memory(t)
    rows = store.tracker.conn().execute(
        "SELECT id, source_id, target_id, type, confidence, metadata, created_at FROM relationships ORDER BY id"
    ).fetchall()
    store.close()
    monkeypatch.undo()
    return rows


@pytest.mark.parametrize("batch", [False, True])
def test_relationships_equal_the_table_reads(tmp_path, monkeypatch, batch):
    fast = _relationships(tmp_path / "fast", batch, False, monkeypatch)
    slow = _relationships(tmp_path / "slow", batch, True, monkeypatch)
    assert fast == slow
    metas = [r[5] for r in fast]
    # the subject comparison ran both ways: links kept apart by their files, and updates/extends of the same file
    assert any('"differentSubjects":true' in m for m in metas)
    assert any(r[3] in ("updates", "extends") for r in fast)


def test_no_entity_query_when_no_neighbour_is_above_the_update_threshold(tmp_path, monkeypatch):
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_760_000_000.0))
    KnowledgeLayer.for_store(store)
    store.write_memory(LONG + " in lib/a.py")
    asked: list[list[str]] = []
    real = entity_table.entity_ids_of
    monkeypatch.setattr(entity_table, "entity_ids_of", lambda conn, ids: asked.append(ids) or real(conn, ids))
    store.write_memory("round the invoice total in src/features/billing/invoice.py today")   # unrelated: no query
    assert asked == []
    again = store.write_memory(LONG + " in lib/b.py")   # a near-repeat naming a file: its neighbour is read
    assert len(asked) == 1 and again.id not in asked[0]
    store.close()
