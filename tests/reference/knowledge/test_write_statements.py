"""What a live write asks of SQLite: no re-ingest lookup for a fresh memory; a re-ingest still replaces its rows."""
from __future__ import annotations

from reference.knowledge import KnowledgeLayer

TEXTS = ["Fixed authClient.refresh() in src/features/auth/session.ts on 2025-03-04",
         "authClient.refresh() races again in src/features/auth/session.ts",
         "authClient.refresh() fixed for good in src/features/auth/session.ts"]


def _derived(conn, mid: str) -> list:
    return [conn.execute(f"SELECT * FROM {t} WHERE {c} = ? ORDER BY 1", (mid,)).fetchall()
            for t, c in (("temporal_data", "document_id"), ("memory_layers", "document_id"),
                         ("entity_mentions", "document_id"), ("relationships", "source_id"))]


def test_a_live_write_skips_the_re_ingest_lookup(store, layer):
    store.write_memory(TEXTS[0])
    conn = store.tracker.conn()
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    store.write_memory(TEXTS[1])
    store.write_memories([{"text": TEXTS[2]}])
    conn.set_trace_callback(None)
    assert any("INSERT OR REPLACE INTO temporal_data" in s for s in seen)   # the layer did run
    assert not [s for s in seen if s.startswith("SELECT document_id FROM temporal_data")]


def test_ingesting_a_stored_memory_again_replaces_its_rows(store, layer):
    ids = [store.write_memory(t).id for t in TEXTS]
    conn = store.tracker.conn()
    before = _derived(conn, ids[2])
    assert before[0] and before[2] and before[3]
    entry = store.get_memory(ids[2])
    layer.ingest(entry)
    layer.ingest_many([entry])
    after = _derived(conn, ids[2])
    assert after[:2] == before[:2]
    for new, old in zip(after[2:], before[2:]):   # the same mentions and links, no duplicates, under new row ids
        assert [r[1:] for r in new] == [r[1:] for r in old] and {r[0] for r in new}.isdisjoint(r[0] for r in old)
    assert KnowledgeLayer.for_store(store) is layer


def test_a_single_writes_relationships_go_in_one_statement(store, layer):
    for t in TEXTS:
        store.write_memory(t)
    conn = store.tracker.conn()
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    mid = store.write_memory("authClient.refresh() in src/features/auth/session.ts fixed again").id
    conn.set_trace_callback(None)
    inserts = [s for s in seen if s.startswith("INSERT OR IGNORE INTO relationships")]
    rows = conn.execute("SELECT COUNT(*) FROM relationships WHERE source_id = ?", (mid,)).fetchone()[0]
    assert rows >= 3 and rows & (rows - 1)   # not a power of two: power-of-two chunks alone would need two
    assert len(inserts) == 1
