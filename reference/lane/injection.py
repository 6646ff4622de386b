"""Context injection (seed 004 Phase 6): the chosen memories rendered as a prompt block.

The block is plain, deterministic text (same memories, same bytes):

    <memory-lane>
    Memories recalled for this prompt, most important first:
    1. [correction] Never refresh tokens on the UI thread. (feature:auth; mem:1a2b3c4d)
    2. [decision] We chose Stripe webhooks over polling. (no entity; mem:9f8e7d6c)
    </memory-lane>

A memory's text is put on one line (runs of whitespace become one space) and
cut to MAX_TEXT characters with "...". When the query named an ambiguous
entity the block asks for clarification instead and injects nothing; with no
memory to inject the block is the empty string (nothing is added to the prompt).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reference.lane.resolver import Ambiguity
from reference.lane.search import LaneHit

MAX_TEXT = 300
OPEN, CLOSE = "<memory-lane>", "</memory-lane>"


@dataclass(frozen=True)
class Injection:
    """What one injection hook call added to a session's prompt."""

    session_id: str
    query: str
    memory_ids: tuple[str, ...]
    block: str
    clarification: tuple[Ambiguity, ...] = ()

    @property
    def clarification_required(self) -> bool:
        return bool(self.clarification)

    def to_dict(self) -> dict[str, Any]:
        return {"session_id": self.session_id, "query": self.query, "memory_ids": list(self.memory_ids),
                "block": self.block, "clarification_required": self.clarification_required,
                "candidates": {a.mention: list(a.candidates) for a in self.clarification}}


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_TEXT else flat[: MAX_TEXT - 3].rstrip() + "..."


def render_block(hits: Sequence[LaneHit], clarification: Sequence[Ambiguity] = ()) -> str:
    """The prompt block for these memories (or for a clarification request); "" when there is nothing."""
    if clarification:
        lines = [OPEN, "Clarification required before recalling memories:"]
        for a in clarification:
            lines.append(f'- "{a.mention}" could mean ' + " or ".join(a.candidates) + ".")
        lines += ["Ask the user which one is meant.", CLOSE]
        return "\n".join(lines) + "\n"
    if not hits:
        return ""
    lines = [OPEN, "Memories recalled for this prompt, most important first:"]
    for i, h in enumerate(hits, start=1):
        where = ", ".join(h.entity_slugs) if h.entity_slugs else "no entity"
        lines.append(f"{i}. [{h.memory_type.value}] {_one_line(h.entry.text)} ({where}; {h.id})")
    lines.append(CLOSE)
    return "\n".join(lines) + "\n"
