"""Holm's step-down correction for testing several hypotheses at once."""
from __future__ import annotations

from collections.abc import Sequence


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the input order.

    Sort ascending as p(1) <= ... <= p(m); the adjusted p(i) is
    max over j <= i of min(1, (m - j + 1) * p(j)). Rejecting every hypothesis whose
    adjusted p is below alpha controls the family-wise error rate at alpha.
    """
    for p in p_values:
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"p-value {p} is not in [0, 1]")
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
