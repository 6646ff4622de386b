"""The recency baseline: the most recently written (or, for files, most recently changed) items first."""
from __future__ import annotations

from collections.abc import Callable


def most_recent(order: dict[str, int], k: int, allowed: Callable[[str], bool] = lambda d: True) -> list[str]:
    """The k allowed ids with the highest write order (latest first)."""
    return sorted((d for d in order if allowed(d)), key=lambda d: (-order[d], d))[:k]
