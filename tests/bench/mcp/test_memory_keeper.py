"""The memory-keeper adapter (mcp-memory-keeper, written from the README checklist alone, no Python).

No peer needs to be installed: the file is loaded and checked as declared, and its read expressions are
run on answers shaped exactly as mcp-memory-keeper 0.14.1 gives them (text for a save, a miss and a failed
save; JSON for items found and for a batch delete).
"""
import json

import pytest

from bench.backends import Capability as C, create_backend
from bench.backends.mcp.adapter import load_adapter
from bench.backends.mcp.peers import PeerNotInstalled
from bench.backends.mcp.results import pick


@pytest.fixture(scope="module")
def adapter():
    return load_adapter("memory-keeper")


def test_declares_only_what_the_server_does(adapter):
    assert set(adapter.capabilities) == {C.MEMORY_WRITE, C.MEMORY_GET, C.KEYWORD_SEARCH, C.MEMORY_DELETE}
    assert adapter.install.npm == "mcp-memory-keeper@0.14.1" and adapter.version == "0.14.1"
    assert adapter.server.env["DATA_DIR"] == "{data}"        # context.db lives in the store folder
    assert adapter.server.env["HOME"].startswith("{side}")
    assert adapter.server.env["TOOL_PROFILE"] == "standard"
    assert set(adapter.ops) == {"write_memory", "get_memory", "keyword_search", "delete_memory"}
    assert adapter.ops["write_memory"].args["key"] == "{uid}"
    for why in ("memory.search", "memory.filters", "memory.list", "created_at"):
        assert why in adapter.why


def test_write_id_only_when_the_server_says_saved(adapter):
    expr = adapter.ops["write_memory"].id
    saved = {"text": "Saved: m-1\nCategory: note\nPriority: normal\nChannel: general\nSession: 1234abcd"}
    failed = {"text": "Failed to save context item: SQLITE_FULL"}
    assert pick(expr, saved, where="w", values={"uid": "m-1"}) == "m-1"
    assert pick(expr, failed, where="w", values={"uid": "m-1"}) is None


def test_get_reads_the_item_and_a_miss_is_missing(adapter):
    op = adapter.ops["get_memory"]
    found = json.loads('{"items": [{"key": "m-1", "value": "cache pip wheels", "category": "note"}],'
                       ' "pagination": {"total": 1}}')
    miss = {"text": "No matching context found"}
    assert pick(op.record, found, where="g", values={"id": "m-1"}) == {"id": "m-1", "text": "cache pip wheels"}
    assert pick(op.missing, found, where="g", values={"id": "m-1"}) is False
    assert pick(op.missing, miss, where="g", values={"id": "m-1"}) is True


def test_search_keeps_the_servers_order_and_no_match_is_empty(adapter):
    expr = adapter.ops["keyword_search"].hits
    answer = {"items": [{"key": "m-3"}, {"key": "m-1"}], "totalCount": 2, "query": "pip"}
    assert pick(expr, answer, where="s", values={}) == ["m-3", "m-1"]
    assert pick(expr, {"text": 'No results found for: "zzz"'}, where="s", values={}) == []


def test_delete_is_true_only_when_something_was_deleted(adapter):
    expr = adapter.ops["delete_memory"].deleted
    assert pick(expr, {"operation": "batch_delete", "totalDeleted": 1}, where="d", values={}) is True
    assert pick(expr, {"operation": "batch_delete", "totalDeleted": 0}, where="d", values={}) is False


def test_not_installed_is_an_error_naming_the_install_command(tmp_path, monkeypatch):
    monkeypatch.setenv("CODEMEM_BENCH_PEERS", str(tmp_path))
    with pytest.raises(PeerNotInstalled, match="codemem-bench peers install memory-keeper"):
        create_backend("mcp:memory-keeper")


@pytest.fixture
def installed(adapter):
    from bench.backends.mcp.peers import is_installed
    if not is_installed(adapter):
        pytest.skip("mcp-memory-keeper is not installed: codemem-bench peers install memory-keeper")


def test_delete_after_reopen_against_the_real_server(installed, tmp_path):
    """The contract suite checks delete only with memory.list: this drives it on the installed server."""
    from reference.clock import LogicalClock
    from reference.telemetry import ListSink
    store, clock = tmp_path / "store", LogicalClock(1_700_000_000)
    backend = create_backend("mcp:memory-keeper")
    backend.open(store, clock, ListSink())
    try:
        first = backend.write_memory("cache pip wheels between CI runs")
        second = backend.write_memory("pin numpy below 2 for the old wheels")
    finally:
        backend.close()
    assert (store / "context.db").is_file()
    backend = create_backend("mcp:memory-keeper")
    backend.open(store, clock, ListSink())        # a new server process on the same file
    try:
        assert [h.id for h in backend.keyword_search("WHEELS", top_k=5)] == [first, second]   # oldest first (sort = created_asc)
        assert backend.delete_memory(first) is True
        assert backend.delete_memory(first) is False
        assert backend.get_memory(first) is None
        assert backend.get_memory(second)["text"] == "pin numpy below 2 for the old wheels"
        assert backend.keyword_search("no such words", top_k=5) == []
    finally:
        backend.close()


def test_search_asks_for_insertion_order(adapter):
    # the server's default order mixes wall-clock seconds with insertion order: ranks would vary by run
    assert adapter.ops["keyword_search"].args["sort"] == "created_asc"
