"""Pattern-set operations of seed 000 §1, §4.4 and §5.2, in plain values.

A match is `[pattern_index, start, end]` (byte offsets in the scanned content,
end exclusive); `pattern_scan_memories` gives `{memory_id: [pattern_index as
str, ...]}` for the memories with at least one match.
"""
from __future__ import annotations

from typing import Any


class PatternOps:
    """Capability PATTERNS."""

    def pattern_load(self, pattern_set_id: str, patterns: list[str], description: str = "",
                     tags: list[str] | None = None) -> dict[str, Any]:
        raise NotImplementedError

    def pattern_list(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def pattern_scan(self, pattern_set_id: str, target_key: int) -> list[list[int]]:
        raise NotImplementedError

    def pattern_scan_memories(self, pattern_set_id: str, task: str | None = None,
                              context: list[str] | None = None) -> dict[str, list[str]]:
        raise NotImplementedError
