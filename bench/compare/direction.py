"""Which way is better for each figure a report holds."""
from __future__ import annotations

from typing import Literal

Direction = Literal["higher", "lower"]

# substrings of metric names where a smaller value is better; everything else is "higher"
_LOWER = ("latency", "_ms", "bytes", "duplicate", "error", "leak", "false_positive", "unsupported", "stale")


def direction(metric: str) -> Direction:
    """`higher` or `lower`: ranking metrics, rates and accuracies are higher-is-better;
    latency, storage, duplicate, error, leak, false-positive, unsupported and stale figures are lower."""
    name = metric.lower()
    return "lower" if any(s in name for s in _LOWER) else "higher"


def worse_by(metric: str, baseline: float, current: float) -> float:
    """How much worse `current` is than `baseline` (negative when it is better)."""
    diff = current - baseline
    return -diff if direction(metric) == "higher" else diff
