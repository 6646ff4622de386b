"""PatternOps of `reference-mcp`: the seed 000 §5.2 pattern tools over MCP, values as bench.backends.ops.patterns."""
from __future__ import annotations

from typing import Any

from bench.backends.ops.patterns import PatternOps


class McpPatternPart(PatternOps):
    """Mixin of `ReferenceMcpBackend`; `self.call(tool, **args)` is one MCP tool call."""

    call: Any

    def pattern_load(self, pattern_set_id, patterns, description="", tags=None) -> dict[str, Any]:
        return self.call("pattern_load", pattern_set_id=pattern_set_id, patterns=patterns, description=description,
                         **({} if tags is None else {"tags": tags}))

    def pattern_list(self) -> list[dict[str, Any]]:
        return self.call("pattern_list")

    def pattern_scan(self, pattern_set_id, target_key) -> list[list[int]]:
        matches = self.call("pattern_scan", pattern_set_id=pattern_set_id, target_key=target_key)
        return [[m["pattern_index"], m["start"], m["end"]] for m in matches]

    def pattern_scan_memories(self, pattern_set_id, task=None, context=None) -> dict[str, list[str]]:
        args = {k: v for k, v in (("task", task), ("context", context)) if v is not None}
        found = self.call("pattern_scan_memories", pattern_set_id=pattern_set_id, **args)
        return {f["id"]: sorted({str(m["pattern_index"]) for m in f["matches"]}, key=int) for f in found}
