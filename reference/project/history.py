"""`History`: the commits and branches of a project, in the order they are ingested.

Readers (`gitrepo.read_repository`, `dataset.read_dataset`) give each commit
exactly one branch label: the default branch for every commit reachable from
it, else the first other branch (in name order for a repository, file order
for a data set) that contains it. `shared` counts the commits that more
branches contain; they are recorded once.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from reference.project.commit import CommitInfo


@dataclass(frozen=True)
class BranchInfo:
    """A branch besides the default one: its tip, where it left the default branch, its own commits."""

    name: str
    tip: str
    merge_base: str | None
    commits: tuple[str, ...] = ()


@dataclass
class History:
    """Commits to ingest and the branches they belong to."""

    default_branch: str
    commits: list[CommitInfo] = field(default_factory=list)
    branches: list[BranchInfo] = field(default_factory=list)
    shared: int = 0

    def branch_names(self) -> list[str]:
        """The default branch first, then the others in their order."""
        return [self.default_branch] + [b.name for b in self.branches if b.name != self.default_branch]

    def in_time_order(self) -> list[CommitInfo]:
        """Commits by git_time, but never a commit before one of its parents (clock skew, rebases).

        A topological order that always takes the earliest ready commit (ties:
        the reader's order), so branches interleave with the default branch
        as they happened.
        """
        index = {c.sha: i for i, c in enumerate(self.commits)}
        waiting = {c.sha: sum(1 for p in set(c.parents) if p in index) for c in self.commits}
        children: dict[str, list[str]] = {}
        for c in self.commits:
            for p in set(c.parents):
                if p in index:
                    children.setdefault(p, []).append(c.sha)
        ready = [(c.git_time, index[c.sha]) for c in self.commits if waiting[c.sha] == 0]
        heapq.heapify(ready)
        out: list[CommitInfo] = []
        while ready:
            _, i = heapq.heappop(ready)
            c = self.commits[i]
            out.append(c)
            for child in children.get(c.sha, ()):
                waiting[child] -= 1
                if waiting[child] == 0:
                    heapq.heappush(ready, (self.commits[index[child]].git_time, index[child]))
        if len(out) != len(self.commits):  # a cycle cannot happen in git; keep the reader's order for the rest
            seen = {c.sha for c in out}
            out += [c for c in self.commits if c.sha not in seen]
        return out
