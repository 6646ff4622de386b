"""Write cost and learn-ingest time of the knowledge layer against store size (issue 15, "Fast writes").

Run:  python -m bench.benchmarks.knowledge_scaling --sizes 1000,5000,20000 --concepts 2000,4000,8000

For each size a fresh store with the knowledge layer on (as the reference backend and
the MCP server open it) is filled with `bench_knowledge.note` memories, one write at a
time through the layer, then `--writes` more writes are timed one by one: p50 / p95 in
ms, wall clock, and p50 / mean of this process's CPU time (steadier on a loaded machine). `--concepts` times one `oracle_learn` call (`KnowledgeLayer.learn`) carrying that
many distinct concepts, all named in its text, on an empty store. Prints one JSON line per figure. Filling is
the slow part (it is the O(n) of building the store); a CI run uses the small default.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from bench.benchmarks.bench_knowledge import note
from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer
from reference.store import MemoryStore


def write_cost(size: int, writes: int, folder: Path) -> dict:
    clock = LogicalClock(1_760_000_000.0)
    store = MemoryStore.open(folder, clock=clock)
    try:
        KnowledgeLayer.for_store(store)
        rng = random.Random(0)
        t0 = time.perf_counter()
        for i in range(size):
            clock.advance(600)
            store.write_memory(note(rng, i))
        fill = time.perf_counter() - t0
        times, cpu = [], []
        for i in range(size, size + writes):
            clock.advance(600)
            text = note(rng, i)
            t, c = time.perf_counter(), time.process_time()
            store.write_memory(text)
            times.append((time.perf_counter() - t) * 1000.0)
            cpu.append((time.process_time() - c) * 1000.0)
        times.sort()
        cpu.sort()
        return {"figure": "write_ms", "memories": size, "p50": round(times[len(times) // 2], 3),
                "p95": round(times[int(len(times) * 0.95)], 3), "cpu_p50": round(cpu[len(cpu) // 2], 3),
                "cpu_mean": round(sum(cpu) / len(cpu), 3), "fill_s": round(fill, 2),
                "fill_per_write_ms": round(fill / max(size, 1) * 1000.0, 3)}
    finally:
        store.close()


def learn_time(concepts: int, folder: Path) -> dict:
    store = MemoryStore.open(folder, clock=LogicalClock(1_760_000_000.0))
    try:
        layer = KnowledgeLayer.for_store(store)
        names = [f"concept number {i} of the batch" for i in range(concepts)]
        t, c = time.perf_counter(), time.process_time()
        layer.learn("Learned about " + ", ".join(names) + ".", concepts=names, source="bench")
        return {"figure": "learn_s", "concepts": concepts, "seconds": round(time.perf_counter() - t, 3),
                "cpu_s": round(time.process_time() - c, 3)}
    finally:
        store.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="1000", help="comma-separated store sizes (memories)")
    p.add_argument("--writes", type=int, default=200, help="timed writes per size")
    p.add_argument("--concepts", default="2000", help="comma-separated concept counts for one learn call ('' skips)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(x) for x in args.concepts.split(",") if x]:
            print(json.dumps(learn_time(n, Path(tmp) / f"learn{n}")), flush=True)
        for n in [int(x) for x in args.sizes.split(",") if x]:
            print(json.dumps(write_cost(n, args.writes, Path(tmp) / f"w{n}")), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
