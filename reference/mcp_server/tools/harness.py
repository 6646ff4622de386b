"""Private `_harness_*` tools: drive a replay through the protocol. Only with `--clock logical:...`.

A replay must record the scenario's times and session ids, exactly as the
in-process backend does: `_harness_set_clock` moves the logical clock before a
step that follows a clock directive, `_harness_set_context` carries the
session directive. Not registered on a wall-clock server, so an agent never
sees them.
"""
from __future__ import annotations

from typing import Any

from reference.mcp_server.context import ServerContext
from reference.mcp_server.registry import ToolRegistry, argument


def available(ctx: ServerContext) -> bool:
    return ctx.clock.logical


def register(server: ToolRegistry, ctx: ServerContext) -> None:
    @server.tool(name="_harness_set_clock")
    def set_clock(time: float) -> float:
        """Harness only: set the logical clock to Unix time `time` (never backwards); returns it."""
        with argument("time"):
            return ctx.clock.set(time)

    @server.tool(name="_harness_advance_clock")
    def advance_clock(seconds: float) -> float:
        """Harness only: move the logical clock forward by `seconds`; returns the new time."""
        with argument("seconds"):
            return ctx.clock.advance(seconds)

    @server.tool(name="_harness_set_context")
    def set_context(scope: str | None = None, run_id: str | None = None, task_id: str | None = None,
                    session_id: str | None = None) -> dict[str, Any]:
        """Harness only: the session ids stamped on telemetry and seen by session-aware rankers."""
        ctx.set_context(scope, run_id, task_id, session_id)
        return dict(ctx.session)

    @server.tool(name="_harness_checkpoint")
    def checkpoint() -> bool:
        """Harness only: fold the SQLite write-ahead log into tracker.db (before measuring bytes at rest)."""
        ctx.store.tracker.checkpoint()
        return True

    @server.tool(name="_harness_stats")
    def stats() -> dict[str, Any]:
        """Harness only: the store's row counts, vector counts and file sizes."""
        return ctx.store.stats()
