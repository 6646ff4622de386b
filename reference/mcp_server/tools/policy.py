"""Policy memory tools over the seed 003 KV API: decisions, constraints, procedures per scope.

`policy_put` / `policy_get` / `policy_list` are the seed's `put_kv` /
`get_kv_latest` / `list_kv`; `policy_delete` (extension) retracts an entry.
History is kept: reads take `at` like the graph tools.
"""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from reference.mcp_server.context import ServerContext
from reference.mcp_server.limits import check_write_ts
from reference.mcp_server.registry import ToolRegistry
from reference.mcp_server.routing import routing
from reference.mcp_server.tools.at_arg import AtArg, parse_at
from reference.mcp_server.tools.graph import Payload, RunId, TaskId, Ts

Scope = Annotated[str, Field(description='Where it applies, e.g. "repo", "file:src/auth.py", "team"')]
Namespace = Annotated[str, Field(description='Kind of entry, e.g. "decision", "constraint", "procedure"')]
Key = Annotated[str, Field(description='Entry name, e.g. "error-handling" or "test-command"')]


def register(server: ToolRegistry, ctx: ServerContext) -> None:
    @server.tool(routing=routing("policy_put"))
    def policy_put(scope: Scope, namespace: Namespace, key: Key, payload: Payload, ts: Ts = None,
                   run_id: RunId = None, task_id: TaskId = None) -> dict[str, Any]:
        """Set a decision, constraint or procedure (earlier values stay in the history). Returns its revision."""
        ts = check_write_ts("ts", ts, ctx.clock.now())
        rev = ctx.graph().put_kv(scope, namespace, key, payload, ts=ts, run_id=run_id, task_id=task_id)
        return {"scope": scope, "namespace": namespace, "key": key, "rev": rev}

    @server.tool(routing=routing("policy_get"))
    def policy_get(scope: Scope, namespace: Namespace, key: Key, at: AtArg = None) -> dict[str, Any] | None:
        """The current (or, with `at`, past) value of a policy entry; null if unset or retracted."""
        entry = ctx.graph().get_kv_latest(scope, namespace, key, at=parse_at("at", at))
        return entry.to_dict() if entry is not None else None

    @server.tool(routing=routing("policy_list"))
    def policy_list(scope: Scope, namespace: Namespace, at: AtArg = None) -> list[dict[str, Any]]:
        """Every live entry of a scope and namespace (now, or at `at`), sorted by key."""
        return [e.to_dict() for e in ctx.graph().list_kv(scope, namespace, at=parse_at("at", at))]

    @server.tool(routing=routing("policy_delete"))
    def policy_delete(scope: Scope, namespace: Namespace, key: Key, ts: Ts = None, run_id: RunId = None,
                      task_id: TaskId = None) -> dict[str, Any]:
        """Retract a policy entry (the history keeps it). Returns the revision."""
        ts = check_write_ts("ts", ts, ctx.clock.now())
        return {"rev": ctx.graph().delete_kv(scope, namespace, key, ts=ts, run_id=run_id, task_id=task_id)}
