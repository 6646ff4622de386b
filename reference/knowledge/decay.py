"""Relevance decay (seed 001 §4 `calculateRelevance`), a memory's importance and the hot/warm/cold layer rules.

    days   = (now - last_accessed) / 86400          # now from the injected clock
    decay  = exp(-days / 30)
    boost  = ln(access_count + 1) / 10
    relevance = min(1.0, decay * importance + boost)

A memory never retrieved uses its recorded date as `last_accessed`.

Layers (the seed names them, its code gives no rule; these are ours):
- hot:  access_count >= 3 and relevance >= 0.8 (in use: e.g. three recalls
  keep a memory hot for about 12 days without another recall);
- warm: relevance >= 0.3 (a new memory is warm; untouched, it cools after
  about 36 days);
- cold: everything else.
A change to a higher layer stamps `promoted_at`, to a lower one `demoted_at`.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

DAY = 86_400.0
HALF_LIFE_DAYS = 30.0
HOT_MIN_ACCESSES = 3
HOT_MIN_RELEVANCE = 0.8
WARM_MIN_RELEVANCE = 0.3
_RANK = {"cold": 0, "warm": 1, "hot": 2}


def calculate_relevance(last_accessed: float, access_count: int, now: float, importance: float = 1.0) -> float:
    """Seed 001 §4, with `now` from the injected clock instead of Date.now()."""
    days_since = (now - last_accessed) / DAY
    decay = math.exp(-days_since / HALF_LIFE_DAYS)
    access_boost = math.log(access_count + 1) / 10
    return min(1.0, decay * importance + access_boost)


def importance_of(metadata: Mapping[str, Any]) -> float:
    """A memory's importance: its metadata's `importance` if a positive finite number, else 1.0."""
    value = metadata.get("importance", 1.0) if metadata else 1.0
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0
    return float(value) if ok else 1.0


def layer_for(access_count: int, relevance: float) -> str:
    if access_count >= HOT_MIN_ACCESSES and relevance >= HOT_MIN_RELEVANCE:
        return "hot"
    if relevance >= WARM_MIN_RELEVANCE:
        return "warm"
    return "cold"


def direction(old: str, new: str) -> int:
    """+1 promotion, -1 demotion, 0 unchanged."""
    return (_RANK[new] > _RANK[old]) - (_RANK[new] < _RANK[old])
