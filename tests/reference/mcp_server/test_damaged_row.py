"""One damaged memory row (issue 25): the server starts, serves every other memory and names the damaged one.

Before, one flipped byte in a memory row made `serve` refuse to start ("cannot open the store ...
row checksum mismatch"), so the client saw only a closed connection and lost every memory.
"""
from __future__ import annotations

from reference.clock import LogicalClock
from reference.store import MemoryStore
from tests.reference.mcp_server.conftest import open_server
from tests.reference.mcp_server.wire import RawServer

N, BAD = 20, 7


def damaged_store(data):
    with MemoryStore.open(data, clock=LogicalClock(1.0)) as store:
        ids = [store.write_memory(f"memory number {i} about retry logic zq{i:03d}x").id for i in range(N)]
        store.tracker.checkpoint()
    db = data / "tracker.db"
    raw = bytearray(db.read_bytes())
    at = raw.find(f"zq{BAD:03d}x".encode())
    assert at > 0 and raw.find(f"zq{BAD:03d}x".encode(), at + 1) < 0        # the row's text, once
    raw[at + 2] ^= 0x01
    db.write_bytes(bytes(raw))
    return ids, db


def test_the_server_starts_serves_the_others_and_names_the_damaged_row(tmp_path):
    ids, db = damaged_store(tmp_path / "data")
    ctx, mcp = open_server(tmp_path / "data", root=tmp_path)          # --tools all: every layer's start-up
    try:
        status = mcp.call("memory_status")
        assert not status["ok"] and len(status["damaged"]) == 1
        assert str(db) in status["damaged"][0] and ids[BAD] in status["damaged"][0]
        for i, mid in enumerate(ids):
            if i == BAD:
                text = mcp.error("memory_get", memory_id=mid)
                assert str(db) in text and mid in text and "row checksum mismatch" in text
            else:
                assert mcp.call("memory_get", memory_id=mid)["text"].startswith(f"memory number {i} ")
        listed = mcp.error("memory_list_structured")                    # a list could silently miss it
        assert str(db) in listed and ids[BAD] in listed
        filtered = mcp.error("memory_search_structured", query="retry", tags=["x"])
        assert ids[BAD] in filtered
        hits = mcp.call("memory_search_structured", query="memory number 3 about retry", top_k=3)
        assert hits[0]["id"] == ids[3]
    finally:
        mcp.close()
        ctx.close()


def test_over_stdio_initialize_and_the_status_answer(tmp_path):
    ids, db = damaged_store(tmp_path / "data")
    srv = RawServer(tmp_path / "data", "--tools", "core")
    try:
        assert srv.initialize()["result"]["serverInfo"]
        got = srv.request("tools/call", {"name": "memory_status", "arguments": {}})
        assert ids[BAD] in str(got["result"]["structuredContent"]["damaged"])
        got = srv.request("tools/call", {"name": "memory_get", "arguments": {"memory_id": ids[0]}})
        content = got["result"]["structuredContent"]
        assert content.get("result", content)["id"] == ids[0]
    finally:
        srv.close()
