"""Mean reciprocal rank (of one query) at a cut-off."""
from __future__ import annotations

from bench.metrics.rank_list import dedupe


def mrr(ranked: list[str], grades: dict[str, int], k: int) -> float:
    """1 / rank of the first relevant id within the top k (ranks from 1); 0 if none is there."""
    for rank, d in enumerate(dedupe(ranked)[:k], start=1):
        if grades.get(d, 0) > 0:
            return 1.0 / rank
    return 0.0
