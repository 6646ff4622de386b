"""Deterministic memory typing: the rule-based stand-in for the seed's "Memory Extraction Agent".

`classify(text)` returns the first type whose cue phrase the text contains,
trying the types in this order (behaviour-guiding types first, as the seed
ranks them): correction, decision, commitment, gap, insight, pattern_seed,
confidence, cross_agent, workflow_note; a text with no cue is a `learning`.
Cues are whole words or phrases, case-insensitive; the lists follow the Memory
Lane plugin's extraction table ("always/never" -> commitment, "missing" ->
gap, "unexpected" -> insight, ...).
"""
from __future__ import annotations

import re

from reference.lane.taxonomy import DEFAULT_TYPE, MemoryType

CUES: tuple[tuple[MemoryType, tuple[str, ...]], ...] = (
    (MemoryType.CORRECTION, ("wrong", "mistake", "mistaken", "incorrect", "instead", "correction", "should have",
                             "should not have", "shouldn't have")),
    (MemoryType.DECISION, ("decided", "decide", "decision", "chose", "chosen", "went with", "settled on", "picked")),
    (MemoryType.COMMITMENT, ("always", "never", "prefer", "prefers", "from now on", "must")),
    (MemoryType.GAP, ("missing", "lacking", "lacks", "no support", "not supported", "unsupported")),
    (MemoryType.INSIGHT, ("unexpected", "unexpectedly", "discovered", "turns out", "surprisingly", "found that")),
    (MemoryType.PATTERN_SEED, ("usually", "habit", "every time", "tends to", "pattern")),
    (MemoryType.CONFIDENCE, ("works well", "confirmed", "verified", "reliable", "reliably")),
    (MemoryType.CROSS_AGENT, ("other agents", "all agents", "every agent", "handoff", "hand off")),
    (MemoryType.WORKFLOW_NOTE, ("workflow", "process", "checklist", "before committing")),
)

_PATTERNS = tuple((t, re.compile(r"\b(?:" + "|".join(re.escape(c) for c in cues) + r")\b", re.IGNORECASE))
                  for t, cues in CUES)


def classify(text: str) -> MemoryType:
    """The memory type the text's cue phrases imply (see the module rules)."""
    for mtype, pattern in _PATTERNS:
        if pattern.search(text):
            return mtype
    return DEFAULT_TYPE
