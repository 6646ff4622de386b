"""A synthetic scenario for the planted-backend tests: many writes, many single-answer queries.

Memory i is about a made-up component `comp<i>` with its own words, so each query (the
component's words) has one clear best memory: an honest ranker puts it first, and
any change to the order of the top three is visible in nDCG.
"""
from __future__ import annotations

import json
from pathlib import Path

WORDS = ("cache", "retry", "token", "schema", "queue", "index", "lock", "batch", "socket", "parser",
         "router", "budget", "ledger", "shard", "cursor", "beacon", "valve", "prism", "quartz", "ember")


def _text(i: int) -> str:
    a, b, c = WORDS[i % 20], WORDS[(i * 7 + 3) % 20], WORDS[(i * 13 + 5) % 20]
    return f"Component comp{i} handles the {a} and {b} path; its {c} step failed once in build {1000 + i}."


def write_synthetic(folder: Path, writes: int = 120, queries: int = 30) -> Path:
    """Write `synthetic.jsonl` (header, a session, `writes` memories, `queries` searches) into `folder`."""
    lines = [{"scenario": "synthetic", "format": 1, "description": "planted-backend test scenario",
              "start_time": 1_700_000_000, "latency_budget_ms": 50,
              "targets": [{"metric": "check_rate", "op": ">=", "value": 1.0}]},
             {"directive": "session", "session_id": "s1", "run_id": "r1", "task_id": "t1", "scope": "repo:x"}]
    for i in range(writes):
        lines.append({"tool": "memory_write_structured", "as": f"m{i}",
                      "args": {"text": _text(i), "task": "task:debug", "tags": [f"comp{i}"]}})
        lines.append({"directive": "advance_clock", "seconds": 30})
    step = max(1, writes // queries)
    for q in range(queries):
        i = q * step
        lines.append({"tool": "memory_search_structured", "id": f"q{q}", "args": {"query": f"comp{i} build {1000 + i}"},
                      "expect": {"relevant": {f"m{i}": 2}}})
    for q in range(0, writes, 10):
        lines.append({"tool": "memory_get", "args": {"memory_id": f"$m{q}"}, "expect": {"found": True}})
    path = folder / "synthetic.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path
