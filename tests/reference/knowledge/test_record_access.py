"""`temporal_table.record_access` writes exactly what one UPDATE per memory wrote (rows and values)."""
from __future__ import annotations

import sqlite3

from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer, temporal_table
from reference.knowledge.decay import calculate_relevance, layer_for
from reference.knowledge.schema import KEYED_BY_DOCUMENT
from reference.knowledge.timefmt import to_text
from reference.store import MemoryStore


def _one_by_one(conn: sqlite3.Connection, ids: list[str], now: float) -> None:
    """The former implementation: read every column, one UPDATE per memory, its layer move after it."""
    for doc, t in sorted(temporal_table.get_many(conn, ids).items()):
        count = t.access_count + 1
        relevance = calculate_relevance(now, count, now, t.importance)
        conn.execute("UPDATE temporal_data SET access_count = ?, last_accessed = ?, relevance_score = ? "
                     "WHERE document_id = ?", (count, to_text(now), relevance, doc))
        temporal_table._set_layer(conn, t, layer_for(count, relevance), now)


def _rows(conn: sqlite3.Connection) -> list:
    return [conn.execute(f"SELECT * FROM {t} ORDER BY document_id").fetchall() for t in KEYED_BY_DOCUMENT]


def _copy(conn: sqlite3.Connection) -> sqlite3.Connection:
    twin = sqlite3.connect(":memory:", isolation_level=None)
    conn.backup(twin)
    return twin


def test_same_rows_as_one_update_per_memory(tmp_path):
    clock = LogicalClock(1_767_225_600.0)
    store = MemoryStore.open(tmp_path / "s", clock=clock)
    KnowledgeLayer.for_store(store)
    ids = [store.write_memory(f"note {i} about the billing export job").id for i in range(8)]
    conn = store.tracker.conn()
    with store.tracker.tx() as c:
        c.execute("UPDATE temporal_data SET access_count = 2 WHERE document_id = ?", (ids[0],))   # -> hot: promoted
        c.execute("UPDATE memory_layers SET layer = 'hot' WHERE document_id = ?", (ids[1],))      # -> cold: demoted
        c.execute("UPDATE temporal_data SET importance = 0.1 WHERE document_id = ?", (ids[1],))
        c.execute("UPDATE temporal_data SET access_count = 2 WHERE document_id = ?", (ids[2],))
        c.execute("DELETE FROM memory_layers WHERE document_id = ?", (ids[2],))                   # no layer row
        c.execute("UPDATE temporal_data SET access_count = 7, importance = 0.5 WHERE document_id = ?", (ids[3],))
    clock.advance(40 * 86_400)
    asked = [ids[3], ids[0], "no-such-memory", ids[1], ids[2], ids[0], ids[5]]   # unordered, repeated, unknown
    for _ in range(2):   # twice: the second call starts from the first call's counts and layers
        twin = _copy(conn)
        _one_by_one(twin, asked, clock.now())
        with store.tracker.tx() as c:
            temporal_table.record_access(c, asked, clock.now())
        assert _rows(conn) == _rows(twin)
        clock.advance(3_600)
    layers = dict(conn.execute("SELECT document_id, layer FROM memory_layers").fetchall())
    assert layers[ids[0]] == "hot" and layers[ids[1]] == "cold"   # both kinds of move were exercised
    counts = dict(conn.execute("SELECT document_id, access_count FROM temporal_data").fetchall())
    assert counts[ids[0]] == 4 and counts[ids[4]] == 0 and counts[ids[5]] == 2
    store.close()
