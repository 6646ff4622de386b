"""Pattern tools of seed 000 §5.2: load, list and scan pattern sets."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from bench.backends.capabilities import Capability as C
from bench.steps.registry import Outcome, step


class Load(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pattern_set_id: str
    patterns: list[str]
    description: str = ""
    tags: list[str] | None = None


class NoArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Scan(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pattern_set_id: str
    target_key: int


class ScanMemories(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pattern_set_id: str
    task: str | None = None
    context: list[str] | None = None


@step("pattern_load", args=Load, requires=(C.PATTERNS,), op="write")
def pattern_load(ctx, a: Load) -> Outcome:
    return Outcome(value=ctx.backend.pattern_load(a.pattern_set_id, a.patterns, a.description, a.tags))


@step("pattern_list", args=NoArgs, requires=(C.PATTERNS,), op="read")
def pattern_list(ctx, a: NoArgs) -> Outcome:
    sets = ctx.backend.pattern_list()
    return Outcome(ranked=[s["id"] for s in sets], value=sets)


@step("pattern_scan", args=Scan, requires=(C.PATTERNS,), op="query")
def pattern_scan(ctx, a: Scan) -> Outcome:
    return Outcome(value=ctx.backend.pattern_scan(a.pattern_set_id, a.target_key))


@step("pattern_scan_memories", args=ScanMemories, requires=(C.PATTERNS,), op="query")
def pattern_scan_memories(ctx, a: ScanMemories) -> Outcome:
    return Outcome(value=ctx.backend.pattern_scan_memories(a.pattern_set_id, a.task, a.context))
