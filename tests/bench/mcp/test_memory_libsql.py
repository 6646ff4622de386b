"""The memory-libsql adapter (written from the README checklist alone) and the two read features it needed.

No peer needs to be installed: the adapter file is checked as declared, and `arg(name)` and `not_found`
are driven end to end through `McpBackend` against `fake_server.py`, a stdio server with the same
awkward answers as mcp-memory-libsql (an id-less write answer, substring lookup, an error for a missing id).
"""
from pathlib import Path

import pytest

from bench.backends import Capability as C, create_backend
from bench.backends.mcp.adapter import load_adapter
from bench.backends.mcp.peers import PeerNotInstalled
from bench.backends.mcp.results import pick
from reference.clock import LogicalClock
from reference.telemetry import ListSink

FAKE = Path(__file__).with_name("fake_server.py")

FAKE_ADAPTER = f"""
name = "fake"
description = "fake_server.py: answers like mcp-memory-libsql"
capabilities = ["memory.write", "memory.get", "memory.delete"]
[server]
command = "{{python}}"
args = ["{FAKE}", "{{data}}"]
[ops.write_memory]
tool = "put"
args = {{ name = "{{uid}}", text = "{{text}}" }}
id = "arg('uid')"
[ops.get_memory]
tool = "find"
args = {{ query = "{{id}}" }}
record = "entities[?name == arg('id')] | [0].{{id: name, text: observations[0]}}"
[ops.delete_memory]
tool = "drop"
args = {{ name = "{{id}}" }}
not_found = "Entity not found"
"""


def test_memory_libsql_declares_only_what_the_server_does():
    adapter = load_adapter("memory-libsql")
    assert set(adapter.capabilities) == {C.MEMORY_WRITE, C.MEMORY_GET, C.KEYWORD_SEARCH, C.MEMORY_DELETE}
    assert adapter.install.npm == "mcp-memory-libsql@0.0.17" and adapter.version == "0.0.17"
    assert adapter.server.env["LIBSQL_URL"].startswith("file:{data}/")   # the database lives in the store folder
    assert adapter.server.env["HOME"].startswith("{side}")
    ops = adapter.ops
    assert set(ops) == {"write_memory", "get_memory", "keyword_search", "delete_memory"}
    assert ops["write_memory"].id == "arg('uid')" and ops["write_memory"].args["entities"][0]["name"] == "{uid}"
    assert "arg('id')" in ops["get_memory"].record
    assert ops["keyword_search"].tool == "search_nodes" and ops["keyword_search"].scores is None
    assert ops["delete_memory"].not_found
    for why in ("memory.search", "memory.list", "created_at"):
        assert why in adapter.why


def test_memory_libsql_not_installed_is_an_error_naming_the_install_command(tmp_path, monkeypatch):
    monkeypatch.setenv("CODEMEM_BENCH_PEERS", str(tmp_path))
    with pytest.raises(PeerNotInstalled, match="codemem-bench peers install memory-libsql"):
        create_backend("mcp:memory-libsql")


def test_arg_reads_the_calls_values_and_an_unknown_one_names_the_field():
    answer = {"entities": [{"name": "m-2", "t": "see m-1"}, {"name": "m-1", "t": "first"}]}
    assert pick("arg('uid')", answer, where="w", values={"uid": "m-9"}) == "m-9"
    assert pick("entities[?name == arg('id')] | [0].t", answer, where="w", values={"id": "m-1"}) == "first"
    with pytest.raises(ValueError, match=r"\[ops.get_memory\].record: arg\('nope'\).*known: id"):
        pick("arg('nope')", answer, where="[ops.get_memory].record", values={"id": "m-1"})


def test_not_found_is_refused_outside_get_and_delete(tmp_path):
    path = tmp_path / "fake.toml"
    path.write_text(FAKE_ADAPTER.replace('id = "arg(\'uid\')"', 'id = "arg(\'uid\')"\nnot_found = "x"'))
    with pytest.raises(ValueError, match=r"ops.write_memory\].not_found"):
        load_adapter(path)


def test_fake_libsql_shaped_server_round_trips_through_the_adapter(tmp_path, monkeypatch):
    (tmp_path / "adapters").mkdir()
    (tmp_path / "adapters" / "fake.toml").write_text(FAKE_ADAPTER)
    monkeypatch.setenv("CODEMEM_BENCH_ADAPTERS", str(tmp_path / "adapters"))
    backend = create_backend("mcp:fake")
    clock = LogicalClock(1_700_000_000)
    backend.open(tmp_path / "store", clock, ListSink())
    try:
        first = backend.write_memory("cache pip wheels")
        clock.advance(1)
        second = backend.write_memory(f"superseded by nothing, see {first}")
        assert first != second and first.startswith("m-")
        # find answers newest first, so the second (whose text names the first) comes first: the filter
        # on arg('id') must still return the first
        assert backend.get_memory(first)["text"] == "cache pip wheels"
        assert backend.get_memory("m-0000000000000000") is None
        assert backend.delete_memory(first) is True
        assert backend.delete_memory(first) is False          # the server's "Entity not found" error
        assert backend.get_memory(first) is None and backend.get_memory(second)["id"] == second
        assert (tmp_path / "store" / "entities.json").is_file()
    finally:
        backend.close()
