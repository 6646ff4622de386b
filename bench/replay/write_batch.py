"""Consecutive memory writes replayed as one batch, graded step by step.

A run of consecutive `memory_write_structured` steps (at most `MAX_RUN`) goes to the
backend's `write_memories(records)` in one call when the backend has one (the reference
backend: `MemoryStore.write_memories`, one transaction, the knowledge layer's batch
ingest), which stores what the same writes one by one would. A run ends before a step
that is not such a write, whose arguments do not validate, or that names (`$alias`) an
alias a step of the run binds: those run alone, as before. Every step of the run is then
bound, counted by the census, graded and reported on its own, with the outcome the
single write gives. Its latency is the batch's wall time divided by the number of steps
in it (a per-step time of a batched write is not measurable; the share is what it cost).
A backend batches only if the class defining its `write_memory` also defines
`write_memories`. If the batch call raises, nothing of it was stored (the batch is atomic) and its steps
are replayed one by one, so each failure is graded on its own step.
`CODEMEM_BENCH_BATCH_WRITES=0` turns batching off.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from bench.steps import STEPS
from bench.steps.registry import Outcome

BATCH_STEP = "memory_write_structured"
MAX_RUN = 1000
ENV = "CODEMEM_BENCH_BATCH_WRITES"


def write_run(ctx: Any, steps: list, start: int) -> list[Any]:
    """Validated arguments of the batchable writes from `steps[start]` on (empty if none)."""
    if os.environ.get(ENV, "1") == "0" or not _batches(type(ctx.backend)):
        return []
    spec = STEPS[BATCH_STEP]
    if any(not ctx.backend.supports(c) for c in spec.requires):
        return []
    out: list[Any] = []
    bound: set[str] = set()
    for step in steps[start: start + MAX_RUN]:
        if step.name != BATCH_STEP:
            break
        raw = step.args.model_dump(by_alias=True)
        if _aliases(raw) & bound:
            break
        try:
            out.append(spec.args_model.model_validate(ctx.resolve(raw)))
        except Exception:  # noqa: BLE001 - graded when the step runs alone
            break
        if step.alias:
            bound.add(step.alias)
    return out


def run_writes(ctx: Any, scenario: Any, steps: list, args: list[Any], sink: Any, result: Any,
               run_step: Callable[..., None], finish: Callable[..., None]) -> None:
    """Write `steps` (with their validated `args`) in one batch; grade each with `finish`."""
    t0 = time.perf_counter()
    try:
        ids = ctx.backend.write_memories([a.model_dump() for a in args])
    except Exception:  # noqa: BLE001 - nothing was stored: each step runs and is graded alone
        for step in steps:
            run_step(ctx, scenario, step, sink, result)
        return
    share = (time.perf_counter() - t0) * 1000 / len(steps)
    for step, a, mid in zip(steps, args, ids):
        finish(ctx, scenario, step, sink, result, a, Outcome(created_id=mid, value=mid), share)


def _batches(cls: type) -> bool:
    """Whether `cls` has a `write_memories` defined by the class that defines its `write_memory`
    (a subclass that changes single writes, e.g. a planted fault, keeps them unbatched)."""
    def owner(name: str) -> type | None:
        return next((c for c in cls.__mro__ if name in vars(c)), None)
    return owner("write_memories") is not None and owner("write_memories") is owner("write_memory")


def _aliases(value: Any) -> set[str]:
    """The `$alias` names a step's arguments refer to."""
    if isinstance(value, str):
        return {value[1:]} if value.startswith("$") and len(value) > 1 else set()
    if isinstance(value, dict):
        return set().union(*(_aliases(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_aliases(v) for v in value)) if value else set()
    return set()
