"""The memory contract every backend must honour for the capabilities it declares."""
import pytest

from bench.backends import Backend, Capability as C, create_backend
from reference.clock import LogicalClock
from reference.telemetry import ListSink

from tests.contract.conftest import need

NOTES = [
    ("The auth token refresh races when two tabs refresh at once", "task:debug", ["context:auth"], ["race"]),
    ("Invoice totals are rounded once at the end with Decimal", "task:bugfix", ["context:billing"], ["money"]),
    ("Cache pip wheels in CI keyed on the lock file hash", "task:optimize", ["context:devops"], ["ci"]),
    ("Prices are integer cents in the database schema", "task:architect", ["context:billing", "context:data"], ["money"]),
]


def fill(backend, clock):
    ids = []
    for text, task, ctx, tags in NOTES:
        ids.append(backend.write_memory(text, task=task, context=ctx, tags=tags))
        clock.advance(10)
    return ids


def test_declares_name_and_capabilities(spec):
    backend = create_backend(spec)
    assert isinstance(backend, Backend) and backend.name
    assert isinstance(backend.capabilities, frozenset)
    assert all(isinstance(c, C) for c in backend.capabilities)


def test_write_then_get_round_trips(opened, clock):
    need(opened, C.MEMORY_WRITE, C.MEMORY_GET)
    ids = fill(opened, clock)
    assert len(set(ids)) == len(NOTES) and all(isinstance(i, str) for i in ids)
    rec = opened.get_memory(ids[3])
    assert rec["id"] == ids[3] and rec["text"] == NOTES[3][0]
    assert opened.get_memory("mem:00000000") is None
    if C.MEMORY_FILTERS not in opened.capabilities:
        return   # a store without the taxonomy need not keep it (an MCP peer keeps text only)
    assert rec["task"] == "task:architect" and rec["context"] == ["context:billing", "context:data"]
    assert rec["tags"] == ["money"]
    assert opened.get_memory("mem:00000000") is None


def test_bad_taxonomy_is_rejected_and_nothing_is_written(opened, clock):
    need(opened, C.MEMORY_WRITE, C.MEMORY_LIST)
    fill(opened, clock)
    with pytest.raises(ValueError, match="task:nope"):
        opened.write_memory("x", task="task:nope")
    assert len(opened.list_memories(limit=100)) == len(NOTES)


def test_list_pages_cover_everything_once(opened, clock):
    need(opened, C.MEMORY_WRITE, C.MEMORY_LIST)
    ids = fill(opened, clock)
    pages = [opened.list_memories(limit=3, offset=o) for o in (0, 3, 6)]
    seen = [r["id"] for p in pages for r in p]
    assert sorted(seen) == sorted(ids) and [len(p) for p in pages] == [3, 1, 0]


def test_search_finds_the_distinctive_memory_first(opened, clock):
    need(opened, C.MEMORY_WRITE, C.MEMORY_SEARCH)
    ids = fill(opened, clock)
    hits = opened.search_memories("wheels cache for the CI lock file", top_k=2)
    assert 1 <= len(hits) <= 2 and hits[0].id == ids[2]
    assert all(a.score >= b.score for a, b in zip(hits, hits[1:]))


def test_filters_restrict_results(opened, clock):
    need(opened, C.MEMORY_WRITE, C.MEMORY_SEARCH, C.MEMORY_FILTERS)
    ids = fill(opened, clock)
    assert {h.id for h in opened.search_memories("money", context=["context:billing"], top_k=10)} == {ids[1], ids[3]}
    assert {h.id for h in opened.search_memories(None, task="task:debug", top_k=10)} == {ids[0]}
    assert {h.id for h in opened.search_memories("cents", tags=["money"], top_k=10)} == {ids[1], ids[3]}


def test_keyword_search(opened, clock):
    need(opened, C.MEMORY_WRITE, C.KEYWORD_SEARCH)
    ids = fill(opened, clock)
    assert opened.keyword_search("Decimal", top_k=5)[0].id == ids[1]
    # FTS query syntax in user text must be taken literally, never raise
    odd = opened.keyword_search('Decimal "quote -minus col:on* AND', top_k=5)
    assert isinstance(odd, list) and all(h.id in ids for h in odd)


def test_delete_removes_from_get_and_search(opened, clock):
    need(opened, C.MEMORY_WRITE, C.MEMORY_DELETE, C.MEMORY_GET, C.MEMORY_SEARCH)
    ids = fill(opened, clock)
    assert opened.delete_memory(ids[2]) is True
    assert opened.get_memory(ids[2]) is None
    assert ids[2] not in {h.id for h in opened.search_memories("pip wheels CI cache", top_k=10)}


def test_reopen_keeps_everything(spec, tmp_path):
    backend = create_backend(spec)
    need(backend, C.MEMORY_WRITE, C.MEMORY_GET)
    clock = LogicalClock(1_700_000_000)
    backend.open(tmp_path / "s", clock, ListSink())
    ids = fill(backend, clock)
    size = backend.storage_bytes()
    backend.close()
    again = create_backend(spec)
    again.open(tmp_path / "s", clock, ListSink())
    try:
        assert [again.get_memory(i)["text"] for i in ids] == [n[0] for n in NOTES]
        assert size > 0
    finally:
        again.close()


def test_same_operations_give_same_ids_and_rankings(spec, tmp_path):
    runs = []
    for n in (1, 2):
        backend = create_backend(spec)
        need(backend, C.MEMORY_WRITE, C.MEMORY_SEARCH)
        clock = LogicalClock(1_700_000_000)
        backend.open(tmp_path / f"s{n}", clock, ListSink())
        ids = fill(backend, clock)
        runs.append((ids, [(h.id, round(h.score, 9)) for h in backend.search_memories("billing money", top_k=4)]))
        backend.close()
    assert runs[0] == runs[1]
