"""Memory rows decode to the same entries whatever the shortcuts: shared tuples for repeated JSON arrays."""
from __future__ import annotations

import json

from reference.clock import LogicalClock
from reference.store import MemoryStore
from reference.tracker import memories_table
from reference.tracker.memories_table import _array


def test_arrays_decode_as_json_and_repeated_texts_share_one_tuple():
    for text in (None, "", "[]", '["context:auth"]', '["a","b"]', "[1,2,3]", '["ü",null,1.5]'):
        assert _array(text) == tuple(json.loads(text or "[]"))
    assert _array('["p2","x"]') is _array('["p2","x"]')
    nested = '[["a"],{"b":1}]'                       # mutable items: decoded afresh each time, never shared
    first = _array(nested)
    assert first == (["a"], {"b": 1}) and _array(nested) is not first and nested not in memories_table._ARRAYS


def test_entries_read_back_equal_what_was_written(tmp_path):
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    try:
        written = [store.write_memory(text=f"note {i}", task="task:debug", context=["context:auth"],
                                      insights=["insight:pitfall"] if i % 2 else None, tags=["p2", f"t{i}"],
                                      metadata={"n": i, "nested": {"k": [i]}} if i % 3 else None)
                   for i in range(6)]
        got = store.tracker.memories.get_many(store.tracker.conn(), [e.key_hash for e in written])
        for e in written:
            assert got[e.key_hash] == e and got[e.key_hash].metadata == e.metadata
        a, b = got[written[0].key_hash], got[written[1].key_hash]
        a.metadata["mine"] = 1                          # an entry's metadata is its own
        assert "mine" not in b.metadata and "mine" not in store.get_memory(written[0].id).metadata
    finally:
        store.close()
