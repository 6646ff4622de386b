"""Fit Memory Lane's ranker-mode fusion (reference/lane/hybrid.py `Fusion`) on the calibration split only.

    python3 -m bench.calibrate_lane

The calibration split is the commits at index % 10 == 0 of each dataset
(scenarios/README.md): `<data>-blame`, `<data>-history` and `<data>-blame-paths`
are generated with `split="calibration"` (queries about those commits only;
never in a suite, never scored) for the three datasets, and replayed into an
in-process reference store. At each judged query the lane's candidate features
are recorded once per setting of the parts that change the candidate set
(semantic weight, hub share); the other weights are then searched over a grid
offline (history memories carry no lane type and the queries rarely an intent word, so the type, intent
and feedback factors are equal for all candidates and the relevance alone orders them; the working-path
set first, as the ranker puts it). The objective is the mean nDCG@10 over the nine calibration scenarios;
ties (within one query's share of the mean) go to the committed values. It
prints the grid's best settings and the choice.
"""
from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from pathlib import Path

import numpy as np

DATASETS = ("sqlite-utils", "httpx", "attrs")
TASKS = ("blame", "history", "blame-paths")
SEMANTIC = (0.0, 0.1, 0.3)
MAX_SHARE = (0.05, 0.2, 0.5, 1.0)
EXPANSION = (0.0, 0.5, 1.0, 1.5, 2.5, 4.0)
RECENCY = (0.0, 0.3, 0.8, 1.2, 2.0)
HALF_LIFE = (10.0, 25.0, 50.0, 100.0, 250.0)


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


def record(data: str, task: str) -> list[tuple[dict, list[str], dict]]:
    """Per judged query: {setting: Features}, memory ids of the keys (by alias) and the grades."""
    from reference.clock import LogicalClock
    from reference.lane import MemoryLane
    from reference.lane.hybrid import Fusion
    from reference.store import MemoryStore

    lines, truth = _scenario_lines(data, task)
    out = []
    with tempfile.TemporaryDirectory(prefix="calibrate-lane-") as tmp:
        clock = LogicalClock(lines[0]["start_time"])
        store = MemoryStore.open(Path(tmp), clock=clock)
        try:
            hybrid = MemoryLane.for_store(store).hybrid
            alias_of: dict[int, str] = {}
            for st in lines[1:]:
                if st.get("directive") == "set_clock":
                    clock.set(st["time"])
                elif st.get("tool") == "memory_write_structured":
                    a = st["args"]
                    e = store.write_memory(a["text"], task=a.get("task"), context=a.get("context"),
                                           tags=a.get("tags"), metadata=a.get("metadata"))
                    alias_of[e.key_hash] = st["as"]
                elif st.get("tool") == "memory_search_structured" and st.get("id") in truth:
                    a = st["args"]
                    flt = store.memories.filter()
                    feats = {(s, m): hybrid.features(a["query"], flt, tuple(a.get("paths") or ()),
                                                     Fusion(semantic=s, max_share=m))
                             for s in SEMANTIC for m in MAX_SHARE}
                    out.append((feats, alias_of, truth[st["id"]]))
        finally:
            store.close()
    return out


def ndcg_of(feats, alias_of: dict[int, str], grades: dict[str, int], f) -> float:
    from bench.metrics.ndcg import ndcg
    rel = feats.relevance(f)
    order = np.lexsort((-rel, -feats.entity.astype(np.float64)))[:10]
    return ndcg([alias_of.get(int(feats.keys[i]), "") for i in order], grades)


def calibrate(out=sys.stdout) -> dict:
    from reference.lane.hybrid import FUSION, Fusion
    rows = {(d, t): record(d, t) for d in DATASETS for t in TASKS}
    n_queries = sum(len(r) for r in rows.values())
    scores: dict[tuple, float] = {}
    for s, m, e, r, h in itertools.product(SEMANTIC, MAX_SHARE, EXPANSION, RECENCY, HALF_LIFE):
        if r == 0 and h != HALF_LIFE[0]:
            continue   # no prior: the half-life does nothing
        f = Fusion(semantic=s, expansion=e, recency=r, half_life=h, max_share=m)
        per = [np.mean([ndcg_of(ft[(s, m)], al, g, f) for ft, al, g in rs]) for rs in rows.values() if rs]
        scores[(s, m, e, r, h)] = float(np.mean(per))
    committed = (FUSION.semantic, FUSION.max_share, FUSION.expansion, FUSION.recency, FUSION.half_life)
    best = max(scores.values())
    tie = 1.0 / n_queries
    tied = [k for k, v in scores.items() if best - v <= tie]
    chosen = committed if committed in tied else max(tied, key=lambda k: scores[k])
    print(f"## Memory Lane fusion on the calibration split ({n_queries} queries, "
          f"{', '.join(f'{d}-{t}' for d, t in rows)})", file=out)
    print("| semantic | max_share | expansion | recency | half_life | mean nDCG@10 |\n|---|---|---|---|---|---|", file=out)
    for k in sorted(scores, key=lambda k: -scores[k])[:15]:
        print("| " + " | ".join(str(x) for x in k) + f" | {scores[k]:.4f} |", file=out)
    base = scores.get((0.0, MAX_SHARE[0], 0.0, 0.0, HALF_LIFE[0]))
    print(f"\nbm25 alone (all weights 0): {base:.4f}" if base is not None else "", file=out)
    print(f"committed {committed}: {scores.get(committed, float('nan')):.4f}", file=out)
    print(f"chosen: semantic {chosen[0]}, max_share {chosen[1]}, expansion {chosen[2]}, recency {chosen[3]}, "
          f"half_life {chosen[4]} (mean nDCG@10 {scores[chosen]:.4f}; ties within {tie:.4f} keep the committed)",
          file=out)
    return dict(zip(("semantic", "max_share", "expansion", "recency", "half_life"), chosen))


BRANCH = (0.0, 1.0, 2.0, 4.0, 8.0)
PROJECT_RECENCY = (0.0, 0.8, 1.2, 2.0, 3.0, 5.0)


def record_project(data: str) -> list[tuple]:
    """Replay `<data>-branches` (calibration split) through the harness, recording what each branch-filtered
    search weighed: (Features, scenario alias of each key, grades) per judged query."""
    from bench.run import run_suite
    from bench.scenario.loader import load_scenario
    from reference.project.ranking import BranchRanking
    from bench.cli.scenarios_cmd import history_generator

    lines, truth = _scenario_lines(data, "branches")
    calls: list[tuple] = []
    real = BranchRanking.features

    def spy(self, query, cands, own):
        ft = real(self, query, cands, own)
        rows = self.store.tracker.memories.get_many(self.store.tracker.conn(), [int(k) for k in ft.keys])
        # a commit memory is the scenario's alias c<sha10> (scenarios/generators/history/common.py)
        ids = {k: f"c{e.metadata.get('commit_sha', '')[:10]}" for k, e in rows.items()}
        calls.append((query, ft, ids))
        return ft

    with tempfile.TemporaryDirectory(prefix="calibrate-project-") as tmp:
        name = lines[0]["scenario"]
        history_generator().common.write_outputs(name, lines, [(q, d, g) for q, r in truth.items()
                                                               for d, g in r.items()], Path(tmp), Path(tmp))
        sc = load_scenario(Path(tmp) / f"{name}.jsonl", Path(tmp))
        BranchRanking.features = spy
        try:
            run_suite("reference", [sc], Path(tmp) / "run")
        finally:
            BranchRanking.features = real
    asked = [st for st in lines[1:] if st.get("tool") == "project_memory_search"
             and st["args"].get("filtered", True) and (st["args"].get("query") or "").strip()]
    if len(asked) != len(calls):
        raise RuntimeError(f"{data}: {len(asked)} branch searches in the scenario, {len(calls)} recorded")
    out = []
    for st, (query, ft, ids) in zip(asked, calls):
        if st["args"]["query"] != query:
            raise RuntimeError(f"{data}: recorded query out of order at {st.get('id')}")
        if st.get("id") in truth:
            out.append((ft, ids, truth[st["id"]]))
    return out


def calibrate_project(out=sys.stdout) -> dict:
    """Fit the project layer's BRANCH_WEIGHT, recency and half-life (reference/project/ranking.py)."""
    from bench.metrics.ndcg import ndcg
    from reference.project import ranking
    rows = {d: record_project(d) for d in DATASETS}
    n = sum(len(r) for r in rows.values())
    base = ranking.BRANCH_FUSION
    scores = {}
    for b, r, h in itertools.product(BRANCH, PROJECT_RECENCY, HALF_LIFE):
        if r == 0 and h != HALF_LIFE[0]:
            continue
        f = Fusion_(base, r, h)
        per = []
        for rs in rows.values():
            vals = []
            for ft, ids, grades in rs:
                score = ft.relevance(f) + b * ft.entity
                order = np.argsort(-score, kind="stable")[:10]
                vals.append(ndcg([ids.get(int(ft.keys[i]), "") for i in order], grades))
            per.append(np.mean(vals))
        scores[(b, r, h)] = float(np.mean(per))
    committed = (ranking.BRANCH_WEIGHT, base.recency, base.half_life)
    best = max(scores.values())
    tied = [k for k, v in scores.items() if best - v <= 1.0 / n]
    chosen = committed if committed in tied else max(tied, key=lambda k: scores[k])
    print(f"## Project memory inside the branch filter, calibration split ({n} judged queries, "
          f"{', '.join(d + '-branches' for d in rows)})", file=out)
    print("| branch weight | recency | half_life | mean nDCG@10 |\n|---|---|---|---|", file=out)
    for k in sorted(scores, key=lambda k: -scores[k])[:12]:
        print("| " + " | ".join(str(x) for x in k) + f" | {scores[k]:.4f} |", file=out)
    print(f"relevance alone (branch weight 0, no prior): {scores.get((0.0, 0.0, HALF_LIFE[0]), float('nan')):.4f}; "
          f"committed {committed}: {scores.get(committed, float('nan')):.4f}", file=out)
    print(f"chosen: BRANCH_WEIGHT {chosen[0]}, recency {chosen[1]}, half_life {chosen[2]} "
          f"(mean nDCG@10 {scores[chosen]:.4f})", file=out)
    return dict(zip(("branch_weight", "recency", "half_life"), chosen))


def Fusion_(base, recency: float, half_life: float):
    import dataclasses
    return dataclasses.replace(base, recency=recency, half_life=half_life)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m bench.calibrate_lane", description=__doc__.split("\n")[0])
    ap.add_argument("--project", action="store_true", help="fit the project layer's branch ranking instead")
    args = ap.parse_args(argv)
    calibrate_project() if args.project else calibrate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
