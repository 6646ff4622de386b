"""Fit Memory Lane's ranker-mode weights (reference/lane/hybrid.py `LANE`) on the calibration split only.

    python3 -m bench.calibration.lane              # Memory Lane
    python3 -m bench.calibration.lane --project    # the project layer's branch ranking

The calibration split is the commits at index % 10 == 0 of each dataset
(scenarios/README.md): `<data>-blame`, `<data>-history` and `<data>-blame-paths`
are generated with `split="calibration"` (queries about those commits only;
never in a suite, never scored) for the three datasets, and replayed into an
in-process reference store. At each judged query the lane's candidate features
(`lane_features`: the lexical pipeline's parts, reference/lexical) are recorded
once per setting of the parts that change them (semantic weight, expansion
norm); the other weights are then searched over a grid offline (history
memories carry no lane type and the queries rarely an intent word, so the type,
intent and feedback factors are equal for all candidates and the relevance
alone orders them, after the floor, with the working-path set first, as the
ranker puts it). BM25's k1, b and stop-word share are the lexical index's own
(`TUNED`, fitted by `python3 -m bench.calibration.lexical`). The objective is the
mean nDCG@10 over the nine calibration scenarios; ties (within one query's
share of the mean) go to the committed values. It prints the grid's best
settings and the choice.
"""
from __future__ import annotations

import argparse
import dataclasses
import itertools
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bench.calibration.scenarios import DATASETS

TASKS = ("blame", "history", "blame-paths")
SEMANTIC = (0.0, 0.1, 0.3)
NORM = (0.0, 0.5)
EXPANSION = (0.0, 0.5, 1.0, 1.5, 2.5, 4.0)
RECENCY = (0.0, 0.3, 0.8, 1.2, 2.0)
HALF_LIFE = (10.0, 20.0, 25.0, 50.0, 100.0, 250.0)


def _scenario_lines(data: str, task: str) -> tuple[list[dict], dict[str, dict[str, int]]]:
    from bench.cli.scenarios_cmd import history_generator
    from bench.scenario.suites import project_root
    gen = history_generator()
    ds = gen.load(project_root() / "scenarios" / "data" / data)
    lines, qrels = gen.generate(ds, task, "calibration")
    truth: dict[str, dict[str, int]] = {}
    for qid, doc, grade in qrels or []:
        truth.setdefault(qid, {})[doc] = grade
    return lines, truth


@dataclass(frozen=True)
class Recorded:
    """One judged query's candidates under one setting: Features, each candidate's scenario alias and place in
    id order (the ranker's tie-break), whether it passes the floor, and the query's grades."""

    ft: Any
    names: list[str]
    id_rank: np.ndarray
    passes: np.ndarray
    grades: dict[str, int]


def record(data: str, task: str) -> list[dict[tuple, Recorded]]:
    """Replay one calibration scenario; per judged query, {(semantic, norm): Recorded}."""
    from reference.clock import LogicalClock
    from reference.lane import MemoryLane
    from reference.lane.hybrid import LANE
    from reference.store import MemoryStore

    lines, truth = _scenario_lines(data, task)
    out = []
    with tempfile.TemporaryDirectory(prefix="calibrate-lane-") as tmp:
        clock = LogicalClock(lines[0]["start_time"])
        store = MemoryStore.open(Path(tmp), clock=clock)
        try:
            lane = MemoryLane.for_store(store)
            alias_of: dict[str, str] = {}
            for st in lines[1:]:
                if st.get("directive") == "set_clock":
                    clock.set(st["time"])
                elif st.get("tool") == "memory_write_structured":
                    a = st["args"]
                    e = store.write_memory(a["text"], task=a.get("task"), context=a.get("context"),
                                           tags=a.get("tags"), metadata=a.get("metadata"))
                    alias_of[e.id] = st["as"]
                elif st.get("tool") == "memory_search_structured" and st.get("id") in truth:
                    a = st["args"]
                    paths = tuple(a.get("paths") or ())
                    floor = lane.floors.entity if paths else lane.floors.semantic
                    recs = {}
                    for s, m in itertools.product(SEMANTIC, NORM):
                        ft = lane.hybrid.features(a["query"], store.memories.filter(), paths,
                                                  LANE.with_(vector_weight=s, expand_norm=m))
                        mids = [lane.hybrid.lexical.index.ids[int(r)] for r in ft.rows]
                        passes = (ft.lexical > 0) | (ft.shared > 0) | (ft.named > 0) | ft.entity | (ft.raw_cosine >= floor)
                        recs[(s, m)] = Recorded(ft, [alias_of.get(x, "") for x in mids], _rank(mids), passes,
                                                truth[st["id"]])
                    out.append(recs)
        finally:
            store.close()
    return out


def _rank(ids: list[str]) -> np.ndarray:
    """Each id's place in id order."""
    order = sorted(range(len(ids)), key=ids.__getitem__)
    rank = np.empty(len(ids), dtype=np.int64)
    rank[order] = np.arange(len(ids))
    return rank


def ndcg_of(rec: Recorded, p) -> float:
    """nDCG@10 of the ranker's order of the candidates under `p`: the floor, the working-path set first, then
    relevance, ties by id."""
    from bench.metrics.ndcg import ndcg
    ft = rec.ft
    keep = np.flatnonzero(rec.passes)
    rel = ft.relevance(p)[keep]
    order = keep[np.lexsort((rec.id_rank[keep], -rel, -ft.entity[keep].astype(np.float64)))[:10]]
    return ndcg([rec.names[i] for i in order], rec.grades)


def grid_scores(rows: dict[tuple, list[dict[tuple, Recorded]]]) -> dict[tuple, dict[tuple, float]]:
    """Each grid setting's mean nDCG@10 in each recorded scenario: {(semantic, norm, expansion, recency,
    half-life): {scenario key: mean}} (scenarios without judged queries left out)."""
    from reference.lane.hybrid import LANE
    scores: dict[tuple, dict[tuple, float]] = {}
    for s, m, e, r, h in itertools.product(SEMANTIC, NORM, EXPANSION, RECENCY, HALF_LIFE):
        if r == 0 and h != HALF_LIFE[0]:
            continue   # no prior: the half-life does nothing
        p = LANE.with_(vector_weight=s, expand_norm=m, expand_weight=e, recency_weight=r, recency_scale=h)
        scores[(s, m, e, r, h)] = {key: float(np.mean([ndcg_of(j[(s, m)], p) for j in js]))
                                   for key, js in rows.items() if js}
    return scores


def committed_setting() -> tuple:
    """The committed `LANE` as a grid setting."""
    from reference.lane.hybrid import LANE
    return LANE.vector_weight, LANE.expand_norm, LANE.expand_weight, LANE.recency_weight, LANE.recency_scale


def choose(means: dict[tuple, float], tie: float, committed: tuple) -> tuple:
    """`committed` if it is within `tie` of the best mean, else the best."""
    best = max(means.values())
    tied = [k for k, v in means.items() if best - v <= tie]
    return committed if committed in tied else max(tied, key=lambda k: means[k])


def calibrate(out=sys.stdout) -> dict:
    """Fit Memory Lane's ranker mode on the nine calibration scenarios (module doc); prints the grid's best
    settings and the choice, and returns it."""
    rows = {(d, t): record(d, t) for d in DATASETS for t in TASKS}
    n_queries = sum(len(r) for r in rows.values())
    scores = {k: float(np.mean(list(per.values()))) for k, per in grid_scores(rows).items()}
    committed = committed_setting()
    tie = 1.0 / n_queries
    chosen = choose(scores, tie, committed)
    print(f"## Memory Lane on the calibration split ({n_queries} queries, "
          f"{', '.join(f'{d}-{t}' for d, t in rows)})", file=out)
    print("| semantic | expand_norm | expansion | recency | half_life | mean nDCG@10 |\n|---|---|---|---|---|---|",
          file=out)
    for k in sorted(scores, key=lambda k: -scores[k])[:15]:
        print("| " + " | ".join(str(x) for x in k) + f" | {scores[k]:.4f} |", file=out)
    base = scores.get((0.0, 0.0, 0.0, 0.0, HALF_LIFE[0]))
    print(f"\nbm25 alone (all weights 0): {base:.4f}" if base is not None else "", file=out)
    print(f"committed {committed}: {scores.get(committed, float('nan')):.4f}", file=out)
    print(f"chosen: vector_weight {chosen[0]}, expand_norm {chosen[1]}, expand_weight {chosen[2]}, "
          f"recency_weight {chosen[3]}, recency_scale {chosen[4]} (mean nDCG@10 {scores[chosen]:.4f}; "
          f"ties within {tie:.4f} keep the committed)", file=out)
    return dict(zip(("vector_weight", "expand_norm", "expand_weight", "recency_weight", "recency_scale"), chosen))


BRANCH = (0.0, 1.0, 2.0, 4.0, 8.0)
PROJECT_EXPANSION = (0.0, 1.5, 2.5)
PROJECT_RECENCY = (0.0, 0.8, 1.2, 2.0, 3.0, 5.0)


@dataclass(frozen=True)
class BranchRecord:
    """One judged branch search: per candidate row of the filter, the first stage (BM25 + cosine) and the
    expansion (the lexical pipeline's parts under the committed params), the asked branch's flag, each row's
    alias and place in id order, the index's row count, and the grades."""

    rows: np.ndarray
    first: np.ndarray
    shared: np.ndarray
    own: np.ndarray
    names: list[str]
    id_rank: np.ndarray
    n_rows: int
    grades: dict[str, int]
    named: np.ndarray      # the named-file expansion x its weight (the lexical ranking's, not fitted here)
    ticks: np.ndarray      # the index's write-time ticks (the recency prior's ages)

    def ndcg(self, expansion: float, recency: float, half_life: float, branch: float) -> float:
        from bench.metrics.ndcg import ndcg
        from reference.lexical.recency import recency_prior
        score = self.first + expansion * self.shared + self.named
        if recency > 0:
            score = score + recency * recency_prior(self.n_rows, half_life, self.ticks)[self.rows] * (score > 0)
        score = score + branch * self.own
        order = np.lexsort((self.id_rank, -score))[:10]
        return ndcg([self.names[i] for i in order], self.grades)


def record_project(data: str) -> list[BranchRecord]:
    """Replay `<data>-branches` (calibration split) through the harness, recording the parts of each
    branch-filtered search (`BranchRecord`)."""
    from bench.run import run_suite
    from bench.scenario.loader import load_scenario
    from bench.cli.scenarios_cmd import history_generator
    from reference.lexical.expansion import expand, named_files, spread
    from reference.lexical.ranking import first_stage
    from reference.project.ranking import BranchRanking

    lines, truth = _scenario_lines(data, "branches")
    calls: list[tuple] = []
    real = BranchRanking.parts

    def spy(self, query, cands, own):
        got = real(self, query, cands, own)
        lex, p = self.lexical, self.params
        vector = lex.vector(query, cands) if p.vector_weight > 0 else None
        index = lex.index
        allowed = lex.allowed_rows(cands)
        first = first_stage(index, query, p, vector)
        n = first.size
        mask = index.alive()[:n] & allowed[:n]
        shared = expand(index, first, p.expand_top, mask, p.expand_norm)
        named = (p.named_weight * spread(index, named_files(index, query, p.named_top), n)
                 if p.named_top > 0 and p.named_weight > 0 else np.zeros(n))
        rows = np.flatnonzero(mask)
        entries = self.store.tracker.memories.get_many(self.store.tracker.conn(),
                                                       [self.store.tracker.hash_fn(index.ids[r]) for r in rows])
        sha = {e.id: e.metadata.get("commit_sha", "") for e in entries.values()}
        mids = [index.ids[r] for r in rows]
        # a commit memory is the scenario's alias c<sha10> (scenarios/generators/history/common.py)
        names = [f"c{sha.get(m, '')[:10]}" for m in mids]
        calls.append((query, BranchRecord(rows, first[rows], shared[rows], got[1][rows].astype(np.float64), names,
                                          _rank(mids), n, {}, named[rows], index.ticks()[:n])))
        return got

    with tempfile.TemporaryDirectory(prefix="calibrate-project-") as tmp:
        name = lines[0]["scenario"]
        history_generator().common.write_outputs(name, lines, [(q, d, g) for q, r in truth.items()
                                                               for d, g in r.items()], Path(tmp), Path(tmp))
        sc = load_scenario(Path(tmp) / f"{name}.jsonl", Path(tmp))
        BranchRanking.parts = spy
        try:
            run_suite("reference", [sc], Path(tmp) / "run")
        finally:
            BranchRanking.parts = real
    asked = [st for st in lines[1:] if st.get("tool") == "project_memory_search"
             and st["args"].get("filtered", True) and (st["args"].get("query") or "").strip()]
    if len(asked) != len(calls):
        raise RuntimeError(f"{data}: {len(asked)} branch searches in the scenario, {len(calls)} recorded")
    out = []
    for st, (query, rec) in zip(asked, calls):
        if st["args"]["query"] != query:
            raise RuntimeError(f"{data}: recorded query out of order at {st.get('id')}")
        if st.get("id") in truth:
            out.append(dataclasses.replace(rec, grades=truth[st["id"]]))
    return out


def project_grid_scores(rows: dict[Any, list[BranchRecord]]) -> dict[tuple, dict[Any, float]]:
    """Each branch-ranking grid setting's mean nDCG@10 in each dataset's recorded branch searches:
    {(branch weight, expansion, recency, half-life): {key of `rows` (a dataset, say): mean}}."""
    scores: dict[tuple, dict[Any, float]] = {}
    for b, e, r, h in itertools.product(BRANCH, PROJECT_EXPANSION, PROJECT_RECENCY, HALF_LIFE):
        if r == 0 and h != HALF_LIFE[0]:
            continue
        scores[(b, e, r, h)] = {d: float(np.mean([rec.ndcg(e, r, h, b) for rec in rs])) for d, rs in rows.items()}
    return scores


def committed_project_setting() -> tuple:
    """The committed branch ranking (`BRANCH_WEIGHT`, `BRANCH_PARAMS`) as a grid setting."""
    from reference.project import ranking
    base = ranking.BRANCH_PARAMS
    return ranking.BRANCH_WEIGHT, base.expand_weight, base.recency_weight, base.recency_scale


def calibrate_project(out=sys.stdout) -> dict:
    """Fit the project layer's BRANCH_WEIGHT, expansion, recency and half-life (reference/project/ranking.py)."""
    rows = {d: record_project(d) for d in DATASETS}
    n = sum(len(r) for r in rows.values())
    scores = {k: float(np.mean(list(per.values()))) for k, per in project_grid_scores(rows).items()}
    committed = committed_project_setting()
    chosen = choose(scores, 1.0 / n, committed)
    print(f"## Project memory inside the branch filter, calibration split ({n} judged queries, "
          f"{', '.join(d + '-branches' for d in rows)})", file=out)
    print("| branch weight | expansion | recency | half_life | mean nDCG@10 |\n|---|---|---|---|---|", file=out)
    for k in sorted(scores, key=lambda k: -scores[k])[:12]:
        print("| " + " | ".join(str(x) for x in k) + f" | {scores[k]:.4f} |", file=out)
    print(f"relevance alone (branch weight 0, no expansion, no prior): "
          f"{scores.get((0.0, 0.0, 0.0, HALF_LIFE[0]), float('nan')):.4f}; "
          f"committed {committed}: {scores.get(committed, float('nan')):.4f}", file=out)
    print(f"chosen: BRANCH_WEIGHT {chosen[0]}, expand_weight {chosen[1]}, recency_weight {chosen[2]}, "
          f"recency_scale {chosen[3]} (mean nDCG@10 {scores[chosen]:.4f})", file=out)
    return dict(zip(("branch_weight", "expand_weight", "recency_weight", "recency_scale"), chosen))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m bench.calibration.lane", description=__doc__.split("\n")[0])
    ap.add_argument("--project", action="store_true", help="fit the project layer's branch ranking instead")
    args = ap.parse_args(argv)
    calibrate_project() if args.project else calibrate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
