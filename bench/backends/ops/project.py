"""Operations of the project memory capability (seed 002): commits, branches, placeholders, filtered search.

A backend that declares `Capability.PROJECT_MEMORY` implements these. Values
are plain data: ids are the backend's memory ids, hits are `Hit`s, records
are dicts. "Branch filter" means the seed's filter: the default branch OR
the current (or named) branch.
"""
from __future__ import annotations

from typing import Any

from bench.backends.interface import Hit


class ProjectOps:
    """Seed 002's project memory, as the harness drives it."""

    def project_switch_branch(self, name: str, base: str | None = None, default: bool = False) -> str:
        """Make `name` the current branch (created if new; `base` = the commit it starts from); return it."""
        raise NotImplementedError

    def project_record_commit(self, sha: str, parent: str | None, files: list[str], message: str,
                              branch: str | None = None, git_time: int | None = None) -> dict[str, Any]:
        """Store a commit's memory at the clock's time (branch default: current) and bind waiting placeholders.

        Returns {memory_id, duplicate, branch, bound: [placeholder ids]}; a commit
        whose document is already stored returns the stored id with duplicate=True.
        """
        raise NotImplementedError

    def project_placeholder(self, session_id: str, summary: str, tool_name: str | None = None,
                            prev_commit_sha: str | None = None) -> dict[str, Any]:
        """Record that a session consulted the memory on the current branch; the next commit on its
        head (or on `prev_commit_sha`) binds it. Returns {memory_id, duplicate, branch}."""
        raise NotImplementedError

    def project_search(self, query: str, top_k: int = 10, branch: str | None = None,
                       filtered: bool = True) -> list[Hit]:
        """Memories best first; with `filtered`, only those of the branch filter."""
        raise NotImplementedError

    def project_locate_files(self, query: str, top_k: int = 10) -> list[Hit]:
        """Files (`file:<path>` ids) a task described by `query` is likely to touch, best first."""
        raise NotImplementedError

    def project_index_snapshot(self, files: list[dict[str, str]]) -> dict[str, Any]:
        """Index a repository snapshot given as [{path, text}] for `project_locate_files`; return counts."""
        raise NotImplementedError

    def project_gc(self, live_branches: list[str]) -> dict[str, Any]:
        """Delete the memories of branches not in `live_branches` (the default branch always lives).

        Returns {deleted_memories, deleted_branches: [names]}."""
        raise NotImplementedError

    def project_get(self, memory_id: str) -> dict[str, Any] | None:
        """A project memory as {id, text, created_at, **metadata}, or None."""
        raise NotImplementedError

    def project_memories(self) -> list[dict[str, Any]]:
        """Every project memory (as `project_get` gives them), oldest first."""
        raise NotImplementedError

    def project_stats(self) -> dict[str, Any]:
        """The backend's own counts: branches, commits, memories, pending placeholders, duplicates skipped."""
        raise NotImplementedError

    def project_storage_bytes(self) -> int:
        """Bytes at rest under the data directory (after folding any write-ahead log)."""
        raise NotImplementedError
