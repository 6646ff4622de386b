"""The lexical index's first build: what the first search of a process that opened a large store pays.

Run:  python -m pytest bench/benchmarks/bench_lexical_build.py --benchmark-only -s
Scale: CODEMEM_BENCH_SCALE, read by bench_scale.py (its `N`: small 2,000 memories, default, CI; medium 10,000;
full 100,000; or a number of memories).

The store is written as bench_scale.py writes its own (`ranker_pieces.build`: synthetic memories in batches of
1,000, the knowledge layer on), closed, and opened again; each round then builds a `LexicalLayer` of its own
from the stored memories (`sync`, which reads every memory once and indexes them with
`LexicalIndex.add_many`). CPU time (`time.process_time`), in `extra_info` and printed.
"""
from __future__ import annotations

import statistics
import time

import pytest

from bench.benchmarks.bench_scale import N
from bench.benchmarks.ranker_pieces import build
from reference.clock import LogicalClock
from reference.lexical.layer import LexicalLayer
from reference.store import MemoryStore


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A store of N synthetic memories, written and closed, then opened as a new process would open it."""
    path = tmp_path_factory.mktemp("lexical_build") / "store"
    build(path, N)
    opened = MemoryStore.open(path, clock=LogicalClock(1_800_000_000.0))
    yield opened
    opened.close()


def test_lexical_first_build(benchmark, store):
    cpu: list[float] = []

    def one() -> None:
        c0 = time.process_time()
        index = LexicalLayer(store).sync()
        cpu.append(time.process_time() - c0)
        assert len(index) == store.tracker.memories.count(store.tracker.conn())   # every stored memory

    benchmark.pedantic(one, rounds=1 if N > 10_000 else 3, iterations=1)
    seconds = statistics.median(cpu)
    benchmark.extra_info.update(n=N, cpu_s=round(seconds, 3), us_per_memory=round(seconds / N * 1e6, 1))
    print(f"\nlexical index first build ({N:,} memories): {seconds:.2f} s CPU, {seconds / N * 1e6:.0f} us a memory")
