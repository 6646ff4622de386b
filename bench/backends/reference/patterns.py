"""The store's pattern sets (reference.patterns, Hyperscan) behind PatternOps.

`pattern_scan` reads what `MemoryStore.scan_content` gives: the blob slice of an
indexed file, symbol or chunk (seed 000 §1.3), or a memory's text — the seed
scans the JSON blob record, whose escaping would hide or shift matches.
`pattern_scan_memories` applies the task and context filters first (§4.4) and
scans each memory's text the same way.
"""
from __future__ import annotations

from typing import Any

from bench.backends.ops.patterns import PatternOps
from bench.backends.reference.part import ReferencePart


class PatternPart(ReferencePart, PatternOps):
    """Uses the `PatternSetManager` the store opened (built-ins loaded, cache in the data dir)."""

    def pattern_load(self, pattern_set_id, patterns, description="", tags=None) -> dict[str, Any]:
        ps = self.store.patterns.load({"id": pattern_set_id, "patterns": patterns, "description": description,
                                       "tags": tags or []})
        return ps.info()

    def pattern_list(self) -> list[dict[str, Any]]:
        return self.store.patterns.list()

    def pattern_scan(self, pattern_set_id, target_key) -> list[list[int]]:
        _, data = self.store.scan_content(target_key)
        return [[m.pattern_index, m.start, m.end] for m in self.store.patterns.scan(pattern_set_id, data)]

    def pattern_scan_memories(self, pattern_set_id, task=None, context=None) -> dict[str, list[str]]:
        items = ((e.id, e.text.encode("utf-8")) for e in self.store.iter_memories(task=task, context=context))
        return {mid: sorted({str(m.pattern_index) for m in matches}, key=int)
                for mid, matches in self.store.patterns.scan_many(pattern_set_id, items)}
