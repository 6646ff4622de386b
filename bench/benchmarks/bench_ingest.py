"""Write speed of the reference store with the knowledge layer on: batch ingest and single writes by store size.

Run:  python3 -m pytest bench/benchmarks/bench_ingest.py --benchmark-only -s
Sizes: CODEMEM_BENCH_INGEST_SIZES=1000,10000,100000, or CODEMEM_BENCH_SCALE=small (1k, the default, so CI
stays fast) / medium (1k, 10k) / full (1k, 10k, 100k), as the other benchmark modules read it.

One store is opened with the knowledge layer on (as the reference backend and the MCP
server open it) and grown with `MemoryStore.write_memories` (1,000 per batch). At each
size it measures, in this order: the batch path (`BATCH_ROUNDS` batches of 1,000 through
`write_memories`: memories per second), single writes (`SINGLE_WRITES` calls of
`write_memory`: p50 / p95), the WAL pages a commit writes (`wal_pages.py`: `PAGE_WRITES` single
writes and one batch, counted, not timed), and reopening the store with the layer (open never replays
the store: it is linear in its size at most). Every figure is given as wall time and as
this thread's CPU time (`time.thread_time`), which is steadier on a shared machine, and the table
at the end names the load average seen. Beside each write figure, the CPU share of the
relationship-neighbour lookup (`reference/knowledge/neighbours.py`, the one part of a write that
grows with the store) is given, so the rest of the write path can be read apart from it. The records are the ones `bench_scale.py` writes (six common
words and fourteen Zipf-distributed terms, a task, contexts, a tag, a branch).
"""
from __future__ import annotations

import os
import random
import statistics
import time
from pathlib import Path

import pytest

from bench.benchmarks.synthetic_memories import record
from bench.benchmarks.wal_pages import wal_frames
from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer
from reference.knowledge import neighbours as neighbours_module
from reference.store import MemoryStore

_BY_SCALE = {"small": "1000", "medium": "1000,10000", "full": "1000,10000,100000"}
SIZES = [int(x) for x in os.environ.get(
    "CODEMEM_BENCH_INGEST_SIZES", _BY_SCALE.get(os.environ.get("CODEMEM_BENCH_SCALE", "small"), "1000")).split(",") if x]
BATCH = 1_000
BATCH_ROUNDS = 3
SINGLE_WRITES = 30
REPORT = Path("/tmp/codemem-bench-ingest") / f"report-{max(SIZES)}.md"

class NeighbourClock:
    """CPU seconds spent in the relationship-neighbour lookup while `on` (wraps the layer's call to it)."""

    def __init__(self) -> None:
        self.real = neighbours_module.live_neighbours
        self.cpu, self.on = 0.0, False

    def __call__(self, *args, **kwargs):
        if not self.on:
            return self.real(*args, **kwargs)
        c = time.thread_time()
        try:
            return self.real(*args, **kwargs)
        finally:
            self.cpu += time.thread_time() - c

    def take(self) -> float:
        cpu, self.cpu = self.cpu, 0.0
        return cpu


class Grower:
    """The one store of the module, grown to each size in turn."""

    def __init__(self, path: Path) -> None:
        self.path, self.clock = path, LogicalClock(1_700_000_000.0)
        self.rng, self.i = random.Random(0), 0
        self.store = self._open()
        self.rows: list[tuple[str, str]] = []

    def _open(self) -> MemoryStore:
        store = MemoryStore.open(self.path, clock=self.clock)
        KnowledgeLayer.for_store(store)
        return store

    def records(self, n: int) -> list[dict]:
        out = [record(self.rng, self.i + j) for j in range(n)]
        self.i += n
        return out

    def grow_to(self, size: int) -> None:
        while len(self.store.vectors) < size:
            self.clock.advance(1)
            self.store.write_memories(self.records(min(BATCH, size - len(self.store.vectors))))

    def reopen(self) -> tuple[float, float]:
        self.store.close()
        t, c = time.perf_counter(), time.thread_time()
        self.store = self._open()
        return time.perf_counter() - t, time.thread_time() - c


@pytest.fixture(scope="module")
def grower(tmp_path_factory):
    g = Grower(tmp_path_factory.mktemp("bench_ingest"))
    g.neighbours = NeighbourClock()
    mp = pytest.MonkeyPatch()
    mp.setattr(neighbours_module, "live_neighbours", g.neighbours)   # fails loudly if it is renamed
    yield g
    mp.undo()
    g.store.close()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    text = (f"# bench_ingest (knowledge layer on), load average {load}\n\n| measure | wall | CPU |\n|---|---|---|\n"
            + "".join(f"| {a} | {b} |\n" for a, b in g.rows))
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(text)
    print("\n" + text)


CASES = [(size, kind) for size in SIZES for kind in ("batch", "single", "pages", "reopen")]
PAGE_WRITES = 20


@pytest.mark.parametrize("size,kind", CASES, ids=[f"{k}-{s}" for s, k in CASES])
def test_ingest(benchmark, grower, size, kind):
    grower.grow_to(size)
    store, clock = grower.store, grower.clock
    if kind == "batch":
        batches = iter([grower.records(BATCH) for _ in range(BATCH_ROUNDS)])
        cpu: list[float] = []

        grower.neighbours.on = True
        grower.neighbours.take()

        def write_batch():
            clock.advance(1)
            c = time.thread_time()
            entries = store.write_memories(next(batches))
            cpu.append(time.thread_time() - c)
            assert len(entries) == BATCH
        benchmark.pedantic(write_batch, rounds=BATCH_ROUNDS, iterations=1)
        grower.neighbours.on = False
        wall = BATCH / benchmark.stats.stats.median
        per = statistics.median(cpu) / BATCH * 1e6
        near = grower.neighbours.take() / (BATCH * BATCH_ROUNDS) * 1e6
        benchmark.extra_info.update(memories_per_s=round(wall), cpu_memories_per_s=round(BATCH / statistics.median(cpu)),
                                    cpu_us_per_memory=round(per, 1), neighbour_cpu_us_per_memory=round(near, 1))
        grower.rows.append((f"batch ingest at {size:,} (memories/s)", f"{wall:,.0f} | {BATCH / statistics.median(cpu):,.0f}"))
        grower.rows.append((f"batch CPU per memory at {size:,} (µs): all / of which neighbour lookup",
                            f" | {per:,.0f} / {near:,.0f}"))
    elif kind == "single":
        recs = iter(grower.records(SINGLE_WRITES))
        cpu = []

        grower.neighbours.on = True
        grower.neighbours.take()

        def write_one():
            clock.advance(1)
            c = time.thread_time()
            store.write_memory(**next(recs))
            cpu.append((time.thread_time() - c) * 1e3)
        benchmark.pedantic(write_one, rounds=SINGLE_WRITES, iterations=1)
        grower.neighbours.on = False
        near = grower.neighbours.take() / SINGLE_WRITES * 1e3
        wall = sorted(benchmark.stats.stats.data)
        p50, p95 = wall[len(wall) // 2] * 1e3, wall[int(len(wall) * 0.95)] * 1e3
        cpu.sort()
        benchmark.extra_info.update(p50_ms=round(p50, 3), cpu_p50_ms=round(cpu[len(cpu) // 2], 3),
                                    neighbour_cpu_mean_ms=round(near, 3))
        grower.rows.append((f"single write p50 / p95 at {size:,} (ms)",
                            f"{p50:.2f} / {p95:.2f} | {cpu[len(cpu) // 2]:.2f} / {cpu[int(len(cpu) * 0.95)]:.2f}"))
        grower.rows.append((f"single write CPU mean at {size:,} (ms): all / of which neighbour lookup",
                            f" | {statistics.mean(cpu):.2f} / {near:.2f}"))
    elif kind == "pages":
        recs = iter(grower.records(PAGE_WRITES))

        def singles():
            for r in recs:
                clock.advance(1)
                store.write_memory(**r)
        counts: list[int] = []
        benchmark.pedantic(lambda: counts.append(wal_frames(store, singles)), rounds=1, iterations=1)
        clock.advance(1)
        counts.append(wal_frames(store, lambda: store.write_memories(grower.records(BATCH))))
        benchmark.extra_info.update(wal_pages_per_single_write=round(counts[0] / PAGE_WRITES, 1),
                                    wal_pages_per_batch=counts[1])
        grower.rows.append((f"WAL pages a commit at {size:,}: single write / batch of {BATCH:,}",
                            f"{counts[0] / PAGE_WRITES:.1f} / {counts[1]:,} | "))
    else:
        times: list[tuple[float, float]] = []
        benchmark.pedantic(lambda: times.append(grower.reopen()), rounds=1, iterations=1)
        grower.rows.append((f"reopen with the knowledge layer at {len(grower.store.vectors):,} (s)",
                            f"{times[0][0]:.2f} | {times[0][1]:.2f}"))
    assert len(grower.store.vectors) >= size
