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


HEADLINE_K = 10


def ranking_metrics(ranked: list[str], grades: dict[str, int], k: int = HEADLINE_K) -> dict[str, float]:
    """recall, precision and mrr at 10 and nDCG@10 of one query, plus the same at `k` when k != 10.

    Every query is scored at the headline cut-off 10 so scenario means compare
    across queries; a step's own `k` adds its figures beside them.
    """
    out = {
        f"recall@{HEADLINE_K}": recall(ranked, grades, HEADLINE_K),
        f"precision@{HEADLINE_K}": precision(ranked, grades, HEADLINE_K),
        f"mrr@{HEADLINE_K}": mrr(ranked, grades, HEADLINE_K),
        "ndcg@10": ndcg(ranked, grades, 10),
    }
    if k != HEADLINE_K:
        out |= {f"recall@{k}": recall(ranked, grades, k), f"precision@{k}": precision(ranked, grades, k),
                f"mrr@{k}": mrr(ranked, grades, k)}
    return out

__all__ = ["dedupe", "mrr", "ndcg", "percentiles", "precision", "ranking_metrics", "recall"]
