"""A plain-Python model of Memory Lane ranking, written from the seed 004 text and reference/lane/README.md.

Cosines come from the embedder directly (not from the store's vector cache);
weights, intent words and feedback factors are copied from the documentation.
"""
from __future__ import annotations

import re

import numpy as np

WEIGHTS = {"correction": 1.0, "decision": 0.95, "commitment": 0.9, "insight": 0.75, "learning": 0.7,
           "confidence": 0.65, "pattern_seed": 0.55, "cross_agent": 0.5, "workflow_note": 0.45, "gap": 0.4}
INTENTS = [({"mistake", "wrong", "error"}, {"correction", "gap"}), ({"decided", "chose", "choice"}, {"decision"}),
           ({"pattern", "usually", "habit"}, {"pattern_seed"})]


def factor(helpful: int, harmful: int) -> float:
    if helpful > harmful:
        return 1.10
    if harmful > helpful:
        return 0.70 if helpful else 0.50
    return 1.0


def boosted(query: str) -> set[str]:
    words = set(re.findall(r"[a-z]+", query.lower()))
    return set().union(*(types for kw, types in INTENTS if words & kw))


_CACHE: dict[tuple[str, str], np.ndarray] = {}


def _vec(embedder, text: str) -> np.ndarray:
    key = (embedder.name, text)
    if key not in _CACHE:
        _CACHE[key] = embedder.embed([text])[0].astype(np.float64)
    return _CACHE[key]


def rank(embedder, memories: list[dict], query: str, slugs: set[str] | None, floor: float | None,
         votes: dict[str, tuple[int, int]], top_k: int, exclude: set[str] = frozenset()) -> list[tuple[str, float]]:
    """memories: dicts with id, text, type, slugs. Returns (id, final score) best first, ties by id."""
    q = _vec(embedder, query)
    boost = boosted(query)
    out = []
    for m in memories:
        if slugs and not (set(m["slugs"]) & slugs) or m["id"] in exclude:
            continue
        cos = float(_vec(embedder, m["text"]) @ q)
        if floor is not None and (cos < floor or cos <= 0):
            continue
        final = max(cos, 0.0) * WEIGHTS[m["type"]] * (1.15 if m["type"] in boost else 1.0) * factor(*votes.get(m["id"], (0, 0)))
        out.append((m["id"], final))
    out.sort(key=lambda x: (-x[1], x[0]))
    return out[:top_k]
