"""The markdown table: nDCG@10 of every ranker with every embedder, beside the recency and BM25 baselines."""
from __future__ import annotations

import statistics

from bench.ranker_table.runs import DATASETS, TASKS

TASK_LABEL = {"blame": "blame", "history": "history (shares a file)", "files": "files", "branches": "branches, all"}


def _f(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}"


def _cells(reports: dict, embedders: list[str], rankers: list[str], scenario: str, category: str | None):
    """(scores per ranker x embedder, recency, bm25) for one scenario (or one query category of it)."""
    got, base = [], {}
    for r in rankers:
        for e in embedders:
            s = reports.get((e, r), {}).get("scenarios", {}).get(scenario, {})
            if category is None:
                got.append(s.get("quality", {}).get("ndcg@10"))
                base = base or s.get("baselines") or {}
            else:
                got.append(s.get("quality_by_category", {}).get(category, {}).get("ndcg@10"))
                base = base or (s.get("baselines") or {}).get("by_category", {}).get(category, {})
    return got, base.get("recency", {}).get("ndcg@10"), base.get("bm25", {}).get("ndcg@10")


def table(reports: dict, embedders: list[str], rankers: list[str], default: str) -> str:
    """`reports[(embedder, ranker)]` is a report.json; rows are task x data set (+ branch categories)."""
    head = ["task", "data"] + [f"{r}{' (default)' if r == default else ''} · {e}" for r in rankers for e in embedders]
    head += ["recency", "BM25"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    six: dict[int, list[float]] = {}
    six_base: dict[str, list[float]] = {"recency": [], "bm25": []}
    for task in TASKS:
        for data in DATASETS:
            name = f"{data}-{task}"
            got, rec, bm = _cells(reports, embedders, rankers, name, None)
            lines.append("| " + " | ".join([TASK_LABEL[task], data, *map(_f, got), _f(rec), _f(bm)]) + " |")
            if task in ("blame", "history"):
                for i, g in enumerate(got):
                    six.setdefault(i, []).append(g)
                six_base["recency"].append(rec)
                six_base["bm25"].append(bm)
            # branches: one more row per query category (on-branch, default-blame), as issue 27's table has
            cats = dict.fromkeys(c for rep in reports.values() if task == "branches"
                                 for c in rep.get("scenarios", {}).get(name, {}).get("quality_by_category", {}))
            for cat in cats:
                got, rec, bm = _cells(reports, embedders, rankers, name, cat)
                lines.append("| " + " | ".join([f"{task}, {cat}", data, *map(_f, got), _f(rec), _f(bm)]) + " |")
    mean = lambda vs: None if not vs or any(v is None for v in vs) else statistics.fmean(vs)  # noqa: E731
    lines.append("| " + " | ".join(["mean of the six blame + history", "", *(_f(mean(six.get(i, [])))
                                   for i in range(len(rankers) * len(embedders))),
                                   _f(mean(six_base["recency"])), _f(mean(six_base["bm25"]))]) + " |")
    return "\n".join(lines)


def cost_table(costs: list[dict]) -> str:
    """One row per embedder: a store write's cost per memory, one by one and in one batch."""
    lines = ["| embedder | memories | one `write_memory` each: wall median / mean, CPU mean (ms) "
             "| one `write_memories` batch: wall / CPU per memory (ms) |", "|---|---|---|---|"]
    for c in costs:
        one, batch = c["one_by_one"], c["batch"]
        lines.append(f"| {c['embedder']} | {c['memories']} | {one['wall_median_ms']:.1f} / {one['wall_mean_ms']:.1f} / "
                     f"{one['cpu_mean_ms']:.1f} | {batch['wall_mean_ms']:.1f} / {batch['cpu_mean_ms']:.1f} |")
    return "\n".join(lines)
