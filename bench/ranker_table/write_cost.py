"""The cost of a reference store write with a given embedder, uncached: ms per memory, wall and CPU.

`write_cost(embedder_name, texts)` opens a fresh `MemoryStore` in a temporary folder with the embedder built
from the registry (never the opt-in row cache), writes the scenario's memories one `write_memory` at a time,
then the same memories again in a second fresh store as one `write_memories` batch, and returns the medians
and means per memory. The texts are the first `n` memory writes of a history scenario (real commit memories:
message, files, patch excerpt; 434 characters on average for sqlite-utils).
"""
from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from reference.clock import LogicalClock
from reference.embed.registry import get_embedder
from reference.store import MemoryStore


def scenario_writes(path: Path, n: int) -> list[dict]:
    """The arguments of the first `n` `memory_write_structured` steps of a scenario file."""
    steps = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    fields = ("text", "task", "insights", "context", "symbol_keys", "tags", "metadata")
    return [{k: v for k, v in s["args"].items() if k in fields}
            for s in steps if s.get("tool") == "memory_write_structured"][:n]


def write_cost(embedder_name: str, records: list[dict]) -> dict:
    """{"one_by_one": {...}, "batch": {...}} in ms per memory (wall median/mean, CPU mean), fresh stores."""
    embedder = get_embedder(embedder_name)
    embedder.embed(["warm up: the first call loads what the later ones reuse"])
    out = {"embedder": embedder.name, "memories": len(records)}
    with tempfile.TemporaryDirectory(prefix="codemem-write-cost-") as tmp:
        store = MemoryStore.open(Path(tmp) / "one", clock=LogicalClock(1_700_000_000.0), embedder=embedder)
        walls, cpu0 = [], time.process_time()
        try:
            for rec in records:
                t = time.perf_counter()
                store.write_memory(**rec)
                walls.append((time.perf_counter() - t) * 1000.0)
        finally:
            store.close()
        cpu = (time.process_time() - cpu0) * 1000.0 / len(records)
        out["one_by_one"] = {"wall_median_ms": statistics.median(walls), "wall_mean_ms": statistics.fmean(walls),
                             "cpu_mean_ms": cpu}
        store = MemoryStore.open(Path(tmp) / "batch", clock=LogicalClock(1_700_000_000.0), embedder=embedder)
        try:
            t, cpu0 = time.perf_counter(), time.process_time()
            store.write_memories(records)
            out["batch"] = {"wall_mean_ms": (time.perf_counter() - t) * 1000.0 / len(records),
                            "cpu_mean_ms": (time.process_time() - cpu0) * 1000.0 / len(records)}
        finally:
            store.close()
    return out
