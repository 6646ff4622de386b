"""`mcp:NAME`: the backend interface over any MCP server, as its adapter file maps it.

`open` starts the server from the adapter's `[server]` table (a real stdio MCP client session) and records
what the agent pays for it: start-up time to the first answered call and the size of the `tools/list`
answer. Each mapped operation (`operations.py`: memory, code, graph, policy, snapshot, patterns, knowledge,
Memory Lane, project) is one `tools/call`; the answer is read with the adapter's JMESPath expressions into
the typed value the interface method returns. Search hits keep the server's order (that order is graded).
`reference-mcp` (reference_server.py) is `mcp:reference` under its own name.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import sys
import time
from pathlib import Path
from typing import Any

from mcp.client.stdio import StdioServerParameters

from reference.clock import Clock
from reference.telemetry import TelemetrySink

from bench.backends.interface import Backend
from bench.backends.mcp.answer_reader import NOT_FOUND, AnswerReader
from bench.backends.mcp.adapter import Adapter, adapter_names, load_adapter
from bench.backends.mcp.client_thread import McpClientThread
from bench.backends.mcp.operations import EXTRA, OPERATIONS, labels
from bench.backends.mcp.peers import make_links, peer_dir, require_installed
from reference.embed.minilm_files import models_root
from bench.backends.mcp.results import McpToolError, unwrap
from bench.backends.mcp.telemetry_relay import TelemetryRelay
from bench.backends.mcp.template import fill
from bench.backends.ops.graph import GraphOps, PolicyOps, SnapshotOps
from bench.backends.ops.knowledge import KnowledgeOps
from bench.backends.ops.lane import LaneOps
from bench.backends.ops.patterns import PatternOps
from bench.backends.ops.project import ProjectOps



def _dir_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def _plain(value: Any) -> Any:
    """A call's argument as JSON: a path becomes its absolute path, a tuple a list."""
    if isinstance(value, Path):
        return str(value.resolve())
    return list(value) if isinstance(value, tuple) else value


class McpBackend(AnswerReader, GraphOps, PolicyOps, SnapshotOps, PatternOps, KnowledgeOps, LaneOps, ProjectOps, Backend):
    """Any MCP server described by an adapter file; capabilities are the adapter's."""

    name = "mcp"
    options = tuple(adapter_names())

    def __init__(self, option: str | None = None) -> None:
        if not option:
            raise ValueError(f"backend 'mcp' needs an adapter: mcp:NAME (adapters: {', '.join(adapter_names())})")
        self.option = option
        self.adapter: Adapter = load_adapter(option)
        self.capabilities = frozenset(self.adapter.capabilities)
        self.nondeterministic = self.adapter.nondeterministic
        require_installed(self.adapter)
        self.surface: dict[str, Any] = {}
        self._seq = 0
        self._values: dict[str, Any] = {}

    @classmethod
    def variants(cls) -> dict[str, frozenset]:
        """Capabilities of each adapter, without starting or requiring its server (for listings)."""
        return {f"mcp:{n}": frozenset(load_adapter(n).capabilities) for n in adapter_names()}

    # lifecycle -------------------------------------------------------------------
    def open(self, data_dir: Path, clock: Clock, telemetry: TelemetrySink) -> None:
        self.data_dir, self.clock = Path(data_dir), clock
        self.data_dir.mkdir(parents=True, exist_ok=True)
        side = self.data_dir.parent / f"{self.data_dir.name}.mcp"   # logs and HOME: not counted as storage
        side.mkdir(parents=True, exist_ok=True)
        server = self.adapter.server
        values = {"peer": str(peer_dir(self.adapter)), "python": sys.executable, "data": str(self.data_dir),
                  "side": str(side), "now": repr(clock.now()), "models": str(models_root())}
        make_links(server.links, values)
        params = StdioServerParameters(command=fill(server.command, values),
                                       args=[fill(a, values) for a in server.args],
                                       env={k: fill(v, values) for k, v in server.env.items()} or None)
        self.relay = None
        if self.adapter.telemetry:
            tel_path = Path(fill(self.adapter.telemetry, values))
            tel_path.unlink(missing_ok=True)
            self.relay = TelemetryRelay(tel_path, telemetry)
        # a server started on the scenario's clock ({now} in its command) needs no clock call before the first
        started_on_clock = "{now}" in " ".join([server.command, *server.args, *server.env.values()])
        self._server_time = clock.now() if started_on_clock else None
        self._log = (side / "server.log").open("a", encoding="utf-8")
        t0 = time.perf_counter()
        try:
            self.client = McpClientThread(params, errlog=self._log, call_timeout=server.call_timeout_s)
            tools = self.client.list_tools()
        except BaseException:
            self._log.close()
            raise
        listing = json.dumps([t.model_dump(mode="json", exclude_none=True) for t in tools])
        self.surface = {"startup_ms": (time.perf_counter() - t0) * 1000, "tools": len(tools),
                        "tools_list_chars": len(listing), "tools_list_tokens": len(listing) // 4}

    def close(self) -> None:
        try:
            self.client.close()
            if self.relay is not None:
                self.relay.forward()
        finally:
            self._log.close()

    def storage_bytes(self) -> int:
        return _dir_bytes(self.data_dir)

    # calls ---------------------------------------------------------------------------
    def _operation(self, op: str, values: dict[str, Any]) -> Any:
        """Run operation `op` with the method's arguments: one tool call, its answer read into the typed result."""
        spec = self.adapter.ops.get(op)
        if spec is None:
            if op == "set_context":
                return None   # a server without sessions: the interface's default does nothing
            raise NotImplementedError(f"{self.adapter.source}: no [ops.{op}]")
        if op == "write_memory":
            self._seq += 1
            digest = hashlib.blake2b(f"{self.clock.now()!r}|{self._seq}|{values['text']}".encode(),
                                     digest_size=8).hexdigest()
            values = {**values, "uid": f"m-{digest}"}
        if "labels" in EXTRA.get(op, ()):
            values = {**values, "labels": labels(values)}
        if "memory_id" in values and op in ("get_memory", "delete_memory"):
            values = {**values, "id": values["memory_id"]}
        values = {k: _plain(v) for k, v in values.items()}
        answer = self._call(op, spec, values)
        return self._read(op, spec, answer, values)

    def _call(self, op: str, spec: Any, values: dict[str, Any]) -> Any:
        """Call the tool mapped to `op` with the filled arguments; the answer as JSON (or NOT_FOUND)."""
        self._sync_clock()
        self._values = values   # what `arg(name)` reads in this operation's expressions
        try:
            result = self.client.call(spec.tool, fill(spec.args, values))
        finally:
            if self.relay is not None:
                self.relay.forward()
        try:
            return unwrap(result, spec.tool)
        except McpToolError as exc:
            if spec.not_found and spec.not_found in str(exc):
                return NOT_FOUND
            raise

    def _sync_clock(self) -> None:
        clock = self.adapter.clock
        if clock is not None and self.clock.now() != self._server_time:
            result = self.client.call(clock.tool, {clock.arg: self.clock.now()})
            if self.relay is not None:
                self.relay.forward()
            unwrap(result, clock.tool)
            self._server_time = self.clock.now()


def _method(op: str):
    """The interface method `op` of McpBackend: its arguments bound by the base signature, then `_operation`."""
    base = OPERATIONS[op].method
    signature = inspect.signature(base)

    def method(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        return self._operation(op, {k: v for k, v in bound.arguments.items() if k != "self"})

    method.__name__ = method.__qualname__ = op
    method.__doc__, method.__signature__ = base.__doc__, signature
    return method


for _op in OPERATIONS:
    setattr(McpBackend, _op, _method(_op))

