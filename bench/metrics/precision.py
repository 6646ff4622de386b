"""Precision at a cut-off."""
from __future__ import annotations

from bench.metrics.rank_list import dedupe


def precision(ranked: list[str], grades: dict[str, int], k: int) -> float:
    """|relevant in top k| / k, with k fixed even when fewer results came back (as trec_eval)."""
    if k <= 0:
        raise ValueError("k must be positive")
    return sum(1 for d in dedupe(ranked)[:k] if grades.get(d, 0) > 0) / k
