"""Consecutive memory writes replayed as one batch, graded step by step.

A run is consecutive `memory_write_structured` steps with the clock directives between
them (`set_clock`, `advance_clock`: a history sets the clock before every commit), at
most `MAX_RUN` steps and at least two writes. It goes to the backend's
`write_memories(records, times=...)` in one call, each record at the time the
directives before it set; the reference backend's `MemoryStore.write_memories` (one
transaction, one embedding batch, the knowledge layer's batch ingest) stores what the
same steps one by one would. A run ends before any other step, a directive with checks
or an alias, a `set_clock` that would move the clock back, a step whose arguments do
not validate, or one naming (`$alias`) an alias bound inside the run: those run alone.

Every step of the run is then bound, counted by the census, graded, reported and sent
to telemetry on its own, with the outcome and clock time the single step gives. A
write's latency is the batch's wall time divided by its writes (the time of one write
inside a batch cannot be measured; the share is what it cost); a directive's is 0
(directives are in no latency figure).

A backend batches only if the class defining its `write_memory` also defines
`write_memories` (a subclass changing single writes, like a planted fault, does not).
If the batch call raises, no row of it was stored and its steps are replayed one by
one, so each failure is graded on its own step (only an error after validation, inside
the transaction, can leave the clock ahead of the directives then replayed).
`CODEMEM_BENCH_BATCH_WRITES=0` turns batching off.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from bench.steps import STEPS
from bench.steps.registry import Outcome

BATCH_STEP = "memory_write_structured"
CLOCK_STEPS = ("set_clock", "advance_clock")
MAX_RUN = 1000
ENV = "CODEMEM_BENCH_BATCH_WRITES"


class Run(NamedTuple):
    """A batchable run: its steps' validated arguments and the clock time each step runs at."""

    args: list[Any]
    times: list[float]

    def __len__(self) -> int:
        return len(self.args)


def write_run(ctx: Any, steps: list, start: int) -> Run:
    """The batchable run from `steps[start]` on (empty unless it holds two writes or more)."""
    empty = Run([], [])
    if os.environ.get(ENV, "1") == "0" or not _batches(type(ctx.backend)):
        return empty
    if any(not ctx.backend.supports(c) for c in STEPS[BATCH_STEP].requires):
        return empty
    args: list[Any] = []
    times: list[float] = []
    bound: set[str] = set()
    t = ctx.clock.now()
    for step in steps[start: start + MAX_RUN]:
        if step.name not in (BATCH_STEP, *CLOCK_STEPS):
            break
        raw = step.args.model_dump(by_alias=True)
        if step.name in CLOCK_STEPS and (step.expect is not None or step.alias):
            break
        if _aliases(raw) & bound:
            break
        try:
            a = STEPS[step.name].args_model.model_validate(ctx.resolve(raw))
        except Exception:  # noqa: BLE001 - graded when the step runs alone
            break
        if step.name == "set_clock":
            if a.time < t:
                break  # the clock refuses to go back: that step runs (and fails) alone
            t = a.time
        elif step.name == "advance_clock":
            t += a.seconds
        args.append(a)
        times.append(t)
        if step.alias:
            bound.add(step.alias)
    while args and not isinstance(args[-1], STEPS[BATCH_STEP].args_model):
        args.pop()
        times.pop()
    writes = sum(isinstance(a, STEPS[BATCH_STEP].args_model) for a in args)
    return Run(args, times) if writes > 1 else empty


def run_writes(ctx: Any, scenario: Any, steps: list, run: Run, sink: Any, result: Any,
               run_step: Callable[..., None], finish: Callable[..., None]) -> None:
    """Write the run's memories in one batch at their times; grade each step with `finish`."""
    model = STEPS[BATCH_STEP].args_model
    writes = [(a, t) for a, t in zip(run.args, run.times) if isinstance(a, model)]
    t0 = time.perf_counter()
    try:
        ids = ctx.backend.write_memories([a.model_dump() for a, _ in writes], times=[t for _, t in writes])
    except Exception:  # noqa: BLE001 - nothing was stored: each step runs and is graded alone
        for step in steps:
            run_step(ctx, scenario, step, sink, result)
        return
    share = (time.perf_counter() - t0) * 1000 / len(writes)
    it = iter(ids)
    for step, a, t in zip(steps, run.args, run.times):
        if isinstance(a, model):
            mid = next(it)
            finish(ctx, scenario, step, sink, result, a, Outcome(created_id=mid, value=mid), share, t)
        else:  # a clock directive: its outcome is the time it set (directives are in no latency figure)
            finish(ctx, scenario, step, sink, result, a, Outcome(value=t), 0.0, t)


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
