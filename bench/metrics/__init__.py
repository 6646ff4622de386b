"""Retrieval metrics, one per module, with the conventions of `bench/metrics/README.md`.

All take `ranked` (ids in rank order, best first) and `grades` (id -> positive
relevance grade; ids not in it are non-relevant) and a cut-off `k`.
"""
from bench.metrics.latency import percentiles
from bench.metrics.mrr import mrr
from bench.metrics.ndcg import ndcg
from bench.metrics.precision import precision
from bench.metrics.rank_list import dedupe
from bench.metrics.recall import recall


def ranking_metrics(ranked: list[str], grades: dict[str, int], k: int = 10) -> dict[str, float]:
    """recall@k, precision@k, mrr@k and ndcg@10 of one query, keyed by their report names."""
    return {
        f"recall@{k}": recall(ranked, grades, k),
        f"precision@{k}": precision(ranked, grades, k),
        f"mrr@{k}": mrr(ranked, grades, k),
        "ndcg@10": ndcg(ranked, grades, 10),
    }


__all__ = ["dedupe", "mrr", "ndcg", "percentiles", "precision", "ranking_metrics", "recall"]
