"""The Memory Lane taxonomy (seed 004 §4.1, Phase 1) and each type's priority weight.

The seed names correction, decision, commitment, pattern_seed, gap and
learning; the full list is the ten types of the Memory Lane plugin's
`taxonomy.ts` (High: correction, decision, commitment; Medium: insight,
learning, confidence; Lower: pattern_seed, cross_agent, workflow_note, gap).

Weights: the plugin's tiers (High 1.0, Medium 0.7, Lower 0.4) graded inside
each tier in the seed's order, so that no two types tie (a tie would let the
memory ids, not the taxonomy, order two equally similar memories) and so that
the gap between neighbours stays under 10%: one `helpful` vote (+10%) can lift
a decision (0.95) over an equally similar correction (1.0).
"""
from __future__ import annotations

from enum import Enum
from typing import Any

from reference.lane.errors import LaneError


class MemoryType(str, Enum):
    """A Memory Lane memory type; the value is what `metadata.memory_type` holds."""

    CORRECTION = "correction"        # the user corrected the agent's behaviour
    DECISION = "decision"            # an explicit choice
    COMMITMENT = "commitment"        # a standing preference or promise ("always", "never")
    INSIGHT = "insight"              # a non-obvious discovery
    LEARNING = "learning"            # new knowledge (default for memories without a type)
    CONFIDENCE = "confidence"        # a strong signal that something works
    PATTERN_SEED = "pattern_seed"    # a repeated behaviour, a habit in the making
    CROSS_AGENT = "cross_agent"      # relevant to other agents
    WORKFLOW_NOTE = "workflow_note"  # a process observation
    GAP = "gap"                      # a missing capability

    def __str__(self) -> str:
        return self.value


TYPE_WEIGHTS: dict[MemoryType, float] = {
    MemoryType.CORRECTION: 1.00,
    MemoryType.DECISION: 0.95,
    MemoryType.COMMITMENT: 0.90,
    MemoryType.INSIGHT: 0.75,
    MemoryType.LEARNING: 0.70,
    MemoryType.CONFIDENCE: 0.65,
    MemoryType.PATTERN_SEED: 0.55,
    MemoryType.CROSS_AGENT: 0.50,
    MemoryType.WORKFLOW_NOTE: 0.45,
    MemoryType.GAP: 0.40,
}

# Seed 004 Phase 2 ("tag existing memories with a generic learning type"):
# a memory without a valid lane type is read as a learning.
DEFAULT_TYPE = MemoryType.LEARNING


def parse_type(value: Any) -> MemoryType:
    """The `MemoryType` named by `value`; `LaneError` listing the types otherwise."""
    if isinstance(value, MemoryType):
        return value
    try:
        return MemoryType(value)
    except ValueError:
        allowed = ", ".join(t.value for t in MemoryType)
        raise LaneError(f"unknown memory type {value!r}; expected one of {allowed}") from None


def type_weight(memory_type: MemoryType) -> float:
    return TYPE_WEIGHTS[memory_type]
