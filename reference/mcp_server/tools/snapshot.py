"""Snapshot tools (seed 003 §4.6): export the graph as a read-only mmap file and read it back.

`graph_export_snapshot(name)` writes `<data>/snapshots/<name>.snap` (as the
reference backend does), and only there: a name, never a caller's path, and a
symlink in its place is refused, not replaced (`reference.path_policy`).
`snapshot_get_node` / `snapshot_get_out` / `snapshot_get_in` answer from such
a file with `SnapshotReader` (mmap alone, no LMDB), so they show the state the
snapshot froze, whichever server on the folder exported it. A reader is kept
per name and reopened when the file is replaced.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from reference.mcp_server.context import ServerContext
from reference.mcp_server.registry import ArgumentError, ToolRegistry
from reference.path_policy import PathPolicy
from reference.mcp_server.routing import routing
from reference.mcp_server.tools.at_arg import AtArg, parse_at
from reference.mcp_server.tools.graph import NodeId, RelFilter

SNAPSHOT_DIR = "snapshots"
SUFFIX = ".snap"

Name = Annotated[str, Field(description="Snapshot name: the file <data>/snapshots/<name>.snap")]


class SnapshotShelf:
    """Open `SnapshotReader`s by name, reopened when their file changes."""

    def __init__(self, policy: PathPolicy) -> None:
        self.policy = policy
        self._open: dict[str, tuple[tuple[int, int], Any]] = {}
        self._lock = threading.Lock()

    def path(self, name: str) -> Path:
        return self.policy.existing_file(SNAPSHOT_DIR, name, SUFFIX)

    def target(self, name: str) -> Path:
        """Where `graph_export_snapshot(name)` writes (folder created; symlinks refused)."""
        return self.policy.named_file(SNAPSHOT_DIR, name, SUFFIX)

    def reader(self, name: str) -> Any:
        from reference.graph.snapshot.reader import SnapshotReader

        path = self.path(name)
        try:
            st = path.stat()
        except FileNotFoundError:
            raise ArgumentError("name", f"no snapshot named {name!r} (export it with graph_export_snapshot)") from None
        stamp = (st.st_ino, st.st_mtime_ns)
        with self._lock:
            held = self._open.get(name)
            if held is not None and held[0] == stamp:
                return held[1]
            reader = SnapshotReader.open(path)
            if held is not None:
                held[1].close()
            self._open[name] = (stamp, reader)
            return reader

    def close(self) -> None:
        with self._lock:
            readers, self._open = [r for _, r in self._open.values()], {}
        for r in readers:
            r.close()


def register(server: ToolRegistry, ctx: ServerContext) -> None:
    shelf = SnapshotShelf(ctx.paths)
    ctx.on_close(shelf.close)

    @server.tool(routing=routing("graph_export_snapshot"))
    def graph_export_snapshot(
        name: Annotated[str, Field(description="Snapshot name; written to <data>/snapshots/<name>.snap")],
        at: AtArg = None,
    ) -> dict[str, Any]:
        """Write the graph (now, or at `at`) as a deterministic read-only mmap snapshot; returns its summary."""
        when = parse_at("at", at)
        summary = ctx.graph().export_snapshot(shelf.target(name), at=when)
        ctx.store.record_files()     # manifest.json lists the new (or replaced) snapshot at once
        return summary

    @server.tool(routing=routing("snapshot_get_node"))
    def snapshot_get_node(name: Name, id: NodeId) -> dict[str, Any] | None:
        """A node as the named snapshot froze it; null if absent. Read with mmap alone, not from the live store."""
        node = shelf.reader(name).get_node(id)
        return node.to_dict() if node is not None else None

    @server.tool(routing=routing("snapshot_get_out"))
    def snapshot_get_out(name: Name, src: NodeId, rel: RelFilter = None) -> list[dict[str, Any]]:
        """Edges out of a node in the named snapshot: src, rel, dst, rev."""
        return [e.to_dict() for e in shelf.reader(name).get_out(src, rel)]

    @server.tool(routing=routing("snapshot_get_in"))
    def snapshot_get_in(name: Name, dst: NodeId, rel: RelFilter = None) -> list[dict[str, Any]]:
        """Edges into a node in the named snapshot: src, rel, dst, rev."""
        return [e.to_dict() for e in shelf.reader(name).get_in(dst, rel)]
