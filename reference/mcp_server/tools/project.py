"""Project memory tools (seed 002) over the store's `ProjectMemory`.

Seed 002 names no MCP tool: agents search through a `file_search`-like tool
and commits arrive through a post-commit hook. The tool names here are the
harness's step names (bench/steps/project.py): `project_memory_search`,
`project_placeholder`, `project_locate_files`, `project_index_snapshot`,
`project_gc`, `project_memory_get`, `project_stats`; plus the hook's two
operations as tools, `project_switch_branch` and `project_record_commit` (the
harness's `branch` and `commit` directives), and `project_memory_list` (every
project memory, for audits). Return shapes are those of
bench/backends/ops/project.py.
"""
from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import Field

from reference.mcp_server.context import ServerContext
from reference.mcp_server.git_head import GitHead
from reference.mcp_server.limits import MAX_SNAPSHOT, check_time
from reference.mcp_server.registry import ArgumentError, ToolRegistry, argument
from reference.mcp_server.routing import routing
from reference.mcp_server.tools import results
from reference.mcp_server.tools.memory import TopK
from reference.project import CommitInfo, ProjectMemory, check_sha, index_snapshot, locate_files, parse_message


def record(entry: Any) -> dict[str, Any] | None:
    """A project memory flattened: {id, text, created_at, **metadata}."""
    return None if entry is None else {"id": entry.id, "text": entry.text, "created_at": entry.created_at,
                                       **entry.metadata}


def register(server: ToolRegistry, ctx: ServerContext) -> None:
    project = ProjectMemory.for_store(ctx.store)
    head = GitHead(ctx.root) if ctx.config.follow_git else None

    def follow_git() -> None:
        """Make the root repository's checked-out branch the current one (README "Project memory and git")."""
        branch = head.branch() if head is not None else None
        if branch is not None and branch != project.current_branch:
            with argument("branch"):
                project.switch_branch(branch)

    @server.tool(routing=routing("project_memory_search"))
    def project_memory_search(query: Annotated[str, Field(description="What to look for")], top_k: TopK = 10,
                              branch: Annotated[str | None, Field(description="Branch (default: current)")] = None,
                              filtered: Annotated[bool, Field(description="Only the branch and the default "
                                                                          "branch")] = True) -> list[dict[str, Any]]:
        """Search commit and session memories of the current (or named) branch plus the default branch."""
        follow_git()
        return [results.memory_hit(h) for h in project.search(query, top_k, branch=branch, filtered=filtered)]

    @server.tool(routing=routing("project_placeholder"))
    def project_placeholder(summary: Annotated[str, Field(description="What the session asked or learned")],
                            session_id: Annotated[str | None, Field(description="Default: the session's")] = None,
                            tool_name: str | None = None, prev_commit_sha: str | None = None) -> dict[str, Any]:
        """Record a session's consultation; the next commit on this branch's head binds it to that commit."""
        follow_git()
        sid = session_id or ctx.session["session_id"] or "session"
        kwargs = {} if prev_commit_sha is None else {"prev_commit_sha": prev_commit_sha}
        w = project.create_placeholder(sid, summary, tool_name=tool_name, **kwargs)
        return {"memory_id": w.memory_id, "duplicate": w.duplicate, "branch": w.branch}

    @server.tool(routing=routing("project_locate_files"))
    def project_locate_files(query: Annotated[str, Field(description="The task, in words")],
                             top_k: TopK = 10) -> list[dict[str, Any]]:
        """Files (file:<path>) a task is likely to touch, best first."""
        return [results.hit(h) for h in locate_files(project, query, top_k)]

    @server.tool(routing=routing("project_index_snapshot"))
    def project_index_snapshot(
        path: Annotated[str | None, Field(description="JSONL file of {path, text} lines (server root relative)")] = None,
        files: Annotated[list[dict[str, str]] | None, Field(description="Or the {path, text} records")] = None,
    ) -> dict[str, Any]:
        """Index a repository snapshot for project_locate_files; returns counts."""
        if (path is None) == (files is None):
            raise ArgumentError("path", "give exactly one of path and files")
        if path is not None:
            file = ctx.path(path, "path")
            if file.stat().st_size > MAX_SNAPSHOT:
                raise ArgumentError("path", f"the file has {file.stat().st_size:,} bytes; the limit is {MAX_SNAPSHOT:,}")
            lines = file.read_text(encoding="utf-8").splitlines()
            files = [json.loads(line) for line in lines if line.strip()]
        r = index_snapshot(ctx.store, files)
        return {"files": r.files_indexed, "unchanged": r.files_unchanged, "symbols": r.symbols, "chunks": r.chunks,
                "errors": len(r.errors)}

    @server.tool(routing=routing("project_gc"))
    def project_gc(live_branches: Annotated[list[str], Field(description="Branches that still exist")]
                   ) -> dict[str, Any]:
        """Delete the memories of every branch not listed (the default branch always lives)."""
        r = project.gc(live_branches)
        return {"deleted_memories": r.deleted_memories, "deleted_branches": list(r.deleted_branches)}

    @server.tool(routing=routing("project_memory_get"))
    def project_memory_get(memory_id: str) -> dict[str, Any] | None:
        """A project memory with its metadata flattened (branch, commit_sha, ...); null if absent."""
        with argument("memory_id"):
            return record(project.get(memory_id))

    @server.tool(routing=routing("project_memory_list"))
    def project_memory_list() -> list[dict[str, Any]]:
        """Every project memory, oldest first, metadata flattened."""
        return [record(e) for e in project.memories()]

    @server.tool(routing=routing("project_stats"))
    def project_stats() -> dict[str, Any]:
        """Counts: branches, commits, memories, pending placeholders, duplicates skipped."""
        follow_git()
        return project.stats()

    @server.tool(routing=routing("project_switch_branch"))
    def project_switch_branch(name: str, base: Annotated[str | None, Field(description="Commit it starts from")] = None,
                              default: bool = False) -> str:
        """The hook's branch switch: make `name` current (created if new; `default` makes it the default)."""
        return project.switch_branch(name, base=base, default=default)

    @server.tool(routing=routing("project_record_commit"))
    def project_record_commit(sha: str, message: str, parent: str | None = None, files: list[str] | None = None,
                              branch: str | None = None,
                              time: Annotated[int | None, Field(description="Commit time, Unix seconds")] = None
                              ) -> dict[str, Any]:
        """The post-commit hook: store the commit's memory and bind the placeholders waiting for it."""
        follow_git()
        subject, body = parse_message(message)
        parents = (check_sha(parent, "parent"),) if parent else ()
        when = int(ctx.clock.now()) if time is None else int(check_time("time", time))
        w = project.record_commit(CommitInfo(sha, parents, branch or project.current_branch, when, subject, body,
                                             tuple(files or ())))
        return {"memory_id": w.memory_id, "duplicate": w.duplicate, "branch": w.branch, "bound": list(w.bound)}
