"""Where a ranker's search time goes at scale: CPU per search and per piece, on a kept store.

    python3 -m bench.benchmarks.ranker_pieces /tmp/s100k --build 100000     # once: ~10 min at 100k
    python3 -m bench.benchmarks.ranker_pieces /tmp/s100k --rankers rrf,galaxybrain [--filtered]
    python3 -m bench.benchmarks.ranker_pieces /tmp/s100k --first-build    # the lexical index's first build
    python3 -m bench.benchmarks.ranker_pieces /tmp/s100k --rankers rrf --rounds 20 --per-query   # tail or host?

`--build N` writes N synthetic memories into the folder as `bench_scale.py` does (batches of 1,000, the
knowledge layer on, `synthetic_memories.record`), then times. Timing: the 30 queries of `bench_scale.py`
searched once to warm, then in `--rounds` rounds (3, as `bench_scale.py`), a 128 MB array summed before each search
so that every search starts with cold caches (as `bench_scale.py`'s interleaved exact scan leaves them); CPU
(`time.thread_time`) of the search, p50 / p95, each round's p50 in order (a host that slows down for a while shows
as a run of slow rounds), then each wrapped piece's inclusive CPU per search (nested pieces count in their
callers too). `--per-query` adds each query's median over the rounds, sorted, and the slowest queries' texts: a
p95 made by a few slow queries shows as a few high medians, one made by slow moments as a flat spread. The
wrappers cost a few microseconds a call, so the per-search figures sit a little above `bench_scale.py`'s. A
diagnostic for before / after comparisons in one session; `bench_scale.py` is the benchmark of record.
"""
from __future__ import annotations

import argparse
import functools
import importlib
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from bench.benchmarks.synthetic_memories import CONTEXTS, TASKS, query_texts, record

# (module, qualified name) of the pieces timed; a name a version of the code lacks is skipped
PIECES = [
    ("reference.lexical.layer", "LexicalLayer.scores"), ("reference.lexical.layer", "LexicalLayer.vector"),
    ("reference.lexical.layer", "LexicalLayer.sync"), ("reference.lexical.layer", "LexicalLayer.query_vector"),
    ("reference.lexical.layer", "LexicalLayer.ranked"), ("reference.lexical.layer", "LexicalLayer.reranked"),
    ("reference.lexical.index", "LexicalIndex.bm25"), ("reference.lexical.ranking", "top_rows"),
    ("reference.lexical.ranking", "semantic_rerank"), ("reference.lexical.ranking", "fuse"),
    ("reference.vectors.cache", "VectorCache.topk"), ("reference.vectors.cache", "VectorCache.topk_arrays"),
    ("reference.vectors.cache", "VectorCache.scores"),
    ("reference.memories.memories", "Memories.ranked_lists"), ("reference.memories.memories", "Memories.filter"),
    ("reference.rankers.galaxybrain", "hits_of"), ("reference.rankers.rrf", "rrf"),
    ("reference.lane.hybrid", "LaneHybrid.features"), ("reference.lane.hybrid", "LaneHybrid._ranked"),
    ("reference.knowledge.hybrid", "_enrich"), ("reference.tracker.memories_table", "MemoriesTable.get_many"),
]


def build(path: Path, n: int) -> None:
    """Write `n` synthetic memories into a new store at `path` as bench_scale.py does."""
    from reference.clock import LogicalClock
    from reference.knowledge import KnowledgeLayer
    from reference.store import MemoryStore
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(path, clock=clock)
    KnowledgeLayer.for_store(store)
    rng, i = random.Random(0), 0
    while i < n:
        clock.advance(1)
        batch = [record(rng, i + j) for j in range(min(1000, n - i))]
        store.write_memories(batch)
        i += len(batch)
    store.close()


def _wrap(spent: dict[str, float], module: str, qualname: str) -> None:
    """Time `module.qualname` wherever it is reached: a method on its class, a function in every loaded module
    that imported it by name (`from reference.lexical.ranking import top_rows` holds its own reference)."""
    mod = importlib.import_module(module)
    owner_name, _, name = qualname.rpartition(".")
    owner = getattr(mod, owner_name) if owner_name else mod
    inner = getattr(owner, name)

    @functools.wraps(inner)
    def timed(*args, **kwargs):
        start = time.thread_time()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[qualname] += time.thread_time() - start
    holders = [owner] if owner_name else [m for m in list(sys.modules.values()) if getattr(m, name, None) is inner]
    for holder in holders:
        setattr(holder, name, timed)


def profile(path: Path, rankers: list[str], filtered: bool, rounds: int = 3, per_query: bool = False) -> None:
    """Print each ranker's CPU p50 / p95 per search, each round's p50, its pieces' CPU per search and, with
    `per_query`, each query's median CPU over the rounds."""
    from reference.rankers.registry import RANKERS
    for target in RANKERS.values():          # loaded first, so that the names they import get wrapped too
        importlib.import_module(target.split(":")[0])
    spent: dict[str, float] = defaultdict(float)
    for module, qualname in PIECES:
        try:
            _wrap(spent, module, qualname)
        except AttributeError:
            pass
    from reference.clock import LogicalClock
    from reference.knowledge import KnowledgeLayer
    from reference.rankers import Query
    from reference.rankers.registry import make_ranker
    from reference.store import MemoryStore
    store = MemoryStore.open(path, clock=LogicalClock(1_800_000_000.0))
    KnowledgeLayer.for_store(store)
    threadpool_limits(limits=1, user_api="blas")
    evict = np.ones(32_000_000, dtype=np.float32)
    for name in rankers:
        rng = random.Random(1)
        queries = [Query(t) for t in query_texts(rng, 30)]
        if filtered:
            queries = [Query(q.text, task=rng.choice(TASKS[:4]), context=[rng.choice(CONTEXTS)]) for q in queries]
        ranker = make_ranker(name, store)
        for q in queries:
            ranker.search(q)
        spent.clear()
        per = [[] for _ in queries]   # per query, its CPU ms in each round
        for _ in range(rounds):
            for i, q in enumerate(queries):
                float(evict.sum())
                start = time.thread_time()
                ranker.search(q)
                per[i].append((time.thread_time() - start) * 1e3)
        cpu = sorted(ms for times in per for ms in times)
        print(f"{name}: CPU p50 {statistics.median(cpu):.2f} p95 {cpu[int(.95 * len(cpu)) - 1]:.2f} ms a search")
        print("  p50 of each round: " + " ".join(f"{statistics.median(t[r] for t in per):.2f}" for r in range(rounds)))
        if per_query:
            medians = sorted((statistics.median(times), q.text) for times, q in zip(per, queries))
            print("  each query's median: " + " ".join(f"{m:.2f}" for m, _ in medians))
            for m, text in medians[-3:]:
                print(f"  slowest: {m:.2f} ms  {text!r}")
        print("  pieces:")
        for piece, seconds in sorted(spent.items(), key=lambda kv: -kv[1]):
            print(f"  {seconds / len(cpu) * 1e3:7.3f} ms  {piece}")
    store.close()


def first_build(path: Path) -> None:
    """Print the CPU of the lexical index's first build on the opened store (what a process's first search pays)."""
    from reference.clock import LogicalClock
    from reference.lexical.layer import LexicalLayer
    from reference.store import MemoryStore
    store = MemoryStore.open(path, clock=LogicalClock(1_800_000_000.0))
    start, wall = time.process_time(), time.perf_counter()
    index = LexicalLayer.for_store(store).sync()
    print(f"lexical index first build: {len(index):,} memories, {time.process_time() - start:.2f} s CPU, "
          f"{time.perf_counter() - wall:.2f} s wall")
    store.close()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python3 -m bench.benchmarks.ranker_pieces", description=__doc__.splitlines()[0])
    ap.add_argument("store", type=Path, help="the store folder (built with --build, or kept from an earlier build)")
    ap.add_argument("--build", type=int, metavar="N", help="first write N synthetic memories into a new store there")
    ap.add_argument("--rankers", default="galaxybrain,oracle-hybrid,memory-lane,rrf", help="comma-separated names")
    ap.add_argument("--filtered", action="store_true", help="queries with a task + context filter, as bench_scale's")
    ap.add_argument("--rounds", type=int, default=3, help="times each query is searched, timed (default 3)")
    ap.add_argument("--per-query", action="store_true", help="also each query's median CPU, sorted, and the slowest")
    ap.add_argument("--first-build", action="store_true",
                    help="time the lexical index's first build on the store instead of the rankers")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error(f"--rounds must be at least 1, got {args.rounds}")
    if args.build:
        if args.store.exists():
            ap.error(f"{args.store} exists: --build writes a new store")
        build(args.store, args.build)
    elif not args.store.is_dir():
        ap.error(f"{args.store} is not a store folder (build one with --build N)")
    if args.first_build:
        first_build(args.store)
    else:
        profile(args.store, args.rankers.split(","), args.filtered, args.rounds, args.per_query)


if __name__ == "__main__":
    main()
