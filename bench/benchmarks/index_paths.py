"""The vector cache's two search paths side by side: its quantized index forced on, and the exact scan."""
from __future__ import annotations

import statistics

from reference.vectors.search import KIND_TAGS

EXACT = 10 ** 12     # an index threshold no store reaches: the exact path
MEMORY_TAG = KIND_TAGS["memory"]


def topk_both(vc, q, k: int, forced: int) -> tuple[list, list]:
    """(topk through the index, forced on from `forced` rows; the exact scan's topk) of one query."""
    vc.index_min_rows = forced
    got = vc.topk(q, k, tags=[MEMORY_TAG])
    vc.index_min_rows = EXACT
    want = vc.topk(q, k, tags=[MEMORY_TAG])
    vc.index_min_rows = None
    return got, want


def recall(pairs: list[tuple[list, list]]) -> tuple[float, float]:
    """(mean, worst) share of the exact answer's keys that the index's answer holds."""
    shares = [len({h for h, _ in g} & {h for h, _ in w}) / len(w) if w else float(not g) for g, w in pairs]
    return statistics.fmean(shares), min(shares)
