"""Recall at a cut-off."""
from __future__ import annotations

from bench.metrics.rank_list import dedupe


def recall(ranked: list[str], grades: dict[str, int], k: int) -> float:
    """|relevant in top k| / |relevant|; 0 for an empty result list.

    Raises ValueError when nothing is relevant (such a query cannot be scored).
    """
    relevant = {d for d, g in grades.items() if g > 0}
    if not relevant:
        raise ValueError("recall is undefined for a query with no relevant ids")
    return len(relevant.intersection(dedupe(ranked)[:k])) / len(relevant)
