"""Speed and size of the project memory (seed 002): branch-filtered search, commit writes, dedup, storage.

Run:  python -m pytest bench/benchmarks/bench_project.py --benchmark-only
Scale: CODEMEM_BENCH_SCALE=small (default: the real sqlite-utils history, 1,490 commits on 74 branches)
or full (that history copied 10 times under new shas and branch names: 14,900 commits, 731 branches).

Seed 002 targets: branch filtering adds < 1 s to a query; < 10 MB per 1000 commits. The overhead is
measured as the ratio (and difference) of filtered to unfiltered search over the same queries in the same
run, interleaved, and stored in `extra_info` of `test_branch_filter_overhead`, with the load average at the
start and end (the machine is shared); bytes per 1000 commits and the ingest time are in `extra_info` of
`test_record_commit`. The filtered search is `ProjectMemory.search` (reference/project/branch_search.py: the
unfiltered ranking's prefix checked against the store's label index, exact, falling back to the store's
filter); `fallbacks` counts the queries that needed the store's filtered search. `test_first_branch_filter`
times the first filtered search after the store's in-memory indexes are dropped (as after opening the store):
it reads the `branch` labels of every memory from the table (reference/tracker/filter_index.py).
"""
from __future__ import annotations

import hashlib
import itertools
import os
import statistics
import time
from dataclasses import replace

import pytest

from bench.scenario.suites import scenarios_dir
from reference.clock import LogicalClock
from reference.project import CommitInfo, ProjectMemory, branch_search, ingest_history, read_dataset
from reference.project.dataset import topic_words
from reference.project.history import BranchInfo, History
from reference.store import MemoryStore

SCALE = os.environ.get("CODEMEM_BENCH_SCALE", "small")
COPIES = {"small": 1, "full": 10}[SCALE]
DATA = scenarios_dir() / "data" / "sqlite-utils"
ROUNDS = 5


def _copy_sha(sha: str, k: int) -> str:
    return sha if k == 0 else hashlib.sha1(f"{k}:{sha}".encode()).hexdigest()


def history(copies: int) -> History:
    """The data set, plus copies 1..n-1 with new shas, branch names `<name>-copy<k>` and a subject suffix."""
    base = read_dataset(DATA)
    out = History(base.default_branch, list(base.commits), list(base.branches))
    for k in range(1, copies):
        rename = lambda b: b if b == base.default_branch else f"{b}-copy{k}"  # noqa: E731
        for c in base.commits:
            out.commits.append(replace(c, sha=_copy_sha(c.sha, k), parents=tuple(_copy_sha(p, k) for p in c.parents),
                                       branch=rename(c.branch), subject=f"{c.subject} (copy {k})"))
        out.branches += [BranchInfo(rename(b.name), _copy_sha(b.tip, k), _copy_sha(b.merge_base, k))
                         for b in base.branches]
    return out


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    path = tmp_path_factory.mktemp("bench_project")
    store = MemoryStore.open(path, clock=LogicalClock(0.0))
    project = ProjectMemory.for_store(store)
    h = history(COPIES)
    t0 = time.perf_counter()
    result = ingest_history(project, h)
    ingest_s = time.perf_counter() - t0
    store.tracker.checkpoint()
    size = sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    branches = [b.name for b in h.branches if b.commits]
    queries = [(" ".join(topic_words(b)), b) for b in branches[:: max(1, len(branches) // 40)]]
    yield store, project, queries, {"commits": result.commits, "branches": result.branches,
                                    "ingest_s": round(ingest_s, 2), "bytes": size,
                                    "bytes_per_1000_commits": round(size * 1000 / result.commits)}
    store.close()


def test_search_unfiltered(benchmark, loaded):
    _, project, queries, info = loaded
    nxt = itertools.cycle(queries)
    benchmark.extra_info.update(scale=SCALE, **info)
    benchmark(lambda: project.search(next(nxt)[0], 10, filtered=False))


def test_search_branch_filtered(benchmark, loaded):
    _, project, queries, info = loaded
    nxt = itertools.cycle(queries)
    benchmark.extra_info.update(scale=SCALE, **info)

    def run():
        q, b = next(nxt)
        return project.search(q, 10, branch=b)

    benchmark(run)


def test_first_branch_filter(benchmark, loaded):
    """The first branch-filtered search with cold label and keyword indexes (each round drops them first)."""
    store, project, queries, info = loaded
    q, b = queries[0]
    benchmark.extra_info.update(scale=SCALE, **info)
    benchmark.pedantic(lambda: project.search(q, 10, branch=b), setup=store.memories.filter_index.reset,
                       rounds=5, iterations=1)


def test_branch_filter_overhead(benchmark, loaded):
    """Filtered vs unfiltered over the same queries, interleaved, ROUNDS times; medians per query in extra_info."""
    _, project, queries, info = loaded

    fallbacks = []
    real = branch_search.filtered
    branch_search.filtered = lambda *a: fallbacks.append(a) or real(*a)

    def compare() -> tuple[list[float], list[float]]:
        plain, filtered = [], []
        for _ in range(ROUNDS):
            for q, b in queries:
                for out, fn in ((plain, lambda: project.search(q, 10, filtered=False)),
                                (filtered, lambda: project.search(q, 10, branch=b))):
                    t = time.perf_counter()
                    fn()
                    out.append(time.perf_counter() - t)
        return plain, filtered

    load_before = os.getloadavg()[0]
    try:
        plain, filtered = benchmark.pedantic(compare, rounds=1, iterations=1)
    finally:
        branch_search.filtered = real
    p50, f50 = statistics.median(plain), statistics.median(filtered)
    benchmark.extra_info.update(scale=SCALE, **info, queries=len(plain), unfiltered_ms_p50=round(p50 * 1000, 3),
                                filtered_ms_p50=round(f50 * 1000, 3), ratio_p50=round(f50 / p50, 2),
                                overhead_ms_p50=round((f50 - p50) * 1000, 3),
                                filtered_ms_max=round(max(filtered) * 1000, 3), fallbacks=len(fallbacks),
                                load_before=round(load_before, 2), load_after=round(os.getloadavg()[0], 2))


def test_record_commit(benchmark, loaded):
    store, project, _, info = loaded
    counter = itertools.count()
    benchmark.extra_info.update(scale=SCALE, **info)

    def write():
        n = next(counter)
        store.clock.advance(1)
        project.record_commit(CommitInfo(hashlib.sha1(f"new{n}".encode()).hexdigest(), (), "main",
                                         int(store.clock.now()), f"Benchmark commit {n}", "Body text.",
                                         ("sqlite_utils/db.py", "tests/test_create.py")))

    benchmark(write)


def test_record_duplicate(benchmark, loaded):
    """The dedup path: a commit already stored is hashed, found and counted, nothing written."""
    _, project, _, info = loaded
    first = read_dataset(DATA).in_time_order()[0]
    benchmark.extra_info.update(scale=SCALE, **info)
    result = benchmark(lambda: project.record_commit(first))
    assert result.duplicate
