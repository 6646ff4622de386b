"""Where a single write's CPU time goes, part by part, at a given store size (a profiling report, no assertion).

Run:  python -m bench.benchmarks.write_phases [N ...]          (default 1000 10000)

For each N it builds (once, under `$CODEMEM_BENCH_CACHE/write-phases/`, default `.cache/`) a store
of N synthetic memories written in batches of 1,000 with the knowledge layer on, copies it, warms it
with 30 single writes, then times 300 more with `time.thread_time_ns` around each part of the write
path and prints the CPU p50 of each part and of the whole write. The store's embedder is the one
`CODEMEM_EMBEDDER` names (default hashing-v1; `CODEMEM_EMBEDDER=minilm` for all-MiniLM-L6-v2, its stores cached
apart). The lexical index's share (`reference/lexical`: every ranker's keyword side) is not in the write: its
listener queues the memory and the next search indexes it; it is timed after each write as its own line. The parts nest (the neighbour
lookup is inside the knowledge layer's share); the timers add about 10% to the total, so compare
parts with each other and the total with `bench_ingest.py`'s. The first run after a store is built
reads freshly written files and runs slower: take the second. reference/README.md ("Writes") quotes
this report.
"""
from __future__ import annotations

import functools
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.benchmarks.synthetic_memories import record
from reference.clock import LogicalClock
from reference.embed.env import env_embedder
from reference.knowledge import KnowledgeLayer
from reference.lexical.layer import LexicalLayer
from reference.store import MemoryStore

WARM, TIMED = 30, 300
LEXICAL = "lexical index (at the next search)"   # timed after the write, not part of it


def _cache_dir() -> Path:
    root = os.environ.get("CODEMEM_BENCH_CACHE")
    return (Path(root) if root else Path(__file__).resolve().parents[2] / ".cache") / "write-phases"


def built_store(n: int) -> Path:
    """A store of `n` synthetic memories with the knowledge layer, built once and kept (never written again)."""
    name = embedder_name()
    path = _cache_dir() / (f"store-{n}" if name == "hashing-v1" else f"store-{n}-{name}")
    if not (path / "tracker.db").exists():
        shutil.rmtree(path, ignore_errors=True)
        clock, rng = LogicalClock(1_700_000_000.0), random.Random(0)
        store = MemoryStore.open(path, clock=clock, embedder=env_embedder())
        KnowledgeLayer.for_store(store)
        for start in range(0, n, 1000):
            clock.advance(1)
            store.write_memories([record(rng, i) for i in range(start, min(n, start + 1000))])
        store.close()
    return path


def embedder_name() -> str:
    """The name of the embedder the stores are built with (`CODEMEM_EMBEDDER`, default hashing-v1)."""
    chosen = env_embedder()
    return "hashing-v1" if chosen is None else chosen.name


class PartTimer:
    """CPU nanoseconds spent in each wrapped callable during the current write (`parts`)."""

    def __init__(self) -> None:
        self.parts: dict[str, int] = {}

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.thread_time_ns()
            try:
                return fn(*args, **kwargs)
            finally:
                self.parts[name] = self.parts.get(name, 0) + time.thread_time_ns() - start
        return timed


def phases(n: int) -> dict[str, float]:
    """CPU p50 in µs of each part of a single write into a copy of the `n`-memory store, and of the whole."""
    import reference.knowledge.neighbours as neighbours
    import reference.memories.memories as memories_module
    with tempfile.TemporaryDirectory(prefix="write-phases-") as tmp:
        path = Path(tmp) / "store"
        shutil.copytree(built_store(n), path)
        clock = LogicalClock(1_800_000_000.0)
        store = MemoryStore.open(path, clock=clock, embedder=env_embedder())
        KnowledgeLayer.for_store(store)
        lexical = LexicalLayer.for_store(store)
        lexical.sync()   # built now, as a ranker's first search builds it
        timer = PartTimer()
        patched = [(memories_module, "validate_memory"), (memories_module, "insert_many"),
                   (neighbours, "live_neighbours")]
        saved = [(owner, name, getattr(owner, name)) for owner, name in patched]
        names = {"validate_memory": "validation and redaction", "insert_many": "ids, keys, blob, memory row, FTS",
                 "live_neighbours": "  of which the neighbour lookup"}
        try:
            for owner, name, fn in saved:
                setattr(owner, name, timer.wrap(names[name], fn))
            store.memories.embedder.embed = timer.wrap("embedding", store.memories.embedder.embed)
            store.vectors.put = timer.wrap("vector append", store.vectors.put)
            store._notify = timer.wrap("knowledge layer", store._notify)
            rng = random.Random(5)
            recs = [record(rng, 10**7 + j) for j in range(WARM + TIMED)]
            for r in recs[:WARM]:
                clock.advance(1)
                store.write_memory(**r)
            seen: dict[str, list[int]] = {}
            for r in recs[WARM:]:
                timer.parts.clear()
                clock.advance(1)
                start = time.thread_time_ns()
                store.write_memory(**r)
                timer.parts["whole write"] = time.thread_time_ns() - start
                start = time.thread_time_ns()
                lexical.sync()
                timer.parts[LEXICAL] = time.thread_time_ns() - start
                for name, ns in timer.parts.items():
                    seen.setdefault(name, []).append(ns)
        finally:
            for owner, name, fn in saved:
                setattr(owner, name, fn)
            store.close()
    return {name: statistics.median(v) / 1000 for name, v in seen.items()}


def main(argv: list[str]) -> int:
    for n in [int(a) for a in argv] or [1000, 10000]:
        found = phases(n)
        parts = sum(v for k, v in found.items() if k not in ("whole write", LEXICAL) and not k.startswith("  "))
        print(f"N={n}: CPU p50 per single write (µs), {TIMED} writes, embedder {embedder_name()}")
        for name, us in found.items():
            print(f"  {name:36s} {us:8.1f}")
        print(f"  {'COMMIT and the rest':36s} {found['whole write'] - parts:8.1f}  (whole write minus the parts)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
