"""Speed of Memory Lane (seed 004) and of the `memory-lane` and `rrf` rankers, against the store's own search.

Run:  python -m pytest bench/benchmarks/bench_lane.py --benchmark-only
Scale: CODEMEM_BENCH_SCALE=small (1k memories, default) or full (10k memories).
Compare the groups' means as ratios to `galaxybrain` measured in the same run.

Floor calibration (not a speed test): `python bench/benchmarks/bench_lane.py --floors`
prints, for candidate similarity floors, the share of judged-relevant and
non-relevant top-10 hits of the `smoke` and `sqlite-utils-history` scenarios
that a floor keeps, and how many queries it leaves with no answer (the
figures quoted in reference/lane/README.md).
"""
from __future__ import annotations

import itertools
import os
import random
import sys

import pytest

from reference.clock import LogicalClock
from reference.lane import MemoryLane
from reference.rankers import Query, make_ranker
from reference.store import MemoryStore

SCALES = {"small": 1_000, "full": 10_000}
SCALE = os.environ.get("CODEMEM_BENCH_SCALE", "small")
N = SCALES.get(SCALE, SCALES["small"])
TYPES = ("correction", "decision", "commitment", "insight", "learning", "pattern_seed", "gap")
FEATURES = [f"feature-{i}" for i in range(40)]
WORDS = ("auth token refresh race billing invoice cache redis queue worker retry timeout deploy schema migration "
         "index query latency frontend modal api endpoint session cookie webhook rounding locale bundle flaky test "
         "fixture mock mistake decided usually wrong chose").split()
SEMANTIC = ["token refresh race", "billing rounding invoice", "flaky test fixture", "cache latency redis"]
ENTITY = ["what mistake did we make with feature 3 token refresh?", "feature 12 cache decided",
          "feature 27 retry timeout", "feature 39 schema migration wrong"]


@pytest.fixture(scope="module")
def lane_store(tmp_path_factory):
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path_factory.mktemp("bench_lane"), clock=clock)
    lane = MemoryLane.for_store(store)
    rng = random.Random(0)
    for i in range(N):
        clock.advance(1)
        lane.store(" ".join(rng.choices(WORDS, k=12)) + f" item{i}", memory_type=rng.choice(TYPES),
                   entities=[f"feature:{rng.choice(FEATURES)}"], tags=["lane"])
    yield store, lane
    store.close()


def _cycle(items):
    it = itertools.cycle(items)
    return lambda: next(it)


@pytest.mark.parametrize("ranker", ["galaxybrain", "memory-lane", "rrf"])
@pytest.mark.parametrize("kind", ["semantic", "entity"])
def test_ranker_search(benchmark, lane_store, ranker, kind):
    store, _ = lane_store
    r = make_ranker(ranker, store)
    nxt = _cycle(SEMANTIC if kind == "semantic" else ENTITY)
    benchmark.group = f"ranker-{kind}"
    benchmark.extra_info.update(scale=SCALE, memories=N)
    benchmark(lambda: r.search(Query(nxt(), top_k=10)))


def test_lane_find_entity(benchmark, lane_store):
    _, lane = lane_store
    nxt = _cycle(ENTITY)
    benchmark.group = "lane"
    benchmark(lambda: lane.find(nxt(), top_k=10))


def test_lane_inject_fresh_session(benchmark, lane_store):
    _, lane = lane_store
    nxt, sessions = _cycle(ENTITY), itertools.count()
    benchmark.group = "lane"
    benchmark(lambda: lane.inject(nxt(), f"s{next(sessions)}", 3))


def test_lane_known_entities(benchmark, lane_store):
    _, lane = lane_store
    benchmark.group = "lane"
    benchmark(lane.known_entities)


# -- floor calibration -------------------------------------------------------------
def floor_table(floors=(0.0, 0.10, 0.12, 0.15, 0.20, 0.25, 0.30, 0.40, 0.50)) -> str:
    """Per scenario and floor: relevant / non-relevant top-10 hits kept, queries left empty (hashing-v1)."""
    import numpy as np

    from bench.scenario.loader import load_scenario
    from bench.scenario.suites import oracle_dir, scenarios_dir
    from reference.embed import HashingEmbedder

    emb = HashingEmbedder()
    lines = ["| scenario | floor | relevant top-10 kept | non-relevant top-10 kept | queries left empty |",
             "|---|---|---|---|---|"]
    for name in ("smoke", "sqlite-utils-history"):
        sc = load_scenario(scenarios_dir() / f"{name}.jsonl", oracle_dir())
        texts: dict[str, str] = {}
        rows = []
        for st in sc.steps:
            if st.name == "memory_write_structured" and st.alias:
                texts[st.alias] = st.args.text
            filtered = any(getattr(st.args, a, None) for a in ("task", "context", "insights", "tags"))
            if st.expect is not None and st.expect.relevant is not None and getattr(st.args, "query", None) \
                    and not filtered:
                ids = list(texts)
                sims = emb.embed([texts[i] for i in ids]) @ emb.embed([st.args.query])[0]
                grades = st.expect.grades()
                rows.append([(float(sims[j]), ids[j] in grades) for j in np.argsort(-sims, kind="stable")[:10]])
        for f in floors:
            rel = [s >= f for r in rows for s, good in r if good]
            non = [s >= f for r in rows for s, good in r if not good]
            empty = sum(1 for r in rows if not any(s >= f for s, _ in r))
            lines.append(f"| {name} ({len(rows)} queries) | {f:.2f} | {sum(rel) / len(rel):.3f} | "
                         f"{sum(non) / len(non):.3f} | {empty} |")
    return "\n".join(lines)


if __name__ == "__main__":
    if "--floors" in sys.argv:
        print(floor_table())
    else:
        print(__doc__)
