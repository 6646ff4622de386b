"""Top-k selection over scores already computed by `VectorCache.scan`.

A caller that widens its cut (Memory Lane looks deeper until its re-weighted
ranking is settled) scans the vectors once and selects from the same scores
at each depth, instead of scanning the store again per depth.
"""
from __future__ import annotations

import numpy as np


def best(keys: np.ndarray, scores: np.ndarray, k: int, *, with_ties: bool = False) -> list[tuple[int, float]]:
    """The `k` best (key, score), best first, ties by key ascending; as `VectorCache.topk`.

    With `with_ties`, every key scoring equal to the k-th is kept too.
    """
    n = len(scores)
    if k <= 0 or n == 0:
        return []
    if k < n:
        kth = np.partition(scores, n - k)[n - k]
        sel = np.flatnonzero(scores >= kth)
    else:
        sel = np.arange(n)
    order = sel[np.lexsort((keys[sel], -scores[sel]))]
    if not with_ties:
        order = order[:k]
    elif k < len(order):
        order = order[scores[order] >= scores[order[k - 1]]]
    return [(int(keys[i]), float(scores[i])) for i in order]
