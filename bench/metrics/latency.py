"""Latency percentiles."""
from __future__ import annotations

import numpy as np


def percentiles(samples_ms: list[float], qs: tuple[int, ...] = (50, 95, 99)) -> dict[str, float]:
    """p50/p95/p99 (linear interpolation, numpy's default) plus n and mean; empty input gives n=0 only."""
    if not samples_ms:
        return {"n": 0}
    arr = np.asarray(samples_ms, dtype=float)
    out = {f"p{q}": round(float(np.percentile(arr, q)), 4) for q in qs}
    out["mean"] = round(float(arr.mean()), 4)
    out["n"] = int(arr.size)
    return out
