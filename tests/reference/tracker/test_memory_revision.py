"""The memories revision: moved by every change to the memories table, it tells the in-memory indexes
which changes they applied, so a write on another thread is applied, not rebuilt, and a write through
another store object still is seen."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from reference.clock import LogicalClock
from reference.store import MemoryStore
from reference.tracker import MemoryFilter, fts_match, memory_revision
from reference.tracker.filter_index import FilterIndex
from reference.tracker.id_index import IdIndex
from reference.tracker.keyword.postings import KeywordPostings
from reference.tracker.memory_revision import Reflected


class Undo(Exception):
    pass


@pytest.fixture
def store(tmp_path):
    s = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    yield s
    s.close()


def _rev(store) -> int:
    return memory_revision.current(store.tracker.conn())


def test_every_change_to_memories_moves_it_once(store):
    assert _rev(store) == 0
    e = store.write_memory("one", task="task:debug")
    assert _rev(store) == 1
    store.write_memories([{"text": "two"}, {"text": "three"}])
    assert _rev(store) == 3   # a batch moves it as its writes one by one would
    store.update_metadata(e.id, {"branch": "main"})
    assert _rev(store) == 4
    store.delete_memory(e.id)
    assert _rev(store) == 5
    assert not store.delete_memory(e.id) and _rev(store) == 5   # nothing deleted, nothing moved


def test_a_rolled_back_change_does_not_move_it(store):
    store.write_memory("one")
    with pytest.raises(Undo), store.tracker.tx() as conn:
        assert memory_revision.bump(conn) == 2
        raise Undo
    assert _rev(store) == 1


def test_reflected_follows_consecutive_changes_and_forgets_after_a_gap():
    r = Reflected()
    r.built(4)
    r.noted(5)
    r.noted(6)   # the next memory of the same batch
    assert r.rev == 6
    r.noted(6)   # the same change twice: not a change it can vouch for
    assert r.rev is None
    r.built(6)
    r.noted(8)   # 7 was never applied
    assert r.rev is None
    r.built(7)
    r.noted(None)
    assert r.rev is None


def _count_builds(monkeypatch) -> list[str]:
    built: list[str] = []
    orig = KeywordPostings._build
    monkeypatch.setattr(KeywordPostings, "_build", lambda self, conn: built.append("KeywordPostings") or orig(self, conn))
    read = FilterIndex._read   # the filter index reads one label family at a time (a task filter: one)
    monkeypatch.setattr(FilterIndex, "_read", lambda self, conn, fam: built.append("FilterIndex") or read(self, conn, fam))
    orig_fresh = IdIndex._fresh

    def fresh(self, conn):
        was = self._built
        ok = orig_fresh(self, conn)
        if ok and not was:
            built.append("IdIndex")
        return ok
    monkeypatch.setattr(IdIndex, "_fresh", fresh)
    return built


def _read_all(store, flt):
    conn = store.tracker.conn()
    cands = store.memories.candidates(flt)
    assert store.memories.keyword_index.ranked(conn, fts_match("alpha"), 5)
    store.memories.id_index.ids_of(conn, [int(h) for h in cands])
    return cands


def test_a_write_on_another_thread_is_applied_not_rebuilt(store, monkeypatch):
    store.memories.keyword_index.min_rows = 0
    store.write_memories([{"text": f"alpha {i}", "task": "task:debug"} for i in range(20)])
    flt = MemoryFilter(task="task:debug")
    built = _count_builds(monkeypatch)
    with ThreadPoolExecutor(1) as writer, ThreadPoolExecutor(1) as reader:
        reader.submit(_read_all, store, flt).result()
        assert sorted(built) == ["FilterIndex", "IdIndex", "KeywordPostings"]   # the first read builds each
        for i in range(5):
            writer.submit(store.write_memory, f"alpha more {i}", task="task:debug").result()
            cands = reader.submit(_read_all, store, flt).result()
            assert len(cands) == 21 + i
    assert sorted(built) == ["FilterIndex", "IdIndex", "KeywordPostings"]   # and none rebuilt after
    sql = sorted(store.tracker.memories.candidate_hashes(store.tracker.conn(), flt))
    assert np.array_equal(cands, np.array(sql, dtype=np.uint64))


def test_a_write_through_another_store_object_is_seen(tmp_path, monkeypatch):
    clock = LogicalClock(1_700_000_000.0)
    a = MemoryStore.open(tmp_path, clock=clock)
    a.write_memory("alpha one", task="task:debug")
    flt = MemoryFilter(task="task:debug")
    assert len(a.memories.candidates(flt)) == 1
    built = _count_builds(monkeypatch)
    b = MemoryStore.open(tmp_path, clock=clock)   # another process, as far as `a` can tell
    b.write_memory("alpha two", task="task:debug")
    b.close()
    a.write_memory("alpha three", task="task:debug")   # a's own note comes after a change it missed
    assert len(a.memories.candidates(flt)) == 3
    assert built == ["FilterIndex"]
    a.close()


def test_a_family_read_sees_the_state_the_index_checked(tmp_path, monkeypatch):
    """A commit landing between the revision check and a family's first read (another thread's, whose note
    waits on the index's lock; here another store object's) is not in that read: the answer mixes no
    two states. Memory x has branch a and kind b, then branch c and kind d: none ever had a and d."""
    import reference.tracker.filter_index as filter_index
    clock = LogicalClock(1_700_000_000.0)
    a = MemoryStore.open(tmp_path, clock=clock)
    x = a.write_memory("alpha x", metadata={"branch": "a", "kind": "b"})
    a.write_memory("alpha y", metadata={"branch": "a", "kind": "z"})
    assert len(a.memories.candidates(MemoryFilter(where_metadata={"branch": ["a"]}))) == 2   # branch read
    b = MemoryStore.open(tmp_path, clock=clock)
    real = filter_index.family_rows

    def commit_first(conn, family):
        if family == ("key", "kind"):
            b.update_metadata(x.id, {"branch": "c", "kind": "d"})
        return real(conn, family)

    monkeypatch.setattr(filter_index, "family_rows", commit_first)
    torn = MemoryFilter(where_metadata={"branch": ["a"], "kind": ["d"]})
    assert len(a.memories.candidates(torn)) == 0
    monkeypatch.setattr(filter_index, "family_rows", real)
    assert len(a.memories.candidates(torn)) == 0   # after the change: x has c and d
    assert len(a.memories.candidates(MemoryFilter(where_metadata={"branch": ["c"], "kind": ["d"]}))) == 1
    b.close()
    a.close()
