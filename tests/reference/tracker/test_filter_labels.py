"""Reading one label family from the table in SQL gives exactly the labels `labels_of` gives each row."""
from __future__ import annotations

import json
import sqlite3

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from reference.clock import LogicalClock
from reference.store import MemoryStore
from reference.tracker import MemoryFilter
from reference.tracker.filter_index import FilterIndex
from reference.tracker.filter_labels import family_of, family_rows, labels_of

KEYS = ["branch", "a.b", 'quo"te', "", "é", "$", "x[0]", "k\x00"]   # json_each cuts a key at U+0000
_scalars = (st.none() | st.booleans() | st.integers() | st.sampled_from([2**64 + 1, -2**63 - 3, 2**63 - 1])
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=4))
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3), max_leaves=6)
_words = st.lists(st.sampled_from(["a", "b", "ç"]), max_size=3)
_rows = st.lists(st.fixed_dictionaries({
    "task": st.none() | st.sampled_from(["t1", "t2"]), "context": _words, "insights": _words, "tags": _words,
    "metadata": st.dictionaries(st.sampled_from(KEYS), _values, max_size=4)}), min_size=1, max_size=12)
_dump = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode   # the tracker's


def _table(rows: list[dict]) -> sqlite3.Connection:
    """A memories table holding `rows` as the tracker stores them (JSON text, ensure_ascii off)."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE memories (key_hash INTEGER, task TEXT, context TEXT, insights TEXT, tags TEXT, "
                 "metadata TEXT)")
    conn.executemany("INSERT INTO memories VALUES (?, ?, ?, ?, ?, ?)", [
        (i, r["task"], _dump(r["context"]), _dump(r["insights"]), _dump(r["tags"]), _dump(r["metadata"]))
        for i, r in enumerate(rows)])
    return conn


_NO_LISTS = {"task": None, "context": [], "insights": [], "tags": []}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_rows)
@example([{**_NO_LISTS, "metadata": {}}, {**_NO_LISTS, "metadata": {"branch": "\x00"}}])   # found by hypothesis
@example([{**_NO_LISTS, "metadata": {"k\x00": "a", "k": "b\x00c"}}])
def test_each_family_read_in_sql_equals_the_python_labels(rows):
    conn = _table(rows)
    want: dict[tuple, dict[int, set]] = {}
    for i, r in enumerate(rows):
        meta = json.loads(_dump(r["metadata"]))   # as the store holds it: nested keys sorted too
        for lab in labels_of(r["task"], r["context"], r["insights"], r["tags"], meta):
            want.setdefault(family_of(lab), {}).setdefault(i, set()).add(lab)
    families = [("all",), ("task",), ("context",), ("insights",), ("tags",)] + [("key", k) for k in KEYS]
    for fam in families:
        pairs = list(family_rows(conn, fam))
        got = {kh: set(labels) for kh, labels in pairs}
        assert len(got) == len(pairs) and got == want.get(fam, {}), fam   # each row once, its labels exact


def test_families_read_at_different_times_stay_exact_through_changes(tmp_path):
    """A family read after writes, updates and deletes, and one read before them and kept by the notes,
    answer as the SQL filter does; a family never named is never read."""
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path, clock=clock)
    reads: list[tuple] = []
    index = store.memories.filter_index
    real_read = FilterIndex._read
    index._read = lambda conn, fam: reads.append(fam) or real_read(index, conn, fam)
    ids = [store.write_memory(f"m {i}", task="task:debug" if i % 2 else None,
                              metadata={"branch": ["main", "dev", 1.5, None][i % 4], "sha": f"s{i}"}).id
           for i in range(40)]
    sql = store.tracker.memories.candidate_hashes

    def check(flt):
        want = np.array(sorted(sql(store.tracker.conn(), flt)), dtype=np.uint64)
        assert np.array_equal(store.memories.candidates(flt), want), flt

    check(MemoryFilter(where_metadata={"branch": ["main", 1.5]}))
    for mid in ids[:6]:
        store.update_metadata(mid, {"branch": "dev"})
    for mid in ids[6:10]:
        store.delete_memory(mid)
    store.write_memory("late", task="task:debug", metadata={"branch": "main"})
    check(MemoryFilter(where_metadata={"branch": ["main", "dev", None]}))
    check(MemoryFilter(task="task:debug", where_metadata={"branch": ["dev"]}))
    assert reads == [("key", "branch"), ("all",), ("task",)]   # each read once; "sha" never
    store.close()
