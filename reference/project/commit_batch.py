"""Runs of new commits recorded with one batch write (`MemoryStore.write_memories`), for `ingest_history`.

`new_commit_run(project, commits, start)` is the longest run from `start` (at most
`MAX_RUN`) that `ProjectMemory.record_commit` would store as new memories with nothing
else to do: no placeholder is waiting to be bound, and no commit's document is stored
already or repeated inside the run. `record_run` stores it in one transaction: the
memories in one batch, each at its commit's time (the clock set as `ingest_history` sets
it), then each commit's document, commit and branch rows, in commit order. The rows and
bytes are those of `record_commit` called once per commit (tested).
"""
from __future__ import annotations

from typing import Any

from reference.project import tables as T
from reference.project.commit import CommitInfo, commit_text
from reference.project.doc_hash import doc_hash
from reference.project.redaction import redact_metadata

MAX_RUN = 512


def new_commit_run(project: Any, commits: list[CommitInfo], start: int) -> list[tuple[CommitInfo, str, str]]:
    """(commit, redacted text, doc hash) of the batchable run from `commits[start]` (may be empty)."""
    conn = project.tracker.conn()
    if T.pending_count(conn):
        return []
    out: list[tuple[CommitInfo, str, str]] = []
    seen: set[str] = set()
    for c in commits[start: start + MAX_RUN]:
        text = project.redact(commit_text(c))
        h = doc_hash(text)
        if h in seen or T.doc_by_hash(conn, h) is not None:
            break
        seen.add(h)
        out.append((c, text, h))
    return out


def record_run(project: Any, run: list[tuple[CommitInfo, str, str]]) -> list[str]:
    """Store the run (see the module doc); the new memory ids, in order."""
    store, clock = project.store, project.store.clock
    times, t = [], clock.now()
    for c, _, _ in run:
        t = max(t, float(c.git_time))
        times.append(t)
    branches = [project.stored_branch(c.branch) for c, _, _ in run]
    records = []
    for (c, text, h), branch, now in zip(run, branches, times):
        meta = {"kind": "commit", "branch": branch, "commit_sha": c.sha, "parent_sha": c.parent,
                "git_time": c.git_time, "session_time": int(now), "files_changed": list(c.files),
                "doc_hash": h, "placeholder": False, "message_index": 0}
        if c.synthetic:
            meta["synthetic"] = True
        records.append(dict(text=text, metadata=redact_metadata(meta, project.redact)))
    with project.tracker.tx() as conn:
        entries = store.write_memories(records, times=times)
        for (c, _, h), branch, now, e in zip(run, branches, times, entries):
            T.insert_doc(conn, T.DocRow(e.id, h, "commit", branch, c.sha, None, False, now))
            T.upsert_commit(conn, c.sha, c.parent, branch, c.git_time, e.id)
            T.upsert_branch(conn, branch, now, head=c.sha)
    return [e.id for e in entries]
