"""The project-memory replay shared by `<data>-branches` and `<data>-dedup`: events and a step writer.

Events are the default branch's non-merge commits and the non-merge commits
of other branches, in time order. A branch commit belongs to the first branch
in `branches.jsonl` that lists it (recorded once); its time is its commit time,
but never before its merge base or the branch's previous commit (the replay
clock never goes back). Merges are not memories.
"""
from __future__ import annotations

from .common import alias
from .dataset import Dataset, is_merge
from .texts import message


def events(ds: Dataset, branches: list[dict] | None = None, window: set[str] | None = None) -> list[dict]:
    """Time-ordered {sha, parent, branch, time, message, files, base?, commit}; `window` keeps those main shas."""
    out, clock, at = [], 0.0, {}
    for i, c in enumerate(ds.commits):
        clock = max(clock, float(c["commit_time"]))
        at[c["sha"]] = clock
        if is_merge(c) or (window is not None and c["sha"] not in window):
            continue
        out.append(_event(c, ds.default_branch, clock, (clock, 0, i, 0)))
    seen = {c["sha"] for c in ds.commits}
    for b_i, b in enumerate(ds.branches if branches is None else branches):
        t = at.get(b.get("merge_base") or "", float(ds.commits[0]["commit_time"]))
        for j, sha in enumerate(b["commits"]):
            c = ds.branch_commits.get(sha)
            if sha in seen or c is None:
                continue
            seen.add(sha)
            t = max(t, float(c["commit_time"]))
            if not is_merge(c):
                out.append({**_event(c, b["name"], t, (t, 1, b_i, j)), "base": b.get("merge_base")})
    return sorted(out, key=lambda e: e["order"])


def _event(c: dict, branch: str, t: float, order: tuple) -> dict:
    return {"sha": c["sha"], "parent": (c["parents"] or [None])[0], "branch": branch, "time": t,
            "message": message(c), "files": [f["path"] for f in c["files"]], "order": order, "commit": c}


def placeholder_summary(e: dict) -> str:
    c = e["commit"]
    body = c["body"].strip()[:300]
    return f"Asked o3 how to approach: {c['subject'].strip()}." + (f" Notes: {body}" if body else "")


class Writer:
    """Emits steps while tracking the current branch and every branch's head, as the harness will."""

    def __init__(self, ds: Dataset, session: str = "project") -> None:
        self.default = ds.default_branch
        self.steps: list[dict] = [{"directive": "session", "session_id": session, "run_id": "replay",
                                   "scope": f"repo:{ds.name}"},
                                  {"directive": "branch", "name": self.default, "default": True}]
        self.current, self.heads = self.default, {self.default: None}
        self.switched = {self.default}

    def switch(self, branch: str, base: str | None = None) -> None:
        if branch != self.current:
            step = {"directive": "branch", "name": branch}
            if branch not in self.switched:
                if base:
                    step["base"] = base
                self.heads[branch] = base   # None: a branch with no history in common (its own root)
            self.steps.append(step)
            self.current = branch
            self.switched.add(branch)

    def commit(self, e: dict, **extra) -> None:
        self.switch(e["branch"], e.get("base"))
        self.steps.append({"directive": "commit", "sha": e["sha"], "parent": e["parent"], "files": e["files"],
                           "message": e["message"], "time": float(e["time"]), **extra})
        self.heads[e["branch"]] = e["sha"]

    def commit_as(self, e: dict) -> None:
        self.commit(e, **{"as": alias(e["sha"])})
