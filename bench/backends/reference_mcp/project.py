"""ProjectOps of `reference-mcp` (seed 002): the project memory tools over MCP."""
from __future__ import annotations

from typing import Any

from bench.backends.interface import Hit
from bench.backends.ops.project import ProjectOps


def _given(**kwargs: Any) -> dict[str, Any]:
    return {k: v for k, v in kwargs.items() if v is not None}


class McpProjectPart(ProjectOps):
    """Mixin of `ReferenceMcpBackend`; `self.call(tool, **args)` is one MCP tool call."""

    call: Any
    storage_bytes: Any

    def project_switch_branch(self, name, base=None, default=False) -> str:
        return self.call("project_switch_branch", name=name, default=default, **_given(base=base))

    def project_record_commit(self, sha, parent, files, message, branch=None, git_time=None) -> dict[str, Any]:
        return self.call("project_record_commit", sha=sha, message=message, files=list(files),
                         **_given(parent=parent, branch=branch, time=git_time))

    def project_placeholder(self, session_id, summary, tool_name=None, prev_commit_sha=None) -> dict[str, Any]:
        return self.call("project_placeholder", summary=summary, session_id=session_id,
                         **_given(tool_name=tool_name, prev_commit_sha=prev_commit_sha))

    def project_search(self, query, top_k=10, branch=None, filtered=True) -> list[Hit]:
        rows = self.call("project_memory_search", query=query, top_k=top_k, filtered=filtered, **_given(branch=branch))
        return [Hit(r["id"], r["score"]) for r in rows]

    def project_locate_files(self, query, top_k=10) -> list[Hit]:
        return [Hit(r["id"], r["score"]) for r in self.call("project_locate_files", query=query, top_k=top_k)]

    def project_index_snapshot(self, files) -> dict[str, Any]:
        return self.call("project_index_snapshot", files=list(files))

    def project_gc(self, live_branches) -> dict[str, Any]:
        return self.call("project_gc", live_branches=list(live_branches))

    def project_get(self, memory_id) -> dict[str, Any] | None:
        return self.call("project_memory_get", memory_id=memory_id)

    def project_memories(self) -> list[dict[str, Any]]:
        return self.call("project_memory_list")

    def project_stats(self) -> dict[str, Any]:
        return self.call("project_stats")

    def project_storage_bytes(self) -> int:
        self.call("_harness_checkpoint")
        return self.storage_bytes()
