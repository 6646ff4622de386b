"""The recency baseline: the most recently written (or, for files, most recently changed) items first."""
from __future__ import annotations

from collections.abc import Callable


def most_recent(order: dict[str, int], k: int, allowed: Callable[[str], bool] = lambda d: True) -> list[str]:
    """The k allowed ids with the highest write order (latest first; ties by id)."""
    return sorted((d for d in order if allowed(d)), key=lambda d: (-order[d], d))[:k]


def most_recent_ordered(order: dict[str, int], k: int, allowed: Callable[[str], bool] = lambda d: True) -> list[str]:
    """`most_recent` for an `order` whose insertion order is ascending by value (as `corpus.Pool` keeps it).

    Walks from the newest end and stops once k are found and the order drops
    below the k-th, so a query costs O(k + ties + disallowed) instead of a sort
    of the whole pool; the answer is the same as `most_recent`'s.
    """
    picked: list[tuple[int, str]] = []
    for d in reversed(order):
        v = order[d]
        if len(picked) >= k and v < picked[k - 1][0]:
            break
        if allowed(d):
            picked.append((v, d))
    picked.sort(key=lambda p: (-p[0], p[1]))
    return [d for _, d in picked[:k]]
