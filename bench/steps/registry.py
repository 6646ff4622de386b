"""The table of scenario steps: every tool and directive a scenario may name.

Each area of the harness registers its steps with `@step(...)` in a module of
its own (`bench/steps/memory.py`, ...); `bench/steps/__init__.py` imports them
all. A step declares the capabilities it needs, the pydantic model of its
arguments, and the telemetry operation it counts as.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

from bench.backends.capabilities import Capability


@dataclass
class Outcome:
    """What a step returned, in the harness's terms.

    created_id: the id of what the step created (bound to the step's alias).
    ranked: result ids in rank order (for ranking metrics and id checks).
    value: the step's value for `found`, `fields` and `equals` checks.
    """

    created_id: str | None = None
    ranked: list[str] | None = None
    value: Any = None
    scores: list[float] = field(default_factory=list)


StepFn = Callable[[Any, Any], Outcome]


@dataclass(frozen=True)
class StepSpec:
    """A registered tool or directive."""

    name: str
    kind: Literal["tool", "directive"]
    args_model: type[BaseModel]
    run: StepFn
    requires: tuple[Capability, ...] = ()
    op: str = "query"  # telemetry operation: read, write, overwrite, delete, query


STEPS: dict[str, StepSpec] = {}


def step(name: str, *, args: type[BaseModel], requires: tuple[Capability, ...] = (),
         op: str = "query", kind: Literal["tool", "directive"] = "tool") -> Callable[[StepFn], StepFn]:
    """Register the decorated function as the handler of step `name`."""

    def deco(fn: StepFn) -> StepFn:
        if name in STEPS:
            raise ValueError(f"step {name!r} is registered twice")
        STEPS[name] = StepSpec(name=name, kind=kind, args_model=args, run=fn, requires=requires, op=op)
        return fn

    return deco


def known_steps(kind: str | None = None) -> list[str]:
    return sorted(n for n, s in STEPS.items() if kind is None or s.kind == kind)
