"""Ingest a `History` into the project layer: every commit a memory, at the commit's time.

The store must have been opened with a `LogicalClock`: before each commit the
clock is set to the commit's `git_time` (or left where it is when an earlier
commit already moved it further, since a clock never goes back), so every
memory's `created_at` is its commit's time. Commits go in `History.in_time_order`.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from reference.project.commit_batch import new_commit_run, record_run
from reference.project.errors import ProjectError
from reference.project.history import History

Progress = Callable[[int, int], None]


@dataclass
class IngestResult:
    """Counts of one ingest; `branches` includes the default branch."""

    commits: int = 0           # commits read from the history
    written: int = 0           # new memories
    duplicates: int = 0        # skipped: their doc_hash was already stored
    promoted: int = 0          # existing memories moved to the default branch
    bound: int = 0             # placeholders bound to an ingested commit
    branches: int = 0
    shared: int = 0            # commits several branches contain (recorded once)
    default_branch: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def ingest_history(project: Any, history: History, progress: Progress | None = None, *,
                   batch: bool = True) -> IngestResult:
    """Record every commit of `history` (see module docstring); `progress(i, n)` after each step.

    Runs of new commits go in one batch write (`commit_batch.py`; the same rows as one
    `record_commit` per commit); `batch=False` records them one by one."""
    clock = project.store.clock
    if not callable(getattr(clock, "set", None)):
        raise ProjectError("ingest needs a store opened with a LogicalClock (commits are written at their own time)")
    ordered = history.in_time_order()
    if ordered:
        clock.set(max(clock.now(), float(ordered[0].git_time)))
    project.set_default_branch(history.default_branch)
    for b in history.branches:
        project.register_branch(b.name, base=b.merge_base)
    result = IngestResult(commits=len(ordered), branches=len(history.branch_names()), shared=history.shared,
                          default_branch=history.default_branch)
    i = 0
    while i < len(ordered):
        run = new_commit_run(project, ordered, i) if batch else []
        if len(run) > 1:
            result.written += len(record_run(project, run))
            for j in range(i + 1, i + len(run)):
                if progress is not None:
                    progress(j, len(ordered))
            i += len(run)
        else:
            c = ordered[i]
            clock.set(max(clock.now(), float(c.git_time)))
            w = project.record_commit(c)
            result.written += not w.duplicate
            result.duplicates += w.duplicate
            result.promoted += w.promoted
            result.bound += len(w.bound)
            i += 1
        if progress is not None:
            progress(i, len(ordered))
    return result
