"""The `reference-mcp` backend: the reference store behind a real MCP stdio session.

`open` starts `codemem-bench serve --data <dir> --clock logical:<scenario time>`
as a subprocess (`python -m bench.cli.serve_cmd`: the console script's serve
command without importing the other commands) and connects a real MCP client
to it. Every backend call is one `tools/call`
of the seed tool of that name; before a call, if the scenario's clock moved,
the private `_harness_set_clock` tool moves the server's clock to the same
time, so the store records exactly what the in-process `reference` backend
records and quality figures are identical. The difference in latency is the
protocol's overhead (JSON-RPC over pipes, argument validation, worker threads).

The server's store telemetry is appended to a file outside the data folder and
forwarded into the harness's sink after each call, in order. The server ranks
memory searches with the default ranker (galaxybrain), like `reference`.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mcp.client.stdio import StdioServerParameters

from reference.clock import Clock
from reference.errors import StoreError
from reference.telemetry import TelemetrySink

from bench.backends.capabilities import Capability as C
from bench.backends.interface import Backend, Hit
from bench.backends.reference_mcp.client_thread import McpClientThread
from bench.backends.reference_mcp.graph import McpGraphPart
from bench.backends.reference_mcp.knowledge import McpKnowledgePart, McpLanePart
from bench.backends.reference_mcp.patterns import McpPatternPart
from bench.backends.reference_mcp.project import McpProjectPart
from bench.backends.reference_mcp.telemetry_relay import TelemetryRelay


class McpToolError(StoreError, ValueError):
    """A tool answered with isError; the message is the server's text (it names the argument or problem)."""


def _dir_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def _drop_none(**kwargs: Any) -> dict[str, Any]:
    return {k: v for k, v in kwargs.items() if v is not None}


class ReferenceMcpBackend(McpGraphPart, McpPatternPart, McpKnowledgePart, McpLanePart, McpProjectPart, Backend):
    """Reference store served by `codemem-bench serve`, driven through an MCP client session."""

    name = "reference-mcp"
    capabilities = frozenset({
        C.MEMORY_WRITE, C.MEMORY_GET, C.MEMORY_LIST, C.MEMORY_SEARCH, C.MEMORY_FILTERS, C.METADATA_FILTERS,
        C.CODE_INDEX, C.CODE_SEARCH, C.PATTERNS, C.REDACTION, C.GRAPH, C.POLICY_KV, C.POINT_IN_TIME,
        C.SNAPSHOT, C.KNOWLEDGE, C.MEMORY_LANE, C.PROJECT_MEMORY,
    })   # all of `reference`'s but keyword_search and delete: no seed tool serves them
    # No `:<ranker>` options: each option would be another full server-per-test run of the contract suite
    # (about 3 s of start-up per test); `codemem-bench serve --ranker` covers the other rankers.

    def server_command(self, data_dir: Path, start: float, telemetry: Path) -> list[str]:
        """The serve command line (argv after the Python executable)."""
        # The harness is the operator here: scenario and contract files name the code to index (a
        # scenario's fixtures, a test's tmp folder), so the server's root is the whole file system; what
        # an agent-facing `serve` defaults to (its working directory) is for agents' arguments.
        # Writes still go only under the data folder, by name.
        args = ["-m", "bench.cli.serve_cmd", "--data", str(data_dir), "--clock", f"logical:{start!r}", "--tools", "all",
                "--telemetry", str(telemetry), "--root", Path(data_dir).anchor or "/"]
        return args

    def open(self, data_dir: Path, clock: Clock, telemetry: TelemetrySink) -> None:
        self.data_dir, self.clock = Path(data_dir), clock
        self.data_dir.mkdir(parents=True, exist_ok=True)
        side = self.data_dir.parent / f"{self.data_dir.name}.mcp"   # outside the store: not counted as storage
        side.mkdir(parents=True, exist_ok=True)
        tel_path = side / "server-telemetry.jsonl"
        tel_path.unlink(missing_ok=True)
        self.relay = TelemetryRelay(tel_path, telemetry)
        self._server_time = clock.now()
        self._log = (side / "server.log").open("w", encoding="utf-8")
        params = StdioServerParameters(command=sys.executable,
                                       args=self.server_command(self.data_dir, self._server_time, tel_path))
        try:
            self.client = McpClientThread(params, errlog=self._log)
        except BaseException:
            self._log.close()
            raise

    def close(self) -> None:
        try:
            self.client.close()
            self.relay.forward()
        finally:
            self._log.close()

    def storage_bytes(self) -> int:
        return _dir_bytes(self.data_dir)

    # -- calls ---------------------------------------------------------------------
    def call(self, tool: str, **arguments: Any) -> Any:
        """Call `tool` after syncing the clock; return its structured result (unwrapped), raise on isError."""
        now = self.clock.now()
        if now != self._server_time:
            self._call("_harness_set_clock", {"time": now})
            self._server_time = now
        return self._call(tool, arguments)

    def _call(self, tool: str, arguments: dict[str, Any]) -> Any:
        result = self.client.call(tool, arguments)
        self.relay.forward()
        if result.is_error:
            text = " ".join(getattr(c, "text", "") for c in result.content)
            raise McpToolError(text or f"tool {tool} failed")
        out = result.structured_content
        if isinstance(out, dict) and set(out) == {"result"}:
            return out["result"]   # MCPServer wraps non-object results as {"result": ...}
        return out

    def set_context(self, scope, run_id, task_id, session_id) -> None:
        self.call("_harness_set_context", scope=scope, run_id=run_id, task_id=task_id, session_id=session_id)

    # -- memory ----------------------------------------------------------------------
    def write_memory(self, text, task=None, insights=None, context=None, symbol_keys=None, tags=None,
                     metadata=None) -> str:
        entry = self.call("memory_write_structured", **_drop_none(
            text=text, task=task, insights=insights, context=context, symbol_keys=symbol_keys, tags=tags,
            metadata=metadata))
        return entry["id"]

    def get_memory(self, memory_id: str) -> dict[str, Any] | None:
        return self.call("memory_get", memory_id=memory_id)

    def list_memories(self, task=None, context=None, limit=50, offset=0) -> list[dict[str, Any]]:
        return self.call("memory_list_structured", **_drop_none(task=task, context=context, limit=limit,
                                                                 offset=offset))

    def search_memories(self, query=None, task=None, context=None, insights=None, tags=None, top_k=10,
                        where_metadata=None) -> list[Hit]:
        rows = self.call("memory_search_structured", **_drop_none(
            query=query, task=task, context=context, insights=insights, tags=tags, top_k=top_k,
            where_metadata=where_metadata))
        return [Hit(r["id"], r["score"]) for r in rows]

    # -- code ------------------------------------------------------------------------
    def index_directory(self, root: Path) -> dict[str, Any]:
        return self.call("jit_index_directory", path=str(Path(root).resolve()))

    def index_file(self, path: Path, root: Path) -> dict[str, Any]:
        return self.call("jit_index_file", path=str(Path(path).resolve()), root=str(Path(root).resolve()))

    def search_all(self, query, top_k=10, types=None) -> list[Hit]:
        return [Hit(r["id"], r["score"]) for r in self.call("jit_search", **_drop_none(query=query, top_k=top_k,
                                                                                        types=types))]

    def code_search(self, query, top_k=10) -> list[Hit]:
        return [Hit(r["id"], r["score"]) for r in self.call("code_search", query=query, top_k=top_k)]

    def symbol_search(self, query, top_k=10) -> list[Hit]:
        return [Hit(r["id"], r["score"]) for r in self.call("symbol_search", query=query, top_k=top_k)]
