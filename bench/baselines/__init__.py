"""Trivial rankers beside every score: recency and BM25, computed by the harness on a scenario's own queries.

`scenario_baselines(scenario)` replays the scenario's writes and ranked
queries without any backend (`corpus.py` says what each step contributes)
and returns, per baseline, the mean recall@10, nDCG@10 and MRR@10 over the
queries it could rank, and how many those were:

    {"recency": {"ndcg@10": 0.19, ..., "queries": 150}, "bm25": {...}}

and, when the queries have more than one `category`, `by_category`:
`{category: {"recency": {...}, "bm25": {...}}}` with the same figures per category.

`attach_baselines(summary, scenario)` adds them to a report section as
`baselines`, with `lift_over_bm25` = the backend's nDCG@10 - BM25's.
Nothing here touches `reference/`.
"""
from __future__ import annotations

from statistics import fmean
from typing import Any

from bench.baselines.corpus import ranked_queries
from bench.metrics import ranking_metrics
from bench.scenario.model import Scenario

BASELINES = ("recency", "bm25")
_HEADLINE = ("recall@10", "ndcg@10", "mrr@10")


def scenario_baselines(scenario: Scenario) -> dict[str, dict[str, float]]:
    """Mean headline metrics of each baseline over the scenario's rankable queries ({} if none)."""
    per: dict[str, list[dict[str, float]]] = {b: [] for b in BASELINES}
    cats: dict[str, dict[str, list[dict[str, float]]]] = {}
    for q in ranked_queries(scenario):
        cat = cats.setdefault(q.step.category or "all", {b: [] for b in BASELINES})
        for name, ranked in q.runs.items():
            row = ranking_metrics(ranked, q.grades, q.k)
            per[name].append(row)
            cat[name].append(row)
    if not per["bm25"]:
        return {}
    out: dict = _means(per)
    if len(cats) > 1:
        out["by_category"] = {c: _means(rows) for c, rows in sorted(cats.items())}
    return out


def _means(per: dict[str, list[dict[str, float]]]) -> dict[str, dict[str, float]]:
    return {name: {**{m: round(fmean(r[m] for r in rows), 6) for m in _HEADLINE}, "queries": len(rows)}
            for name, rows in per.items()}


def attach_baselines(summary: dict[str, Any], scenario: Scenario) -> None:
    """Put the baselines (and the backend's nDCG@10 lift over BM25) into a scenario's report section."""
    base = scenario_baselines(scenario)
    if not base:
        return
    ndcg = summary.get("quality", {}).get("ndcg@10")
    lift = None if ndcg is None else round(ndcg - base["bm25"]["ndcg@10"], 6)
    summary["baselines"] = {**base, "lift_over_bm25": {"ndcg@10": lift}}


__all__ = ["BASELINES", "attach_baselines", "scenario_baselines"]
