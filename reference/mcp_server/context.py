"""`ServerContext`: what one server process opens over a data folder.

The context owns the `MemoryStore` (which redacts secrets on its write path
with its `PatternSetManager`, also used by the pattern tools), the LMDB graph
store in `<data>/graph` (opened, and `lmdb` imported, by the first tool that
uses it), the ranker that answers memory searches, and the session ids stamped
on telemetry.
Tool modules receive it in `register(server, ctx)`; layers added later keep
their own objects in `ctx.store.extensions`. `open_context(config)` opens one, any failure to open the
store raised as a short `StartupError`.
"""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reference.errors import StoreError
from reference.mcp_server.config import ServerConfig
from reference.mcp_server.error_text import clip
from reference.mcp_server.pattern_folder import PatternSetFolder
from reference.mcp_server.server_clock import ServerClock, parse_clock
from reference.mcp_server.telemetry_file import AppendingJsonlSink
from reference.path_policy import PathPolicy
from reference.rankers import make_ranker
from reference.store import MemoryStore
from reference.telemetry import NullSink, TelemetrySink

GRAPH_DIR = "graph"


class StartupError(StoreError):
    """The server could not open its data folder; the message names the file and the cause."""


class ServerContext:
    """The open store and its layers for one server process; `close()` releases them."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.data_dir = Path(config.data_dir).resolve()
        self.root = Path(config.root).resolve() if config.root is not None else Path.cwd().resolve()
        # Every path a tool takes goes through this policy (README "Paths"): reads inside the root,
        # writes by name under the data folder.
        self.paths = PathPolicy(self.root, self.data_dir)
        self.clock: ServerClock = parse_clock(config.clock)
        self.telemetry: TelemetrySink = AppendingJsonlSink(config.telemetry) if config.telemetry else NullSink()
        # The store redacts with its own PatternSetManager's `pat:secrets` unless told not to;
        # the pattern tools use that same manager.
        self.store = MemoryStore.open(self.data_dir, clock=self.clock, telemetry=self.telemetry,
                                      redact=config.redact)
        self.paths.redactor = self.store.redactor     # file names (snapshots, pattern sets) carry no secret
        try:
            self.patterns = self.store.patterns
            # stored sets load at the first pattern tool call (each one syncs), not here: what earlier
            # sessions stored must not make `initialize` slower (issue 25)
            self.pattern_sets = PatternSetFolder(self.paths, self.patterns)
            self.ranker = make_ranker(config.ranker, self.store)
        except BaseException:
            self.store.close()
            raise
        self.session: dict[str, str | None] = {"scope": None, "run_id": None, "task_id": None, "session_id": None}
        self._closers: list[Callable[[], None]] = []
        self._lock = threading.RLock()
        self._graph: Any = None
        self._closed = False

    # -- paths and session ------------------------------------------------------
    def path(self, value: str, argument: str = "path", *, within: Path | None = None) -> Path:
        """A path argument an agent gave, resolved and checked by the path policy (inside the root)."""
        return self.paths.read(value, argument, within=within)

    def set_context(self, scope: str | None, run_id: str | None, task_id: str | None,
                    session_id: str | None) -> None:
        """Session ids for telemetry (store and graph) and for session-aware rankers."""
        with self._lock:
            self.session.update(scope=scope, run_id=run_id, task_id=task_id, session_id=session_id)
            self.store.set_context(scope=scope, run_id=run_id, task_id=task_id)
            if self._graph is not None:
                self._graph.set_context(run_id=run_id, task_id=task_id)

    # -- layers -----------------------------------------------------------------
    def graph(self) -> Any:
        """The `GraphStore` in `<data>/graph` (seed 003), opened on first use (with the session's ids)."""
        with self._lock:
            if self._closed:
                raise StoreError("the server is closed")
            if self._graph is None:
                from reference.graph.store import GraphStore   # lmdb: only for the graph-backed tools

                graph = GraphStore.open(self.data_dir / GRAPH_DIR, clock=self.clock, telemetry=self.telemetry,
                                        redactor=self.store.redactor, redact=self.config.redact)
                graph.set_context(run_id=self.session["run_id"], task_id=self.session["task_id"])
                self._graph = graph
            return self._graph

    def on_close(self, fn: Callable[[], None]) -> None:
        """Run `fn` when the server closes (before the graph and the store), e.g. to close readers."""
        self._closers.append(fn)

    def close(self) -> None:
        with self._lock:
            graph, self._graph, self._closed = self._graph, None, True
            closers, self._closers = self._closers, []
        for fn in reversed(closers):
            fn()
        try:
            if graph is not None:
                graph.close()
        finally:
            try:
                self.store.close()
            finally:
                close = getattr(self.telemetry, "close", None)
                if close is not None:
                    close()


def open_context(config: ServerConfig) -> ServerContext:
    """`ServerContext(config)`, with any failure to open the store raised as one short `StartupError`.

    Store errors keep their message (they name the file); a raw SQLite or LMDB
    error is attributed to the file that library keeps (`tracker.db`, `graph/`)."""
    data = Path(config.data_dir)
    try:
        return ServerContext(config)
    except StoreError as exc:
        raise StartupError(clip(f"cannot open the store in {data}: {exc}", 500)) from exc
    except sqlite3.Error as exc:
        raise StartupError(f"cannot open the store in {data}: {data / 'tracker.db'}: {clip(str(exc), 200)} "
                           f"({type(exc).__name__})") from exc
    except OSError as exc:
        raise StartupError(f"cannot open the store in {data}: {clip(str(exc), 300)}") from exc
