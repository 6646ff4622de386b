"""Project memory steps (seed 002): branch and commit directives, placeholder, filtered search, GC, audit.

Directives: `branch` (switch the current branch), `commit` (record a commit).
Tools: `project_memory_search`, `project_placeholder`, `project_locate_files`,
`project_index_snapshot`, `project_gc`, `project_memory_get`, `project_stats`,
`project_audit`.

The harness keeps its own model of the scenario (current and default branch,
each branch's head, the branch every memory the scenario created belongs to,
which placeholders a commit binds), so the metrics it reports never come from
the backend's own bookkeeping:
- `branch_precision`: over every filtered `project_memory_search`, the share
  of retrieved memories that belong to the asked branch or the default branch
  (a memory the scenario did not create counts as outside);
  `branch_precision_unfiltered` is the same over searches with `filtered: false`;
- `duplicate_rate` (`project_audit`): stored project memories whose
  whitespace-normalised text repeats an earlier one, over all of them;
- `storage_bytes_per_1000_commits` (`project_audit`): bytes at rest x 1000 /
  distinct commits the scenario recorded.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from bench.backends.capabilities import Capability as C
from bench.steps.memory import ranked
from bench.steps.registry import Outcome, step

PM = (C.PROJECT_MEMORY,)


@dataclass
class ProjectModel:
    """The scenario's own view of branches and memories (ground truth for the metrics)."""

    branch: str | None = None
    default: str | None = None
    heads: dict[str, str | None] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)          # backend memory id -> branch
    pending: dict[str, str | None] = field(default_factory=dict)  # placeholder id -> prev commit sha
    commits: set[str] = field(default_factory=set)
    hits: dict[bool, list[int]] = field(default_factory=lambda: {True: [0, 0], False: [0, 0]})

    def allowed(self, branch: str | None) -> set[str]:
        return {b for b in (self.default, branch or self.branch) if b}


def model(ctx) -> ProjectModel:
    return ctx.state.setdefault("project", ProjectModel())


def metric(ctx, name: str, value: float) -> None:
    ctx.state.setdefault("metrics", {})[name] = value


class Branch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    default: bool = False
    base: str | None = None


class Commit(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sha: str
    message: str
    parent: str | None = None
    files: list[str] = []
    branch: str | None = None
    time: float | None = None


class Search(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str
    top_k: int = Field(10, ge=1, le=1000)
    branch: str | None = None
    filtered: bool = True


class Placeholder(BaseModel):
    model_config = ConfigDict(extra="forbid")
    summary: str
    session_id: str | None = None
    tool_name: str | None = None
    prev_commit_sha: str | None = None


class Locate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str
    top_k: int = Field(10, ge=1, le=1000)


class Snapshot(BaseModel):
    model_config = ConfigDict(extra="forbid")
    path: str


class Gc(BaseModel):
    model_config = ConfigDict(extra="forbid")
    live_branches: list[str]


class Get(BaseModel):
    model_config = ConfigDict(extra="forbid")
    memory_id: str


class NoArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Audit(BaseModel):
    model_config = ConfigDict(extra="forbid")
    storage: bool = True   # false: no bytes-per-1000-commits figure (a short history is all fixed overhead)


@step("branch", args=Branch, requires=PM, op="write", kind="directive")
def branch(ctx, a: Branch) -> Outcome:
    """Switch the current branch (created if new; `default: true` also makes it the default branch)."""
    value = ctx.backend.project_switch_branch(a.name, a.base, a.default)
    m = model(ctx)
    m.branch = a.name
    if a.default:
        m.default = a.name
    m.heads.setdefault(a.name, a.base)
    return Outcome(value=value)


@step("commit", args=Commit, requires=PM, op="write", kind="directive")
def commit(ctx, a: Commit) -> Outcome:
    """Record a commit at `time` (the clock moves there; never back) on `branch` (default: current)."""
    if a.time is not None:
        ctx.clock.set(max(ctx.clock.now(), a.time))
    m = model(ctx)
    label = a.branch or m.branch
    out = ctx.backend.project_record_commit(a.sha, a.parent, a.files, a.message, a.branch,
                                            int(a.time) if a.time is not None else None)
    mid = out["memory_id"]
    if mid not in m.labels or label == m.default:
        m.labels[mid] = label
    for pid, prev in list(m.pending.items()):
        if prev == a.parent:
            m.labels[pid] = label
            del m.pending[pid]
    m.heads[label] = a.sha
    m.commits.add(a.sha)
    return Outcome(created_id=mid, value=out)


@step("project_placeholder", args=Placeholder, requires=PM, op="write")
def project_placeholder(ctx, a: Placeholder) -> Outcome:
    """Seed 002 §1 phase 1: a session consulted the memory; the next commit on this head binds it."""
    session_id = a.session_id or ctx.session.get("session_id") or "session"
    out = ctx.backend.project_placeholder(session_id, a.summary, a.tool_name, a.prev_commit_sha)
    m = model(ctx)
    mid = out["memory_id"]
    if mid not in m.labels:
        m.labels[mid] = m.branch
        m.pending[mid] = a.prev_commit_sha or m.heads.get(m.branch)
    return Outcome(created_id=mid, value=out)


@step("project_memory_search", args=Search, requires=PM, op="query")
def project_memory_search(ctx, a: Search) -> Outcome:
    """Search the project memory, filtered to the current (or named) branch plus the default branch."""
    outcome = ranked(ctx.backend.project_search(a.query, a.top_k, a.branch, a.filtered))
    m = model(ctx)
    allowed = m.allowed(a.branch)
    tally = m.hits[a.filtered]
    tally[0] += sum(1 for i in outcome.ranked if m.labels.get(i) in allowed)
    tally[1] += len(outcome.ranked)
    if tally[1]:
        metric(ctx, "branch_precision" if a.filtered else "branch_precision_unfiltered", tally[0] / tally[1])
    return outcome


@step("project_locate_files", args=Locate, requires=PM, op="query")
def project_locate_files(ctx, a: Locate) -> Outcome:
    """Files (`file:<path>`) a task described in words is likely to touch."""
    return ranked(ctx.backend.project_locate_files(a.query, a.top_k))


@step("project_index_snapshot", args=Snapshot, requires=PM, op="write")
def project_index_snapshot(ctx, a: Snapshot) -> Outcome:
    """Index a snapshot JSONL file (`path`, `text` per line; path relative to the scenario)."""
    path = ctx.path(a.path)
    files = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return Outcome(value=ctx.backend.project_index_snapshot(files))


@step("project_gc", args=Gc, requires=PM, op="delete")
def project_gc(ctx, a: Gc) -> Outcome:
    """Delete the memories of every branch not in `live_branches` (the default branch always lives)."""
    return Outcome(value=ctx.backend.project_gc(a.live_branches))


@step("project_memory_get", args=Get, requires=PM, op="read")
def project_memory_get(ctx, a: Get) -> Outcome:
    """A project memory with its metadata flattened: {id, text, created_at, branch, commit_sha, ...}."""
    return Outcome(value=ctx.backend.project_get(a.memory_id))


@step("project_stats", args=NoArgs, requires=PM, op="read")
def project_stats(ctx, a: NoArgs) -> Outcome:
    """The backend's own counts (branches, commits, memories, pending placeholders, duplicates skipped)."""
    return Outcome(value=ctx.backend.project_stats())


def _text_key(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode("utf-8", "surrogatepass")).hexdigest()


@step("project_audit", args=Audit, requires=PM, op="read")
def project_audit(ctx, a: Audit) -> Outcome:
    """Duplicate rate and bytes per 1000 commits, computed by the harness (see module docstring)."""
    records = ctx.backend.project_memories()
    keys = [_text_key(r["text"]) for r in records]
    duplicates = len(keys) - len(set(keys))
    size = ctx.backend.project_storage_bytes()
    commits = len(model(ctx).commits)
    value = {"memories": len(keys), "duplicates": duplicates,
             "duplicate_rate": duplicates / len(keys) if keys else 0.0,
             "storage_bytes": size, "commits": commits,
             "storage_bytes_per_1000_commits": size * 1000 / commits if commits else 0.0}
    metric(ctx, "duplicate_rate", value["duplicate_rate"])
    if commits and a.storage:
        metric(ctx, "storage_bytes_per_1000_commits", value["storage_bytes_per_1000_commits"])
    return Outcome(value=value)
