"""More of the memory contract: clock-only timestamps, bad input, deletes, list filters, metadata filters."""
import pytest

from bench.backends import Capability as C, create_backend
from reference.clock import LogicalClock
from reference.telemetry import ListSink

from tests.contract.conftest import need
from tests.contract.test_memory_contract import NOTES, fill


def test_created_at_is_the_injected_clock_time(opened, clock):
    need(opened, C.MEMORY_WRITE, C.MEMORY_GET)
    clock.set(1_700_000_000.25)
    first = opened.write_memory("first note about the cache")
    clock.advance(7.5)
    second = opened.write_memory("second note about the cache")
    if opened.get_memory(first)["created_at"] is None:
        pytest.skip(f"{opened.label} reports no created_at (a server with its own clock, e.g. an MCP peer)")
    assert opened.get_memory(first)["created_at"] == 1_700_000_000.25
    assert opened.get_memory(second)["created_at"] == 1_700_000_007.75


BAD_WRITES = [
    {"text": ""},
    {"text": "   "},
    {"text": "ok", "tags": "not-a-list"},
    {"text": "ok", "context": ["context:nope"]},
    {"text": "ok", "insights": ["insight:nope"]},
    {"text": "ok", "metadata": "not-a-dict"},
]


def test_bad_write_raises_value_error_and_writes_nothing(opened, clock):
    """Every bad write in one store (reference-mcp starts one server, not six)."""
    need(opened, C.MEMORY_WRITE, C.MEMORY_LIST)
    ids = fill(opened, clock)
    for kwargs in BAD_WRITES:
        with pytest.raises(ValueError):
            opened.write_memory(**kwargs)
        assert sorted(r["id"] for r in opened.list_memories(limit=100)) == sorted(ids), kwargs


def test_delete_is_seen_by_list_and_get_and_survives_reopen(spec, tmp_path):
    backend = create_backend(spec)
    need(backend, C.MEMORY_WRITE, C.MEMORY_DELETE, C.MEMORY_GET, C.MEMORY_LIST)
    clock = LogicalClock(1_700_000_000)
    backend.open(tmp_path / "s", clock, ListSink())
    ids = fill(backend, clock)
    assert backend.delete_memory(ids[1]) is True
    assert backend.delete_memory(ids[1]) is False
    assert backend.delete_memory("mem:00000000") is False
    assert sorted(r["id"] for r in backend.list_memories(limit=100)) == sorted(ids[:1] + ids[2:])
    backend.close()
    again = create_backend(spec)
    again.open(tmp_path / "s", clock, ListSink())
    try:
        assert again.get_memory(ids[1]) is None and again.get_memory(ids[2])["text"] == NOTES[2][0]
        assert len(again.list_memories(limit=100)) == len(NOTES) - 1
    finally:
        again.close()


def test_list_filters_select_by_task_and_context(opened, clock):
    need(opened, C.MEMORY_WRITE, C.MEMORY_LIST, C.MEMORY_FILTERS)
    ids = fill(opened, clock)
    assert {r["id"] for r in opened.list_memories(context=["context:billing"], limit=10)} == {ids[1], ids[3]}
    assert {r["id"] for r in opened.list_memories(context=["context:billing", "context:data"])} == {ids[3]}
    assert [r["id"] for r in opened.list_memories(task="task:optimize")] == [ids[2]]
    assert opened.list_memories(task="task:research") == []


def test_unknown_slug_in_a_filter_is_rejected(opened, clock):
    need(opened, C.MEMORY_WRITE, C.MEMORY_SEARCH, C.MEMORY_FILTERS)
    fill(opened, clock)
    with pytest.raises(ValueError, match="task:nope"):
        opened.search_memories("money", task="task:nope")
    with pytest.raises(ValueError, match="context:nope"):
        opened.search_memories("money", context=["context:nope"])


def test_metadata_filters_match_values_and_missing_keys(opened, clock):
    need(opened, C.MEMORY_WRITE, C.MEMORY_SEARCH, C.METADATA_FILTERS)
    on_main = opened.write_memory("retry the flaky upload", metadata={"branch": "main"})
    on_feature = opened.write_memory("retry the flaky upload twice", metadata={"branch": "feature/x"})
    no_branch = opened.write_memory("retry the flaky upload later")

    def found(where):
        return {h.id for h in opened.search_memories("flaky upload", top_k=10, where_metadata=where)}

    assert found({"branch": ["main"]}) == {on_main}
    assert found({"branch": ["main", None]}) == {on_main, no_branch}
    assert found({"branch": ["feature/x", "main"]}) == {on_main, on_feature}
    assert found({"branch": []}) == set()
