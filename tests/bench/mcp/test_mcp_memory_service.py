"""mcp-memory-service against the real server (skipped, naming the install command, when not installed).

The contract suite checks `memory.delete` only with `memory.list`, which this adapter cannot declare, so
delete is checked here; so are the taxonomy filters through tags and the server's refusal of near-duplicates.
"""
from __future__ import annotations

import pytest

from bench.backends import create_backend
from bench.backends.mcp.adapter import load_adapter
from bench.backends.mcp.peers import is_installed
from reference.clock import LogicalClock
from reference.telemetry import ListSink

pytestmark = pytest.mark.skipif(not is_installed(load_adapter("mcp-memory-service")),
                                reason="mcp-memory-service is not installed: codemem-bench peers install mcp-memory-service")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    b = create_backend("mcp:mcp-memory-service")
    b.open(tmp_path_factory.mktemp("mms") / "s", LogicalClock(1_700_000_000), ListSink())
    yield b
    b.close()


def test_write_search_filter_and_delete(server):
    auth = server.write_memory("refresh the oauth token before it expires", task="task:debug", context=["context:auth"])
    bill = server.write_memory("invoices are rounded to whole cents in the billing module", task="task:bugfix",
                               tags=["money"])
    assert len(auth) == 64 and auth != bill
    assert [h.id for h in server.search_memories("renew the login credential", top_k=2)][0] == auth
    assert [h.id for h in server.search_memories("renew the login credential", task="task:bugfix")] == [bill]
    assert [h.id for h in server.search_memories("cents", context=["context:auth"])] == [auth]
    assert [h.id for h in server.search_memories("cents", tags=["money"])] == [bill]
    assert server.search_memories("cents", task="task:debug", tags=["money"]) == []   # all labels must match
    assert server.delete_memory(bill) is True and server.delete_memory(bill) is False
    assert [h.id for h in server.search_memories("billing cents invoices", top_k=5)] == [auth]


def test_a_near_duplicate_is_refused_not_silently_merged(server):
    server.write_memory("the cache key includes the branch name")
    with pytest.raises(ValueError, match="Duplicate content"):
        server.write_memory("the cache key includes the branch name.")
