"""A server started on a tracker.db damaged in its first data pages: one line naming the file, exit 2.

Page 3 is first read by the knowledge backfill while the tools are built (a raw
`sqlite3.DatabaseError` there used to escape as a traceback); page 4 fails the
open-time integrity check, whose multi-line report used to be printed as is. The servers run
`--tools all`: the default `core` profile loads no knowledge tools, so it never reads page 3 at start-up
(a damaged page there is then reported by the first call that reads it, and by `verify`).
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from reference.clock import LogicalClock
from reference.store import MemoryStore
from tests.reference.faults import data_pages


@pytest.mark.parametrize("module", ["bench.cli.main serve", "reference.mcp_server"])
@pytest.mark.parametrize("nth", [0, 1])
def test_a_damaged_data_page_exits_with_one_line_naming_the_file(tmp_path, module, nth):
    data = tmp_path / "data"
    store = MemoryStore.open(data, clock=LogicalClock(1.0))
    for i in range(20):
        store.write_memory(f"memory number {i} about retry logic")
    store.tracker.checkpoint()
    store.close()
    db = data / "tracker.db"
    pages, size = data_pages(db)
    raw = bytearray(db.read_bytes())
    at = (pages[nth] - 1) * size
    raw[at + 8:at + 40] = bytes(b ^ 0xFF for b in raw[at + 8:at + 40])
    db.write_bytes(bytes(raw))
    done = subprocess.run([sys.executable, "-m", *module.split(), "--data", str(data), "--tools", "all"],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr[-2000:]
    assert "error:" in lines[0] and str(db) in lines[0] and len(lines[0]) < 700


@pytest.mark.parametrize("cache", ["1", ""])
def test_a_client_of_a_server_that_cannot_start_is_answered_with_the_error(tmp_path, monkeypatch, cache):
    """Issue 25: the client's requests get the start-up error naming the file, not a closed connection."""
    from tests.reference.mcp_server.wire import RawServer

    monkeypatch.setenv("CODEMEM_MCP_NO_CACHE", cache)
    data = tmp_path / "data"
    with MemoryStore.open(data, clock=LogicalClock(1.0)) as store:
        for i in range(20):
            store.write_memory(f"memory number {i} about retry logic")
        store.tracker.checkpoint()
    db = data / "tracker.db"
    db.write_bytes(b"this is no database" * 200)
    srv = RawServer(data, "--tools", "all")
    init = srv.initialize()
    call = srv.request("tools/call", {"name": "memory_list_structured", "arguments": {}})
    answers = [a for a in (init, call) if "error" in a]
    assert answers, (init, call)
    for a in answers:
        assert "could not start" in a["error"]["message"] and str(db) in a["error"]["message"], a
    assert call.get("error"), call                 # a tool call is never answered as if the store were there
    code, err = srv.close()
    assert code == 2 and str(db) in err and "Traceback" not in err, err
