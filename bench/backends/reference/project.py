"""The project memory capability of the reference backend: the store's `ProjectMemory` layer."""
from __future__ import annotations

from typing import Any

from reference.project import CommitInfo, ProjectMemory, check_sha, index_snapshot, locate_files, parse_message

from bench.backends.interface import Hit
from bench.backends.ops.project import ProjectOps
from bench.backends.reference.part import ReferencePart


def _record(entry: Any) -> dict[str, Any] | None:
    if entry is None:
        return None
    return {"id": entry.id, "text": entry.text, "created_at": entry.created_at, **entry.metadata}


class ProjectPart(ProjectOps, ReferencePart):
    """Opens the project layer with the store (its redactor compiles on the first commit)."""

    def _on_open(self) -> None:
        super()._on_open()
        self.project = ProjectMemory.for_store(self.store)

    def _on_close(self) -> None:
        self.project = None
        super()._on_close()

    def project_switch_branch(self, name, base=None, default=False) -> str:
        return self.project.switch_branch(name, base=base, default=default)

    def project_record_commit(self, sha, parent, files, message, branch=None, git_time=None) -> dict[str, Any]:
        subject, body = parse_message(message)
        parents = (check_sha(parent, "parent"),) if parent else ()
        when = int(self.store.clock.now()) if git_time is None else git_time
        w = self.project.record_commit(CommitInfo(sha, parents, branch or self.project.current_branch, when,
                                                  subject, body, tuple(files)))
        return {"memory_id": w.memory_id, "duplicate": w.duplicate, "branch": w.branch, "bound": list(w.bound)}

    def project_placeholder(self, session_id, summary, tool_name=None, prev_commit_sha=None) -> dict[str, Any]:
        kwargs = {} if prev_commit_sha is None else {"prev_commit_sha": prev_commit_sha}
        w = self.project.create_placeholder(session_id, summary, tool_name=tool_name, **kwargs)
        return {"memory_id": w.memory_id, "duplicate": w.duplicate, "branch": w.branch}

    def project_search(self, query, top_k=10, branch=None, filtered=True) -> list[Hit]:
        return [Hit(h.id, h.score) for h in self.project.search(query, top_k, branch=branch, filtered=filtered)]

    def project_locate_files(self, query, top_k=10) -> list[Hit]:
        return [Hit(h.id, h.score) for h in locate_files(self.project, query, top_k)]

    def project_index_snapshot(self, files) -> dict[str, Any]:
        r = index_snapshot(self.store, files)
        return {"files": r.files_indexed, "unchanged": r.files_unchanged, "symbols": r.symbols, "chunks": r.chunks,
                "errors": len(r.errors)}

    def project_gc(self, live_branches) -> dict[str, Any]:
        r = self.project.gc(live_branches)
        return {"deleted_memories": r.deleted_memories, "deleted_branches": list(r.deleted_branches)}

    def project_get(self, memory_id) -> dict[str, Any] | None:
        return _record(self.project.get(memory_id))

    def project_memories(self) -> list[dict[str, Any]]:
        return [_record(e) for e in self.project.memories()]

    def project_stats(self) -> dict[str, Any]:
        return self.project.stats()

    def project_storage_bytes(self) -> int:
        self.store.tracker.checkpoint()
        return self.storage_bytes()
