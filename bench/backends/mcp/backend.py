"""`mcp:NAME`: the backend interface over any MCP memory server, as its adapter file maps it.

`open` starts the server from the adapter's `[server]` table (a real stdio MCP client session, the same
client `reference-mcp` uses) and records what the agent pays for it: start-up time to the first answered
call and the size of the `tools/list` answer. Each mapped operation is one `tools/call`; the answer is read
with the adapter's JMESPath expressions. Search hits keep the server's order (that order is graded).
"""
from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from mcp.client.stdio import StdioServerParameters

from reference.clock import Clock
from reference.telemetry import TelemetrySink

from bench.backends.interface import Backend, Hit
from bench.backends.mcp.adapter import Adapter, adapter_names, load_adapter
from bench.backends.mcp.peers import peer_dir, require_installed
from bench.backends.mcp.results import McpToolError, pick, unwrap
from bench.backends.mcp.template import fill
from bench.backends.reference_mcp.client_thread import McpClientThread

_NOT_FOUND = object()   # the server's error said the id does not exist (the adapter's `not_found`)
_RECORD_DEFAULTS = {"task": None, "insights": [], "context": [], "tags": [], "metadata": {}, "created_at": None}


def _dir_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


class McpBackend(Backend):
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
                  "side": str(side), "now": repr(clock.now())}
        params = StdioServerParameters(command=fill(server.command, values),
                                       args=[fill(a, values) for a in server.args],
                                       env={k: fill(v, values) for k, v in server.env.items()} or None)
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
        self._server_time = None

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            self._log.close()

    def storage_bytes(self) -> int:
        return _dir_bytes(self.data_dir)

    # calls ---------------------------------------------------------------------------
    def _run(self, op: str, **values: Any) -> tuple[Any, Any]:
        """Call the tool mapped to `op` with the filled arguments; return (operation spec, answer)."""
        spec = self.adapter.ops[op]
        self._sync_clock()
        self._values = values   # what `arg(name)` reads in this operation's expressions
        result = self.client.call(spec.tool, fill(spec.args, values))
        try:
            return spec, unwrap(result, spec.tool)
        except McpToolError as exc:
            if spec.not_found and spec.not_found in str(exc):
                return spec, _NOT_FOUND
            raise

    def _pick(self, op: str, field: str, answer: Any) -> Any:
        """The adapter's expression `[ops.<op>].<field>` evaluated over the answer of the call just made."""
        expression = getattr(self.adapter.ops[op], field)
        return pick(expression, answer, where=self._where(op, field), values=self._values)

    def _sync_clock(self) -> None:
        clock = self.adapter.clock
        if clock is not None and self.clock.now() != self._server_time:
            unwrap(self.client.call(clock.tool, {clock.arg: self.clock.now()}), clock.tool)
            self._server_time = self.clock.now()

    def _where(self, op: str, field: str) -> str:
        return f"{self.adapter.source}: [ops.{op}].{field}"

    def _hits(self, op: str, spec, answer: Any, top_k: int) -> list[Hit]:
        ids = self._pick(op, "hits", answer) or []
        scores = self._pick(op, "scores", answer) if spec.scores else None
        ids = [str(i) for i in ids][:top_k]
        if not scores or len(scores) < len(ids):
            scores = [float(len(ids) - r) for r in range(len(ids))]   # order only: the rank, descending
        return [Hit(i, float(s)) for i, s in zip(ids, scores)]

    def _record(self, raw: Any) -> dict[str, Any]:
        return {**_RECORD_DEFAULTS, **raw, "id": str(raw["id"])}

    # memory ----------------------------------------------------------------------------
    def write_memory(self, text, task=None, insights=None, context=None, symbol_keys=None, tags=None,
                     metadata=None) -> str:
        self._seq += 1
        digest = hashlib.blake2b(f"{self.clock.now()!r}|{self._seq}|{text}".encode(), digest_size=8).hexdigest()
        spec, answer = self._run("write_memory", text=text, task=task, insights=insights, context=context,
                                 tags=tags, metadata=metadata, uid=f"m-{digest}")
        new_id = self._pick("write_memory", "id", answer)
        if new_id in (None, ""):
            raise ValueError(f"{self._where('write_memory', 'id')}: no id in the answer of {spec.tool}")
        return str(new_id)

    def get_memory(self, memory_id: str) -> dict[str, Any] | None:
        spec, answer = self._run("get_memory", id=memory_id)
        if answer is _NOT_FOUND:
            return None
        if spec.missing and self._pick("get_memory", "missing", answer):
            return None
        raw = self._pick("get_memory", "record", answer)
        return None if not raw else self._record(raw)

    def list_memories(self, task=None, context=None, limit=50, offset=0) -> list[dict[str, Any]]:
        spec, answer = self._run("list_memories", task=task, context=context, limit=limit, offset=offset)
        return [self._record(r) for r in self._pick("list_memories", "records", answer) or []]

    def search_memories(self, query=None, task=None, context=None, insights=None, tags=None, top_k=10,
                        where_metadata=None) -> list[Hit]:
        spec, answer = self._run("search_memories", query=query, task=task, context=context, insights=insights,
                                 tags=tags, top_k=top_k, where_metadata=where_metadata)
        return self._hits("search_memories", spec, answer, top_k)

    def keyword_search(self, query: str, top_k: int = 10) -> list[Hit]:
        spec, answer = self._run("keyword_search", query=query, top_k=top_k)
        return self._hits("keyword_search", spec, answer, top_k)

    def delete_memory(self, memory_id: str) -> bool:
        spec, answer = self._run("delete_memory", id=memory_id)
        if answer is _NOT_FOUND:
            return False
        return True if not spec.deleted else bool(self._pick("delete_memory", "deleted", answer))
