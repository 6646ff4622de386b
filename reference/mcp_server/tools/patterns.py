"""Pattern tools of seed 000 §5.2: pattern_load, pattern_scan, pattern_scan_memories, pattern_list.

Choices where the seed is silent (README):
- `pattern_load` also takes the definition's optional `names` and `flags`; the
  built-in sets (`pat:secrets` drives redaction) cannot be replaced through it.
  Loaded sets are saved under `<data>/pattern_sets/` and shared by every server
  on the folder (`PatternSetFolder`).
- `pattern_scan` takes the seed's `target_key` (u64 key hash) or, as an
  extension, `target` (the canonical key string; JSON clients that keep
  numbers as doubles cannot carry a u64 exactly). Files, symbols and chunks are
  scanned on their blob slice (source text); memories on their text, not on
  their JSON blob record, whose escaping hides quotes from patterns
  (`password = "x"` is stored as `password = \\"x\\"`). Offsets are byte offsets
  into what was scanned.
"""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from reference.errors import NotFound
from reference.keys import parse_key
from reference.mcp_server.context import ServerContext
from reference.mcp_server.registry import ArgumentError, ToolRegistry, argument
from reference.mcp_server.routing import routing
from reference.mcp_server.tools import key_hash, results
from reference.patterns import PatternMatch
from reference.patterns.compiled_set import ScanBudget
from reference.patterns.pattern_set_manager import BUILTIN_DIR

SetId = Annotated[str, Field(description='Pattern set id, e.g. "pat:security-smells" (see pattern_list)')]
Task = Annotated[str | None, Field(description='Only memories of this task type, e.g. "task:debug"')]
Contexts = Annotated[list[str] | None, Field(description='Only memories with all these context types')]


def match_dict(m: PatternMatch, data: bytes) -> dict[str, Any]:
    out = m.to_dict()
    out["text"] = data[m.start:m.end].decode("utf-8", "replace")
    return out


def builtin_ids() -> set[str]:
    from reference.patterns import read_definition_file

    return {read_definition_file(p)["id"] for p in sorted(BUILTIN_DIR.glob("*.json"))}


def register(server: ToolRegistry, ctx: ServerContext) -> None:
    protected = builtin_ids()

    def scannable(key_hash: int) -> tuple[str, bytes]:
        """(canonical key, bytes to scan) of an indexed file, symbol, chunk or memory."""
        try:
            return ctx.store.scan_content(key_hash)
        except NotFound:
            raise ArgumentError("target_key", f"no indexed content has key hash {key_hash}") from None

    @server.tool(routing=routing("pattern_load"))
    def pattern_load(
        pattern_set_id: Annotated[str, Field(description='Unique identifier, e.g. "pat:security"')],
        patterns: Annotated[list[str], Field(description="Regex patterns (Python re syntax without "
                                                         "look-around or back-references)")],
        description: Annotated[str, Field(description="Human-readable description")] = "",
        tags: Annotated[list[str] | None, Field(description="Classification tags")] = None,
        names: Annotated[list[str] | None, Field(description="Extension: a short name per pattern")] = None,
        flags: Annotated[list[str] | None, Field(
            description='Extension: any of "caseless", "dotall", "multiline" for every pattern')] = None,
    ) -> dict[str, Any]:
        """Load and compile a pattern set for scanning.

        Compiles regex patterns into a Hyperscan database for high-performance scanning
        of indexed content; replaces a set with the same id. Returns the set's metadata
        with its pattern count."""
        if pattern_set_id in protected:
            raise ArgumentError("pattern_set_id", f"{pattern_set_id!r} is a built-in set and cannot be replaced")
        definition: dict[str, Any] = {"id": pattern_set_id, "description": description, "patterns": patterns,
                                      "tags": tags or []}
        if names is not None:
            definition["names"] = names
        if flags is not None:
            definition["flags"] = flags
        return ctx.pattern_sets.save(definition).info()

    @server.tool(routing=routing("pattern_scan"))
    def pattern_scan(
        pattern_set_id: SetId,
        target_key: Annotated[int | str | None, Field(
            description="Key hash (u64, number or decimal string) of content to scan")] = None,
        target: Annotated[str | None, Field(
            description='Extension: the canonical key instead, e.g. "file:src/a.py" or "mem:a1b2c3d4"')] = None,
    ) -> list[dict[str, Any]]:
        """Scan indexed content against a pattern set.

        Retrieves content by key hash and scans it against the compiled pattern set.
        Returns the matches with byte offsets (start, end exclusive), pattern and text."""
        if (target_key is None) == (target is None):
            raise ArgumentError("target_key", "give exactly one of target_key (key hash) and target (key)")
        if target is not None:
            with argument("target"):
                parse_key(target)
            target_key = ctx.store.tracker.hash_fn(target)
        target_key = key_hash.parse(target_key, "target_key")
        ctx.pattern_sets.sync()
        ctx.patterns.get(pattern_set_id)
        key, data = scannable(target_key)
        return [match_dict(m, data) for m in ctx.patterns.scan(pattern_set_id, data, target=key,
                                                                budget=ScanBudget(pattern_set_id))]

    @server.tool(routing=routing("pattern_scan_memories"))
    def pattern_scan_memories(pattern_set_id: SetId, task: Task = None, context: Contexts = None
                              ) -> list[dict[str, Any]]:
        """Scan memories matching filters against a pattern set.

        Returns each memory that matches (oldest first) with its pattern matches."""
        ctx.pattern_sets.sync()
        ctx.patterns.get(pattern_set_id)
        entries = {e.id: e for e in ctx.store.iter_memories(task=task, context=context)}
        items = [(mid, e.text.encode("utf-8")) for mid, e in entries.items()]
        data = dict(items)
        return [{**results.memory(entries[mid]), "matches": [match_dict(m, data[mid]) for m in matches]}
                for mid, matches in ctx.patterns.scan_many(pattern_set_id, items, budget=ScanBudget(pattern_set_id))]

    @server.tool(routing=routing("pattern_list"))
    def pattern_list() -> list[dict[str, Any]]:
        """List all loaded pattern sets (built-in and loaded by any agent on this store)."""
        ctx.pattern_sets.sync()
        return ctx.patterns.list()
