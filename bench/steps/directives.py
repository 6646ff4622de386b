"""Harness directives: move the logical clock and start a session, run or task."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from bench.steps.registry import Outcome, step


class AdvanceClock(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seconds: float = Field(ge=0)


class SetClock(BaseModel):
    model_config = ConfigDict(extra="forbid")
    time: float


class Session(BaseModel):
    model_config = ConfigDict(extra="forbid")
    session_id: str | None = None
    run_id: str | None = None
    task_id: str | None = None
    scope: str | None = None


@step("advance_clock", args=AdvanceClock, kind="directive")
def advance_clock(ctx, args: AdvanceClock) -> Outcome:
    """Move the scenario's clock forward by `seconds`."""
    return Outcome(value=ctx.clock.advance(args.seconds))


@step("set_clock", args=SetClock, kind="directive")
def set_clock(ctx, args: SetClock) -> Outcome:
    """Set the clock to Unix time `time` (never backwards)."""
    return Outcome(value=ctx.clock.set(args.time))


@step("session", args=Session, kind="directive")
def session(ctx, args: Session) -> Outcome:
    """Start a session, run or task: later steps and telemetry carry these ids."""
    ctx.session.update(args.model_dump())
    ctx.backend.set_context(args.scope, args.run_id, args.task_id, args.session_id)
    return Outcome(value=dict(ctx.session))
