"""`ProjectMemory`: seed 002's git-correlated project memory over one `MemoryStore`.

    project = ProjectMemory.for_store(store)            # once per open store
    project.switch_branch("main", default=True)
    project.record_commit(CommitInfo(sha, (parent,), "main", 1737654321, "Fix refresh race"))
    project.create_placeholder("session-xyz", "Discussed the refresh race with o3")
    project.search("token refresh", branch="feature-auth")   # feature-auth + main only

One store holds every branch; each memory carries the seed's metadata
(branch, commit_sha, parent_sha, git_time, session_time, files_changed,
doc_hash, placeholder, ...) and searches filter on it with `where_metadata`.
Every document is redacted (secrets -> `[REDACTED:<name>]`) before it is
hashed or stored; a document whose `doc_hash` is already stored is skipped
and counted. Placeholders (a session that consulted the memory) are bound to
the commit whose parent is their `prev_commit_sha`. `gc` deletes the memories
of branches that no longer exist. Every time comes from `store.clock`.
Layout of the tracker tables and decisions are in reference/project/README.md.
"""
from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from reference.clock import iso
from reference.memories.record import MemoryEntry, SearchHit
from reference.project import tables as T
from reference.project.branch_search import filtered as filtered_search
from reference.project.ranking import BranchRanking
from reference.project.commit import CommitInfo, check_branch, check_sha, commit_text
from reference.project.doc_hash import doc_hash
from reference.project.errors import ProjectError
from reference.project.redaction import LazySecretsRedactor, redact_metadata
from reference.project.schema import ensure_schema

EXTENSION_KEY = "project"
DEFAULT_BRANCH = "main"   # the seed's filter names "main"; `set_default_branch` changes it
MAX_BIND = 1000           # placeholders bound to one commit at most (a runaway session loop)
MAX_PREFIX_K = 1000       # larger top_k: the store's filtered search directly (a prefix would be most of the store)
_CREATE_LOCK = threading.Lock()
_HEAD: Any = object()     # "prev_commit_sha not given": use the branch's head


@dataclass(frozen=True)
class WriteResult:
    """What a commit or placeholder write did: the memory it maps to and whether it was a duplicate."""

    memory_id: str
    duplicate: bool
    branch: str
    bound: tuple[str, ...] = ()   # placeholders this commit bound
    promoted: bool = False        # an existing commit memory moved to the default branch


@dataclass(frozen=True)
class GcResult:
    deleted_memories: int
    deleted_branches: tuple[str, ...]


class ProjectMemory:
    """Commits, branches, placeholders and branch-filtered search of one open store."""

    def __init__(self, store: Any, redactor: Callable[[str], str]) -> None:
        self.store = store
        self.redact = redactor
        self.tracker = store.tracker
        self._branch = functools.lru_cache(maxsize=4096)(lambda name: redactor(check_branch(name)))

    def stored_branch(self, name: str) -> str:
        """The name a branch is stored under: checked as a git branch name, then redacted.

        Every table, setting and memory field holds this form; every method taking a
        branch name maps it the same way, so a name holding a secret works end to end
        while the secret itself is never stored."""
        if not isinstance(name, str):
            check_branch(name)  # raises the usual error; lru_cache needs a hashable argument
        return self._branch(name)

    @classmethod
    def for_store(cls, store: Any, *, redactor: Callable[[str], str] | None = None) -> "ProjectMemory":
        """The store's layer, created (schema, delete listener) on first call.

        `redactor` defaults to the store's own, else the built-in `pat:secrets`
        set (compiled on first use, cached in the store's data directory).
        """
        with _CREATE_LOCK:
            layer = store.extensions.get(EXTENSION_KEY)
            if layer is not None:
                return layer
            ensure_schema(store.tracker)
            redact = redactor or store.redactor or LazySecretsRedactor(store.data_dir, store.clock)
            layer = cls(store, redact)
            store.extensions[EXTENSION_KEY] = layer
            store.add_delete_listener(layer._forget)
            return layer

    # -- branches ------------------------------------------------------------------
    @property
    def default_branch(self) -> str:
        return T.get_meta(self.tracker.conn(), T.META_DEFAULT) or DEFAULT_BRANCH

    @property
    def current_branch(self) -> str:
        return T.get_meta(self.tracker.conn(), T.META_CURRENT) or self.default_branch

    def set_default_branch(self, name: str) -> None:
        name = self.stored_branch(name)
        with self.tracker.tx() as conn:
            T.set_meta(conn, T.META_DEFAULT, name)
            T.upsert_branch(conn, name, self.store.clock.now())

    def switch_branch(self, name: str, *, base: str | None = None, default: bool = False) -> str:
        """Make `name` the current branch (creating it; `base` is the commit it starts from).

        Returns the name as stored (redacted if it held a secret)."""
        name = self.stored_branch(name)
        if base is not None:
            check_sha(base, "base")
        with self.tracker.tx() as conn:
            T.upsert_branch(conn, name, self.store.clock.now(), base=base)
            T.set_meta(conn, T.META_CURRENT, name)
            if default:
                T.set_meta(conn, T.META_DEFAULT, name)
        return name

    def register_branch(self, name: str, *, head: str | None = None, base: str | None = None) -> None:
        """Record that a branch exists (ingest), without switching to it."""
        with self.tracker.tx() as conn:
            T.upsert_branch(conn, self.stored_branch(name), self.store.clock.now(),
                            head=check_sha(head, "head") if head else None,
                            base=check_sha(base, "base") if base else None)

    def branches(self) -> list[str]:
        """Live (not garbage-collected) branches, by name."""
        return T.live_branches(self.tracker.conn())

    def head(self, branch: str | None = None) -> str | None:
        """The last commit recorded on `branch` (default: current), else its base, else None."""
        return T.branch_head(self.tracker.conn(), self.stored_branch(branch) if branch else self.current_branch)

    # -- writes ----------------------------------------------------------------------
    def record_commit(self, c: CommitInfo) -> WriteResult:
        """Store the commit's memory (or count it as a duplicate) and bind waiting placeholders."""
        text = self.redact(commit_text(c))
        h = doc_hash(text)
        default = self.default_branch
        c_branch = self.stored_branch(c.branch)
        with self.tracker.tx() as conn:
            now = self.store.clock.now()
            existing = T.doc_by_hash(conn, h)
            promoted = False
            if existing is not None:
                self.tracker.next_seq(conn, T.SEQ_DUPLICATES)
                mid, branch = existing.memory_id, existing.branch
                if c_branch == default and branch != default:
                    # reachable from the default branch now (merged): it must survive GC of its old branch
                    self.store.update_metadata(mid, {"branch": default})
                    T.set_doc_branch(conn, mid, default)
                    self.tracker.next_seq(conn, T.SEQ_PROMOTED)
                    branch, promoted = default, True
            else:
                meta = {"kind": "commit", "branch": c_branch, "commit_sha": c.sha, "parent_sha": c.parent,
                        "git_time": c.git_time, "session_time": int(now), "files_changed": list(c.files),
                        "doc_hash": h, "placeholder": False, "message_index": 0}
                if c.synthetic:
                    meta["synthetic"] = True
                mid = self.store.write_memory(text, metadata=redact_metadata(meta, self.redact)).id
                branch = c_branch
                T.insert_doc(conn, T.DocRow(mid, h, "commit", branch, c.sha, None, False, now))
            T.upsert_commit(conn, c.sha, c.parent, branch, c.git_time, mid)
            T.upsert_branch(conn, c_branch, now, head=c.sha)
            bound = self._bind(conn, c, c_branch) if T.pending_count(conn) else ()
        return WriteResult(mid, existing is not None, branch, bound, promoted)

    def create_placeholder(self, session_id: str, summary: str, *, tool_name: str | None = None,
                           branch: str | None = None, prev_commit_sha: str | None = _HEAD) -> WriteResult:
        """Seed 002 §1 phase 1: record that a session consulted the memory before the next commit.

        The placeholder's content is the session's summary; `prev_commit_sha`
        (default: the head of `branch`) is the commit the work started from.
        A placeholder whose content is already stored is a duplicate.
        """
        if not isinstance(session_id, str) or not session_id.strip():
            raise ProjectError(f"session_id must be a non-empty string, got {session_id!r}")
        if not isinstance(summary, str) or not summary.strip():
            raise ProjectError("summary must be a non-empty string (what the session discussed)")
        branch = self.stored_branch(branch) if branch is not None else self.current_branch
        session_id = self.redact(session_id)
        prev = T.branch_head(self.tracker.conn(), branch) if prev_commit_sha is _HEAD else prev_commit_sha
        if prev is not None:
            check_sha(prev, "prev_commit_sha")
        text = self.redact(f"Session {session_id} ({tool_name or 'consultation'}):\n{summary.strip()}")
        h = doc_hash(text)
        with self.tracker.tx() as conn:
            now = self.store.clock.now()
            existing = T.doc_by_hash(conn, h)
            if existing is not None:
                self.tracker.next_seq(conn, T.SEQ_DUPLICATES)
                return WriteResult(existing.memory_id, True, existing.branch)
            meta = {"kind": "session", "placeholder": True, "prev_commit_sha": prev, "branch": branch,
                    "session_id": session_id, "chat_start": iso(now), "session_time": int(now),
                    "tool_name": tool_name, "doc_hash": h,
                    "message_index": T.session_doc_count(conn, session_id)}
            mid = self.store.write_memory(text, metadata=redact_metadata(meta, self.redact)).id
            T.upsert_branch(conn, branch, now)
            T.insert_doc(conn, T.DocRow(mid, h, "session", branch, None, session_id, True, now))
        return WriteResult(mid, False, branch)

    def _bind(self, conn: Any, c: CommitInfo, branch: str) -> tuple[str, ...]:
        """Seed 002 §1 phase 2: placeholders whose prev_commit_sha is this commit's parent get its identity.

        Found with the seed's metadata filter (placeholder = true AND
        prev_commit_sha = parent); the branch becomes the commit's branch,
        since that is where the session's work landed.
        """
        found = self.store.list_memories(where_metadata={"placeholder": [True], "prev_commit_sha": [c.parent]},
                                         limit=MAX_BIND)
        bound = []
        for entry in sorted(found, key=lambda e: (e.created_at, e.id)):
            self.store.update_metadata(entry.id, redact_metadata({
                "placeholder": False, "commit_sha": c.sha, "parent_sha": c.parent, "git_time": c.git_time,
                "files_changed": list(c.files), "branch": branch}, self.redact))
            T.bind_doc(conn, entry.id, branch, c.sha)
            bound.append(entry.id)
        return tuple(bound)

    def _forget(self, memory_id: str) -> None:
        """Delete listener: a deleted memory's doc_hash may be stored again."""
        with self.tracker.tx() as conn:
            T.delete_doc(conn, memory_id)

    # -- reads ------------------------------------------------------------------------
    def branch_filter(self, branch: str | None = None) -> dict[str, list[str]]:
        """`where_metadata` of the seed's filter: the default branch OR the given (else current) branch."""
        current = self.stored_branch(branch) if branch is not None else self.current_branch
        return {"branch": sorted({self.default_branch, current})}

    def search(self, query: str | None, top_k: int = 10, *, branch: str | None = None,
               filtered: bool = True) -> list[SearchHit]:
        """Memories of the branch filter (default OR `branch`, else current) ranked by `BranchRanking`
        (ranking.py: keyword + semantic relevance, shared files, recency and the asked branch);
        `filtered=False` drops the filter and ranks by the store's semantic search (for comparison).
        A blank query lists the filtered memories newest first."""
        if not filtered:
            return self.store.search_memories(query, top_k=top_k)
        allowed = self.branch_filter(branch)["branch"]
        if isinstance(query, str) and query.strip() and isinstance(top_k, int) and not isinstance(top_k, bool) \
                and 0 < top_k <= MAX_PREFIX_K:
            asked = self.stored_branch(branch) if branch is not None else self.current_branch
            return self.ranking.search(query, top_k, allowed, asked if asked != self.default_branch else None)
        return filtered_search(self.store, query, top_k, allowed)

    @functools.cached_property
    def ranking(self) -> BranchRanking:
        """Ranking inside the branch filter (ranking.py): relevance, recency and the asked branch."""
        return BranchRanking(self.store)

    def get(self, memory_id: str) -> MemoryEntry | None:
        return self.store.get_memory(memory_id)

    def memories(self) -> Iterator[MemoryEntry]:
        """Every memory of the layer (commits and sessions), oldest first."""
        for mid in T.all_doc_ids(self.tracker.conn()):
            entry = self.store.memories.get(mid)
            if entry is not None:
                yield entry

    # -- maintenance ------------------------------------------------------------------
    def gc(self, live_branches: Iterable[str]) -> GcResult:
        """Delete the memories of every branch not in `live_branches` (the default branch always lives)."""
        if isinstance(live_branches, str):
            raise ProjectError("live_branches must be a list of branch names, not one string")
        live = sorted({self.stored_branch(b) for b in live_branches} | {self.default_branch})
        doomed = T.docs_outside(self.tracker.conn(), live)
        deleted = sum(1 for mid in doomed if self.store.delete_memory(mid))
        with self.tracker.tx() as conn:
            now = self.store.clock.now()
            dead = [b for b in T.live_branches(conn) if b not in live]
            T.mark_deleted(conn, dead, now)
            if T.get_meta(conn, T.META_CURRENT) in dead:
                T.set_meta(conn, T.META_CURRENT, self.default_branch)
            T.set_meta(conn, T.META_LAST_GC, iso(now))
        return GcResult(deleted, tuple(dead))

    def stats(self) -> dict[str, Any]:
        """Counts of the layer: branches, commits, memories by kind, pending placeholders, duplicates."""
        conn = self.tracker.conn()
        docs = T.doc_counts(conn)
        return {
            "default_branch": self.default_branch, "current_branch": self.current_branch,
            "branches": len(T.live_branches(conn)), "deleted_branches": T.deleted_count(conn),
            "commits": T.commit_count(conn), "memories": sum(docs.values()),
            "commit_memories": docs.get("commit", 0), "session_memories": docs.get("session", 0),
            "pending_placeholders": T.pending_count(conn),
            "duplicates_skipped": T.counter(conn, T.SEQ_DUPLICATES), "promoted": T.counter(conn, T.SEQ_PROMOTED),
            "last_gc": T.get_meta(conn, T.META_LAST_GC),
        }
