"""What an agent pays for an MCP memory server: start-up to the first answer, and its tool listing's size."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from reference.clock import LogicalClock
from reference.telemetry import ListSink


def measure(adapter_name: str, workdir: Path, calls: int = 5) -> dict[str, Any]:
    """Start the server on an empty store, list its tools, then time `calls` writes and reads of each kind.

    Start-up is from spawning the process to the answered `tools/list` (the initialize handshake included).
    Token counts are approximate: characters / 4.
    """
    from bench.backends.mcp.backend import McpBackend

    backend = McpBackend(adapter_name)
    clock = LogicalClock(1_700_000_000)
    backend.open(workdir / "store", clock, ListSink())
    try:
        per_tool: dict[str, list[float]] = {}
        ids = []
        for i in range(calls):
            t0 = time.perf_counter()
            ids.append(backend.write_memory(f"surface probe {i}: the auth token refresh races in tab {i}"))
            per_tool.setdefault(backend.adapter.ops["write_memory"].tool, []).append(time.perf_counter() - t0)
            clock.advance(1)
        for op, call in (("get_memory", lambda i: backend.get_memory(ids[i])),
                         ("search_memories", lambda i: backend.search_memories("token refresh", top_k=5)),
                         ("keyword_search", lambda i: backend.keyword_search("refresh", top_k=5))):
            if op not in backend.adapter.ops:
                continue
            for i in range(calls):
                t0 = time.perf_counter()
                call(i)
                per_tool.setdefault(backend.adapter.ops[op].tool, []).append(time.perf_counter() - t0)
        return {"backend": f"mcp:{adapter_name}", **backend.surface,
                "call_ms_median": {t: sorted(v)[len(v) // 2] * 1000 for t, v in per_tool.items()}}
    finally:
        backend.close()
