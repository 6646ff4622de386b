"""Speed of the seed 001 knowledge layer: file-to-searchable time, write overhead, hybrid search.

Run:  python -m pytest bench/benchmarks/bench_knowledge.py --benchmark-only
Scale: CODEMEM_BENCH_SCALE=small (500 memories, 3 watcher rounds; default), full (5000, 10) or large (20000, 10).
Per-size write cost and learn-ingest time: `python -m bench.benchmarks.knowledge_scaling` (see there).

- `test_file_write_to_searchable`: a note written into a watched folder
  (debounce 1 s, as the seed) until `keyword_search` finds it; seed 001
  target "new files indexed < 5 seconds" (in `extra_info`).
- `write` group: `write_memory` with and without the knowledge layer (the
  ratio is the listener's cost: extraction, temporal row, relationships).
- `search` group: oracle hybrid search against the store's own search.
"""
from __future__ import annotations

import itertools
import os
import random
import time

import pytest

from reference.clock import LogicalClock, SystemClock
from reference.knowledge import KnowledgeLayer, NoteIndexer, NoteWatcher
from reference.rankers import Query, make_ranker
from reference.store import MemoryStore

SCALES = {"small": (500, 3), "full": (5_000, 10), "large": (20_000, 10)}
SCALE = os.environ.get("CODEMEM_BENCH_SCALE", "small")
N, ROUNDS = SCALES[SCALE]
FEATURES = "auth billing search upload checkout notifications reports profile".split()
WORDS = ("token refresh race invoice decimal cache redis queue worker retry timeout deploy schema migration "
         "index query latency button modal endpoint session cookie webhook rounding tax").split()
QUERIES = ["token refresh race", "billing rounding decimal", "cache latency redis", "webhook retry timeout",
           "session cookie crash", "schema migration deploy"]


def note(rng: random.Random, i: int) -> str:
    feat = rng.choice(FEATURES)
    words = " ".join(rng.choices(WORDS, k=10))
    return (f"Note {i}: {words} in src/features/{feat}/{rng.choice(WORDS)}_{i % 17}.ts, "
            f"see {feat}Client.{rng.choice(WORDS)}() on 2025-{1 + i % 12:02d}-{1 + i % 28:02d}.")


def _filled(path, with_layer: bool):
    clock = LogicalClock(1_760_000_000.0)
    store = MemoryStore.open(path, clock=clock)
    if with_layer:
        KnowledgeLayer.for_store(store)
    rng = random.Random(0)
    for i in range(N):
        clock.advance(600)
        store.write_memory(note(rng, i))
    return store, clock


@pytest.fixture(scope="module")
def with_layer(tmp_path_factory):
    store, clock = _filled(tmp_path_factory.mktemp("knowledge_on"), True)
    yield store, clock
    store.close()


@pytest.fixture(scope="module")
def without_layer(tmp_path_factory):
    store, clock = _filled(tmp_path_factory.mktemp("knowledge_off"), False)
    yield store, clock
    store.close()


def _writer(store, clock):
    rng, counter = random.Random(1), itertools.count(N)

    def write():
        clock.advance(600)
        store.write_memory(note(rng, next(counter)))
    return write


@pytest.mark.benchmark(group="write")
def test_write_with_knowledge_layer(benchmark, with_layer):
    benchmark.extra_info.update(scale=SCALE, memories=N)
    benchmark(_writer(*with_layer))


@pytest.mark.benchmark(group="write")
def test_write_without_knowledge_layer(benchmark, without_layer):
    benchmark.extra_info.update(scale=SCALE, memories=N)
    benchmark(_writer(*without_layer))


@pytest.mark.benchmark(group="search")
def test_oracle_hybrid_search(benchmark, with_layer):
    store, _ = with_layer
    ranker, q = make_ranker("oracle-hybrid", store), itertools.cycle(QUERIES)
    benchmark(lambda: ranker.search(Query(next(q), top_k=10)))


@pytest.mark.benchmark(group="search")
def test_galaxybrain_search(benchmark, with_layer):
    store, _ = with_layer
    ranker, q = make_ranker("galaxybrain", store), itertools.cycle(QUERIES)
    benchmark(lambda: ranker.search(Query(next(q), top_k=10)))


def test_file_write_to_searchable(benchmark, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    store = MemoryStore.open(tmp_path / "store", clock=SystemClock())
    layer = KnowledgeLayer.for_store(store)
    counter = itertools.count()
    with NoteWatcher(NoteIndexer(layer, notes), debounce_s=1.0):
        def write_and_wait():
            token = f"zq{next(counter)}marker"
            (notes / f"{token}.md").write_text(f"Learning {token}: rotate tokens in src/features/auth/session.ts")
            deadline = time.monotonic() + 30
            while not store.keyword_search(token):
                if time.monotonic() > deadline:
                    raise AssertionError(f"{token} not searchable after 30 s")
                time.sleep(0.01)

        benchmark.extra_info.update(debounce_s=1.0, seed_target_s=5.0)
        benchmark.pedantic(write_and_wait, rounds=ROUNDS, iterations=1)
    store.close()
