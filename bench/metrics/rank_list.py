"""The one normalisation every metric applies to a ranked list."""
from __future__ import annotations


def dedupe(ranked: list[str]) -> list[str]:
    """Drop repeated ids, keeping the first (best-ranked) occurrence."""
    seen: set[str] = set()
    out = []
    for r in ranked:
        if r not in seen:
            seen.add(r)
            out.append(r)
    return out
