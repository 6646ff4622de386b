"""Speed of the reference store core: writes, searches, lookups and reopen at scale.

Run:  python -m pytest bench/benchmarks/bench_store.py --benchmark-only
Scale: CODEMEM_BENCH_SCALE=small (1k memories, default) or full (10k memories).
Embedder: the store's default (hashing-v1), or the one `CODEMEM_EMBEDDER` names (`CODEMEM_EMBEDDER=minilm`
gives a write's cost with all-MiniLM-L6-v2; bench/models/README.md has both figures).
The store also holds the indexed `reference/` package, so unified search
ranks code and memories together. Every figure is per operation; the bulk
load time of the fixture is recorded in `extra_info` of the write benchmark.
"""
from __future__ import annotations

import itertools
import os
import random
import time
from pathlib import Path

import pytest

from reference.clock import LogicalClock
from reference.embed.env import env_embedder
from reference.store import MemoryStore

SCALES = {"small": 1_000, "full": 10_000}
SCALE = os.environ.get("CODEMEM_BENCH_SCALE", "small")
N = SCALES[SCALE]
WORDS = ("auth token refresh race billing invoice decimal cache redis queue worker retry timeout deploy docker "
         "schema migration index query latency frontend button modal css api endpoint session cookie webhook "
         "stripe rounding tax locale font grid layout hydration ssr bundle lint flaky test fixture mock").split()
TASKS = ["task:debug", "task:refactor", "task:optimize", "task:implement_feature", None]
CONTEXTS = ["context:auth", "context:billing", "context:api", "context:frontend", "context:data"]
QUERIES = ["token refresh race term12", "billing rounding decimal", "flaky test fixture term300",
           "cache latency redis", "deploy docker schema migration", "frontend modal layout term7",
           "webhook retry timeout term2500"]


# A Zipf-distributed vocabulary of 3000 further words, so that keyword terms have realistic selectivity
VOCAB = [f"term{i}" for i in range(3000)]
VOCAB_WEIGHTS = [1.0 / (r + 1) for r in range(len(VOCAB))]


def _memory(rng: random.Random, i: int) -> dict:
    words = rng.choices(WORDS, k=6) + rng.choices(VOCAB, weights=VOCAB_WEIGHTS, k=14)
    return dict(text=" ".join(words) + f" item{i}", task=rng.choice(TASKS),
                context=rng.sample(CONTEXTS, rng.randint(0, 2)), tags=rng.sample(["p1", "p2", "p3", "p4"], 1),
                metadata={"branch": rng.choice(["main", "dev", "feature-x"])})


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    path = tmp_path_factory.mktemp("bench_store")
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(path, clock=clock, embedder=env_embedder(cache=False))
    rng = random.Random(0)
    t0 = time.perf_counter()
    ids = []
    for i in range(N):
        clock.advance(1)
        ids.append(store.write_memory(**_memory(rng, i)).id)
    load_s = time.perf_counter() - t0
    store.index_directory(Path(__file__).resolve().parents[2] / "reference")   # the installed package's own source
    yield store, clock, ids, load_s, path
    store.close()


def _cycle(items):
    it = itertools.cycle(items)
    return lambda: next(it)


def test_write_memory(benchmark, loaded):
    store, clock, _, load_s, _ = loaded
    rng = random.Random(1)
    counter = itertools.count(N)

    def write():
        clock.advance(1)
        store.write_memory(**_memory(rng, next(counter)))

    benchmark.extra_info.update(scale=SCALE, memories=N, bulk_load_s=round(load_s, 3), embedder=store.embedder.name,
                                bulk_load_per_memory_ms=round(load_s / N * 1000, 4))
    benchmark(write)


def test_search_memories_filtered(benchmark, loaded):
    store = loaded[0]
    q = _cycle(QUERIES)
    benchmark.extra_info.update(scale=SCALE)
    benchmark(lambda: store.search_memories(q(), context=["context:auth"], top_k=10))


def test_search_memories_unfiltered(benchmark, loaded):
    store = loaded[0]
    q = _cycle(QUERIES)
    benchmark(lambda: store.search_memories(q(), top_k=10))


def test_search_memories_metadata_filter(benchmark, loaded):
    store = loaded[0]
    q = _cycle(QUERIES)
    benchmark(lambda: store.search_memories(q(), task="task:debug", where_metadata={"branch": ["dev"]}, top_k=10))


def test_keyword_search(benchmark, loaded):
    store = loaded[0]
    q = _cycle(QUERIES)
    benchmark(lambda: store.keyword_search(q(), top_k=10))


def test_search_all(benchmark, loaded):
    store = loaded[0]
    q = _cycle(QUERIES)
    benchmark.extra_info.update(vectors=len(store.vectors))
    benchmark(lambda: store.search_all(q(), top_k=10))


def test_get_memory(benchmark, loaded):
    store, _, ids, _, _ = loaded
    rng = random.Random(2)
    benchmark(lambda: store.get_memory(rng.choice(ids)))


def test_reopen(benchmark, loaded):
    store, clock, _, _, path = loaded
    bytes_total = store.stats()["bytes_total"]

    def reopen():
        MemoryStore.open(path, clock=clock).close()

    benchmark.extra_info.update(bytes_on_disk=bytes_total)
    benchmark.pedantic(reopen, rounds=5, iterations=1, warmup_rounds=1)
