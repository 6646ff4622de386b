"""Normalised discounted cumulative gain at a cut-off."""
from __future__ import annotations

import math

from bench.metrics.rank_list import dedupe


def dcg(gains: list[float]) -> float:
    """Sum of gain / log2(rank + 1) over ranks 1..n (linear gain, as trec_eval and ranx's `ndcg`)."""
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(gains, start=1))


def ndcg(ranked: list[str], grades: dict[str, int], k: int = 10) -> float:
    """DCG of the top k over the DCG of the ideal top k built from all judged grades."""
    ideal = dcg(sorted((g for g in grades.values() if g > 0), reverse=True)[:k])
    if ideal == 0:
        raise ValueError("nDCG is undefined for a query with no relevant ids")
    return dcg([float(grades.get(d, 0)) for d in dedupe(ranked)[:k]]) / ideal
