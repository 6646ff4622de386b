"""Search and write speed at scale: every ranker against the exact-scan floor, in one run.

Run:  python -m pytest bench/benchmarks/bench_scale.py --benchmark-only
Scale: CODEMEM_BENCH_SCALE=small (2,000 memories, default, CI), medium (10,000),
full (100,000), or a number of memories. CODEMEM_BENCH_RANKERS=a,b picks rankers;
CODEMEM_BENCH_KNOWLEDGE=0 builds the store without the knowledge layer (then leave
oracle-hybrid out): at 100k its per-write cost makes the build take hours today.

The module builds one store of N memories with the batch write path
(`MemoryStore.write_memories`, 1,000 per batch, knowledge layer on), timing
single writes (`write_memory`) as the store passes 1k, 10k and 100k. Then each
ranker (galaxybrain, oracle-hybrid, memory-lane, rrf) answers 30 queries, with
the text alone and with a task + context filter. Beside them, in the same run,
the exact-scan floor: a bare numpy `einsum("ij,j->i")` (faster here than BLAS
gemv: 4-5 ms against 11-22 ms at 100k with one BLAS thread) plus `argpartition`
over the same float32 matrix, held in RAM. Every ranker's `extra_info` holds p50/p95 in
ms and both as ratios to the floor's, and CPU time (on a shared machine wall time
also measures the wait for a core). Each search follows a floor scan (100 MB read: cold caches), the
figure of record; `back to back` is the same searches with nothing between them (pytest-benchmark's
rounds). The keyword side is timed alone as well: FTS5's `ORDER BY bm25` against the numpy
`KeywordIndex` (same answers, checked).
The vector cache's index (reference/vectors/index.py) is measured against
the exact path on the same store: recall@10 / @100 of `topk` over 300
embedded queries and both paths' latency beside the floor; the knowledge
layer's neighbour lookup (`live_neighbours`) right after a live write and for
a batch of 1,000, with its top-10 recall, also on real commit and hunk text
(bench/benchmarks/real_neighbours.py). Below the index's threshold (the
small scale) the index is forced on from the store's size. With
CODEMEM_BENCH_REAL_VECTORS=1 the recall is also measured on real text: every
memory of the large tier's three hunk scenarios (built on first use into the
scenario cache, see bench/scenario/large.py) embedded with the default embedder,
and their queries. The table of all figures is written to
/tmp/codemem-bench-scale/report-N.md at the end of the module (and printed with -s).
"""
from __future__ import annotations

import os
import random
import statistics
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from bench.benchmarks.index_paths import EXACT, MEMORY_TAG, recall, topk_both
from bench.benchmarks.scale_figures import Figures, pct
from bench.benchmarks.synthetic_memories import CONTEXTS, TASKS, query_texts
from bench.benchmarks.synthetic_memories import record as _record
from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer
from reference.knowledge.neighbours import live_neighbours
from reference.knowledge.relations import RELATE_THRESHOLD, VECTOR_CANDIDATES
from reference.rankers import Query
from reference.rankers.registry import make_ranker
from reference.store import MemoryStore
from reference.tracker import fts_match
from reference.tracker.fts.topk import ranked_matches
from reference.vectors import index as vector_index

SCALES = {"small": 2_000, "medium": 10_000, "full": 100_000}
SCALE = os.environ.get("CODEMEM_BENCH_SCALE", "small")
N = SCALES[SCALE] if SCALE in SCALES else int(SCALE)
BATCH = 1_000
SINGLE_AT = [n for n in (1_000, 10_000, 100_000) if n <= N]
SINGLE_WRITES = 30
RANKERS = tuple(r for r in os.environ.get("CODEMEM_BENCH_RANKERS", "galaxybrain,oracle-hybrid,memory-lane,rrf")
                .split(",") if r)
# CODEMEM_BENCH_KNOWLEDGE=0 builds without the knowledge layer (its per-write cost grows with the store
# today); then leave oracle-hybrid out of CODEMEM_BENCH_RANKERS, as it would backfill the layer
KNOWLEDGE = os.environ.get("CODEMEM_BENCH_KNOWLEDGE", "1") != "0"
REPORT = Path("/tmp/codemem-bench-scale") / f"report-{N}.md"

def _queries(rng: random.Random) -> list[Query]:
    return [Query(t) for t in query_texts(rng, 30)]


def _filtered(queries: list[Query], rng: random.Random) -> list[Query]:
    return [Query(q.text, task=rng.choice(TASKS[:4]), context=[rng.choice(CONTEXTS)]) for q in queries]


@pytest.fixture(scope="module")
def figures():
    figs = Figures(f"bench_scale at N = {N:,} memories", REPORT)
    yield figs
    print("\n" + figs.write())


@pytest.fixture(scope="module")
def built(tmp_path_factory, figures):
    """The store of N memories, built once; single-write latency sampled at 1k / 10k / 100k."""
    path = tmp_path_factory.mktemp("bench_scale")
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(path, clock=clock)
    if KNOWLEDGE:
        KnowledgeLayer.for_store(store)  # on, as the reference backend and the MCP server open it
    rng = random.Random(0)
    single: dict[int, list[float]] = {}
    batch_s, written, i = 0.0, 0, 0
    while written < N or SINGLE_AT:
        if SINGLE_AT and written >= min(SINGLE_AT[0], N):
            lat = []
            for _ in range(SINGLE_WRITES):
                clock.advance(1)
                rec = _record(rng, i)
                i += 1
                t0 = time.perf_counter()
                store.write_memory(**rec)
                lat.append((time.perf_counter() - t0) * 1e3)
            single[SINGLE_AT.pop(0)] = lat
            written += SINGLE_WRITES
            continue
        clock.advance(1)
        recs = [_record(rng, i + j) for j in range(min(BATCH, N - written))]
        i += len(recs)
        t0 = time.perf_counter()
        store.write_memories(recs)
        batch_s += time.perf_counter() - t0
        written += len(recs)
    figures.add(f"batch ingest (write_memories, knowledge layer {'on' if KNOWLEDGE else 'off'})",
                f"{(written - SINGLE_WRITES * len(single)) / batch_s:,.0f} memories/s")
    for size, lat in single.items():
        figures.add(f"single write p50 / p95 at {size:,}", f"{statistics.median(lat):.2f} / {pct(lat, .95):.2f} ms")
    yield store, single
    store.close()


@pytest.fixture(scope="module")
def floor(built, figures):
    """The exact-scan floor: bare einsum + argpartition over the same rows, held in RAM.

    Returns one floor query as a function; each ranker test interleaves it with
    its own queries, so both see the same machine load (the ratio is per test).
    """
    store, _ = built
    # one BLAS thread: waking sleeping BLAS threads after each ranker query cost 10-20 ms here (2 shared cores)
    limiter = threadpool_limits(limits=1, user_api="blas")
    keys, _ = store.vectors.scan(np.ones(store.vectors.dim, dtype=np.float32), tags=[4])
    mat = np.stack([store.vectors.get(int(k)) for k in keys])
    qs = np.random.default_rng(0).standard_normal((30, mat.shape[1])).astype(np.float32)
    state = {"i": 0}

    def one() -> tuple[float, float]:
        """(wall ms, CPU ms) of one exact scan."""
        q = qs[state["i"] % len(qs)]
        state["i"] += 1
        t0, c0 = time.perf_counter(), time.thread_time()
        s = np.einsum("ij,j->i", mat, q)
        np.argpartition(s, len(s) - 10)[-10:]
        return (time.perf_counter() - t0) * 1e3, (time.thread_time() - c0) * 1e3

    lat = [one()[0] for _ in range(90)]
    figures.add(f"exact-scan floor alone ({mat.shape[0]:,} x {mat.shape[1]} float32 einsum + argpartition)",
                f"{statistics.median(lat):.2f} / {pct(lat, .95):.2f} ms (p50 / p95)")
    yield one
    limiter.restore_original_limits()


@pytest.mark.parametrize("filtered", [False, True], ids=["query", "filtered"])
@pytest.mark.parametrize("name", RANKERS)
def test_ranker_latency(benchmark, built, floor, figures, name, filtered):
    store, _ = built
    ranker = make_ranker(name, store)
    rng = random.Random(1)
    queries = _queries(rng)
    if filtered:
        queries = _filtered(queries, rng)
    for q in queries:  # warm: first-use index builds, caches
        ranker.search(q)
    lat: list[float] = []
    cpu: list[float] = []
    floor_lat: list[float] = []
    floor_cpu: list[float] = []
    for q in queries * 3:  # ranker and floor interleaved, for the ratios
        t0, c0 = time.perf_counter(), time.thread_time()
        ranker.search(q)
        cpu.append((time.thread_time() - c0) * 1e3)
        lat.append((time.perf_counter() - t0) * 1e3)
        wall, fcpu = floor()
        floor_lat.append(wall)
        floor_cpu.append(fcpu)
    it = iter(queries * 3)
    warm: list[float] = []   # the same searches back to back, nothing between them (pytest-benchmark's rounds)

    def one() -> None:
        c0 = time.thread_time()
        assert isinstance(ranker.search(next(it)), list)
        warm.append((time.thread_time() - c0) * 1e3)

    benchmark.pedantic(one, rounds=len(queries) * 3, iterations=1)
    w50, w95 = statistics.median(warm), pct(warm, .95)
    p50, p95 = statistics.median(lat), pct(lat, .95)
    f50, f95 = statistics.median(floor_lat), pct(floor_lat, .95)
    c50, c95 = statistics.median(cpu), pct(cpu, .95)
    fc50, fc95 = statistics.median(floor_cpu), pct(floor_cpu, .95)
    benchmark.extra_info.update(n=N, p50_ms=round(p50, 3), p95_ms=round(p95, 3), floor_p50_ms=round(f50, 3),
                                floor_p95_ms=round(f95, 3), p50_over_floor=round(p50 / f50, 2),
                                p95_over_floor=round(p95 / f95, 2), cpu_p50_ms=round(c50, 3), cpu_p95_ms=round(c95, 3),
                                cpu_p50_over_floor=round(c50 / fc50, 2), cpu_p95_over_floor=round(c95 / fc95, 2),
                                back_to_back_cpu_p50_ms=round(w50, 3), back_to_back_cpu_p95_ms=round(w95, 3))
    figures.add(f"{name}, {'task+context filter' if filtered else 'query only'}",
                f"{p50:.2f} / {p95:.2f} ms; floor beside it {f50:.2f} / {f95:.2f} ms; "
                f"ratio {p50 / f50:.1f}x / {p95 / f95:.1f}x; CPU {c50:.2f} / {c95:.2f} ms, "
                f"floor's {fc50:.2f} / {fc95:.2f} ms, ratio {c50 / fc50:.1f}x / {c95 / fc95:.1f}x; "
                f"back to back CPU {w50:.2f} / {w95:.2f} ms")


def test_keyword_index_against_fts5(benchmark, built, figures):
    """The keyword side alone: FTS5's `ORDER BY bm25` against the numpy KeywordIndex, same answers.

    CPU time too: on the shared machine wall time mostly measures the queue for a core.
    """
    store, _ = built
    conn = store.tracker.conn()
    index = store.memories.keyword_index
    matches = [fts_match(q.text) for q in _queries(random.Random(1))]
    for m in matches:  # warm: the index loads each term's postings on first use
        assert sorted(ranked_matches(conn, m, 100)) == sorted(index.ranked(conn, m, 100))
    out = {}
    for label, idx, qs in (("FTS5 bm25", None, matches[:10]), ("KeywordIndex", index, matches * 3)):
        lat, cpu = [], []
        for m in qs:
            t0, c0 = time.perf_counter(), time.thread_time()
            ranked_matches(conn, m, 100, None, idx)
            cpu.append((time.thread_time() - c0) * 1e3)
            lat.append((time.perf_counter() - t0) * 1e3)
        out[label] = (statistics.median(lat), pct(lat, .95), statistics.median(cpu), pct(cpu, .95))
        figures.add(f"keyword top 100, {label} ({len(qs)} queries of 5 words)",
                    "{:.2f} / {:.2f} ms; CPU {:.2f} / {:.2f} ms".format(*out[label]))
    it = iter(matches * 3)
    benchmark.pedantic(lambda: ranked_matches(conn, next(it), 100, None, index), rounds=len(matches) * 3,
                       iterations=1)
    benchmark.extra_info.update(n=N, fts5_p50_ms=round(out["FTS5 bm25"][0], 3),
                                index_p50_ms=round(out["KeywordIndex"][0], 3))


def test_bare_batch_ingest(benchmark, tmp_path, figures):
    """write_memories into a store without the knowledge layer: the store's own share of a write."""
    n = min(N, 10_000)
    rng = random.Random(7)
    batches = [[_record(rng, b + j) for j in range(min(BATCH, n - b))] for b in range(0, n, BATCH)]
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path / "bare", clock=clock)
    t0 = time.perf_counter()
    it = iter(batches)
    benchmark.pedantic(lambda: store.write_memories(next(it)), rounds=len(batches), iterations=1)
    rate = n / (time.perf_counter() - t0)
    store.close()
    benchmark.extra_info.update(n=n, memories_per_s=round(rate))
    figures.add(f"batch ingest, bare store (no knowledge layer), {n:,} memories", f"{rate:,.0f} memories/s")


# -- the vector cache's quantized index (reference/vectors/index.py) against the exact scan ---------------------
# the index forced on (its threshold also sets how many leading rows train the quantizer: the module's own
# threshold, or the whole store when smaller)
FORCED = min(N, vector_index.INDEX_MIN_ROWS)


def test_vector_index_recall_and_latency(benchmark, built, floor, figures):
    """Recall@10 / @100 of `VectorCache.topk` through the index against the exact path (300 query
    texts, embedded as the rankers embed them), then both timed interleaved with the floor."""
    store, _ = built
    vc = store.vectors
    rng = random.Random(2)
    texts = query_texts(rng, 300)
    qs = store.embedder.embed(texts)
    for k in (10, 100):
        mean, worst = recall([topk_both(vc, q, k, FORCED) for q in qs])
        figures.add(f"vector index recall@{k} vs exact topk ({len(qs)} queries, {len(vc):,} rows)",
                    f"mean {mean:.4f}, worst query {worst:.2f}")
        benchmark.extra_info[f"recall_at_{k}"] = round(mean, 5)
    out = {}
    for label, least in (("index", FORCED), ("exact", EXACT)):
        vc.index_min_rows = least
        vc.topk(qs[0], 10, tags=[MEMORY_TAG])  # warm (builds the index on first use)
        lat, cpu = [], []
        for q in qs[:90]:
            t0, c0 = time.perf_counter(), time.thread_time()
            vc.topk(q, 10, tags=[MEMORY_TAG])
            cpu.append((time.thread_time() - c0) * 1e3)
            lat.append((time.perf_counter() - t0) * 1e3)
            floor()
        out[label] = (statistics.median(lat), pct(lat, .95), statistics.median(cpu), pct(cpu, .95))
    vc.index_min_rows = None
    fl = [floor() for _ in range(90)]
    fc = [c for _, c in fl]
    for label, (p50, p95, c50, c95) in out.items():
        figures.add(f"vector topk(k=10), {label} path", f"{p50:.2f} / {p95:.2f} ms; CPU {c50:.2f} / {c95:.2f} ms; "
                    f"CPU ratio to the floor {c50 / statistics.median(fc):.2f}x / {c95 / pct(fc, .95):.2f}x")
    figures.add("vector topk(k=10), index / exact (CPU p50)", f"{out['index'][2] / out['exact'][2]:.2f}x")
    it = iter(list(qs) * 3)
    benchmark.pedantic(lambda: vc.topk(next(it), 10, tags=[MEMORY_TAG]), rounds=90, iterations=1)
    benchmark.extra_info.update(n=N, index_cpu_p50_ms=round(out["index"][2], 3),
                                exact_cpu_p50_ms=round(out["exact"][2], 3),
                                floor_cpu_p50_ms=round(statistics.median(fc), 3))


def test_neighbour_lookup_per_write(benchmark, built, figures):
    """The knowledge layer's `live_neighbours` through the index and through the exact scan: for one
    write just made (as a live write runs it: the cache has just grown by a row, so its mmap and row
    selections are fresh), and for the latest 1,000 memories as one batch; time and recall of the top
    10 above the RELATE threshold."""
    store, _ = built
    vc = store.vectors
    rng = random.Random(3)
    top = lambda hs: sorted(hs, key=lambda h: (-h[1], h[0]))[:VECTOR_CANDIDATES]  # noqa: E731
    res: dict[str, tuple] = {}
    for label, least in (("index", FORCED), ("exact", EXACT)):
        vc.index_min_rows = least
        lat, cpu = [], []
        for j in range(31):
            entry = store.write_memory(**_record(rng, 10_000_000 + j))
            t0, c0 = time.perf_counter(), time.thread_time()
            live_neighbours(store, [entry], VECTOR_CANDIDATES, RELATE_THRESHOLD)
            cpu.append((time.thread_time() - c0) * 1e3)
            lat.append((time.perf_counter() - t0) * 1e3)
        lat, cpu = lat[1:], cpu[1:]   # the first builds the index (or warms the scan)
        _, _, keys = vc.snapshot(tags=[MEMORY_TAG])
        entries = [SimpleNamespace(key_hash=int(h)) for h in keys[-1000:]]   # the latest memories, in row order
        t0, c0 = time.perf_counter(), time.thread_time()
        live_neighbours(store, entries, VECTOR_CANDIDATES, RELATE_THRESHOLD)
        res[label] = (statistics.median(lat), pct(lat, .95), statistics.median(cpu), pct(cpu, .95),
                      time.perf_counter() - t0, time.thread_time() - c0)
    vc.index_min_rows = None
    for label, (w50, w95, c50, c95, bw, bc) in res.items():
        figures.add(f"neighbour lookup ({label}): one live write p50 / p95; a batch of 1,000",
                    f"{w50:.2f} / {w95:.2f} ms (CPU {c50:.2f} / {c95:.2f} ms); batch {bw:.2f} s (CPU {bc:.2f} s)")
    benchmark.extra_info.update(n=N, index_cpu_ms=round(res["index"][2], 3), exact_cpu_ms=round(res["exact"][2], 3))
    # recall: the same lookups (the latest 1,000 memories as a batch, and 30 single ones) both ways
    _, _, keys = vc.snapshot(tags=[MEMORY_TAG])
    entries = [SimpleNamespace(key_hash=int(h)) for h in keys[-1000:]]
    both = {}
    for label, least in (("index", FORCED), ("exact", EXACT)):
        vc.index_min_rows = least
        singles = [live_neighbours(store, [e], VECTOR_CANDIDATES, RELATE_THRESHOLD)[0] for e in entries[-30:]]
        both[label] = [top(g) for g in singles + live_neighbours(store, entries, VECTOR_CANDIDATES, RELATE_THRESHOLD)]
    vc.index_min_rows = FORCED
    mean, worst = recall(list(zip(both["index"], both["exact"])))
    figures.add(f"neighbour top {VECTOR_CANDIDATES} recall, index vs exact ({len(both['exact'])} lookups)",
                f"mean {mean:.4f}, worst {worst:.2f}")
    it = iter(entries[-30:] * 2)
    benchmark.pedantic(lambda: live_neighbours(store, [next(it)], VECTOR_CANDIDATES, RELATE_THRESHOLD),
                       rounds=30, iterations=1)
    vc.index_min_rows = None
    benchmark.extra_info.update(neighbour_recall=round(mean, 5))
    assert mean >= 0.999


def test_neighbour_recall_real_text(benchmark, tmp_path, figures):
    """The neighbour lookup's top-10 recall, index against exact, on real commit and hunk text (the shipped
    histories, bench/benchmarks/real_neighbours.py): all of it (~22k rows, past the index's threshold) from
    the medium scale on, the first 3,000 texts with the index forced on from 2,000 rows at the small one."""
    from bench.benchmarks.real_neighbours import neighbour_recall, real_texts
    from bench.scenario.home import project_root
    texts = real_texts(project_root(), None if N >= SCALES["medium"] else 3_000)
    forced = min(vector_index.INDEX_MIN_ROWS, len(texts) * 2 // 3)
    mean, worst, lookups, rows = benchmark.pedantic(lambda: neighbour_recall(tmp_path / "v", texts, forced),
                                                    rounds=1, iterations=1)
    figures.add(f"neighbour top {VECTOR_CANDIDATES} recall, index vs exact, real text ({lookups:,} lookups, "
                f"{rows:,} rows)", f"mean {mean:.4f}, worst {worst:.2f}")
    benchmark.extra_info.update(real_text_neighbour_recall=round(mean, 5), rows=rows)
    assert mean >= 0.999


@pytest.mark.skipif(os.environ.get("CODEMEM_BENCH_REAL_VECTORS") != "1",
                    reason="set CODEMEM_BENCH_REAL_VECTORS=1 (builds the large tier's hunk scenarios on first use)")
def test_vector_index_recall_real_vectors(benchmark, tmp_path, figures):
    """Recall@10 of the index against the exact path on real texts: every memory written by the
    large tier's hunk scenarios, embedded with the default embedder, and their search queries."""
    import json

    from bench.scenario import large
    from bench.scenario.home import project_root
    from reference.embed.registry import get_embedder
    from reference.vectors import VectorCache
    writes, queries = [], []
    for name in ("sqlite-utils-blame-hunks", "httpx-blame-hunks", "attrs-blame-hunks"):
        for line in large.path_for(name, project_root()).read_text().splitlines():
            step = json.loads(line)
            if step.get("tool") == "memory_write_structured":
                writes.append(step["args"]["text"])
            elif step.get("tool") == "memory_search_structured":
                queries.append(step["args"]["query"])
    emb = get_embedder()
    vc = VectorCache(tmp_path / "v", emb.dim)
    for i in range(0, len(writes), 5_000):
        vc.put_many(range(i + 1, i + 1 + len(writes[i: i + 5_000])), emb.embed(writes[i: i + 5_000]))
    qs = emb.embed(queries)
    forced = min(len(writes), vector_index.INDEX_MIN_ROWS)
    for k in (10, 100):
        mean, worst = recall([topk_both(vc, q, k, forced) for q in qs])
        figures.add(f"vector index recall@{k}, real hunk memories ({len(writes):,} rows, {len(qs)} queries)",
                    f"mean {mean:.4f}, worst query {worst:.2f}")
        benchmark.extra_info[f"recall_at_{k}"] = round(mean, 5)
    vc.index_min_rows = forced
    it = iter(list(qs) * 2)
    benchmark.pedantic(lambda: vc.topk(next(it), 10), rounds=min(len(qs), 90), iterations=1)
    vc.close()
