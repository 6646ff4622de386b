"""Query-aware type boosting (seed 004 §4.4): intent keywords in the query boost memory types by 15%.

The seed's three rules, each keyword with its plain inflections:
- "mistake", "wrong", "error"  -> correction, gap
- "decided", "chose", "choice" -> decision
- "pattern", "usually", "habit" -> pattern_seed
Words match whole, case-insensitively. A type is boosted once however many of
its keywords appear (the factor is 1.15, never 1.15²).
"""
from __future__ import annotations

import re

from reference.lane.taxonomy import MemoryType

INTENT_BOOST = 1.15

INTENT_RULES: tuple[tuple[frozenset[str], frozenset[MemoryType]], ...] = (
    (frozenset({"mistake", "mistakes", "mistaken", "wrong", "wrongly", "error", "errors"}),
     frozenset({MemoryType.CORRECTION, MemoryType.GAP})),
    (frozenset({"decided", "decide", "decision", "decisions", "chose", "chosen", "choose", "choice", "choices"}),
     frozenset({MemoryType.DECISION})),
    (frozenset({"pattern", "patterns", "usually", "habit", "habits", "habitually"}),
     frozenset({MemoryType.PATTERN_SEED})),
)

_WORD = re.compile(r"[a-z]+")


def detect_intents(query: str | None) -> frozenset[MemoryType]:
    """The memory types the query's intent keywords boost (empty when none appear)."""
    words = set(_WORD.findall((query or "").lower()))
    out: set[MemoryType] = set()
    for keywords, types in INTENT_RULES:
        if words & keywords:
            out |= types
    return frozenset(out)


def intent_boost(memory_type: MemoryType, boosted: frozenset[MemoryType]) -> float:
    """1.15 for a boosted type, else 1.0."""
    return INTENT_BOOST if memory_type in boosted else 1.0
