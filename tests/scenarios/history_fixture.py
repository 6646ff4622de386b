"""A small hand-made format-2 history folder (no real repository): a package `pkg`, a rename, a branch, merges."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path


def sha(n: int) -> str:
    return hashlib.sha1(str(n).encode()).hexdigest()


def patch_for(files: list[dict], deleted: set[str] = frozenset()) -> str:
    out = []
    for f in files:
        out.append(f"diff --git a/{f['path']} b/{f['path']}")
        if f["path"] in deleted:
            out.append("deleted file mode 100644")
        out.append(f"@@ -1,2 +1,2 @@ def handler_{f['path'].split('/')[-1].split('.')[0]}():")
        out += ["-old line"] * min(f["deleted"], 2) + ["+new line"] * min(f["added"], 2)
    return "\n".join(out) + "\n"


def commit(n: int, subject: str, files: list[dict], parents=None, body: str = "", deleted=frozenset()) -> dict:
    return {"sha": sha(n), "parents": parents if parents is not None else ([sha(n - 1)] if n > 1 else []),
            "author_time": 1_600_000_000 + 3600 * n, "commit_time": 1_600_000_000 + 3600 * n, "subject": subject,
            "body": body, "files": files, "patch": patch_for(files, set(deleted))}


def f(path: str, added: int, deleted: int = 0) -> dict:
    return {"path": path, "added": added, "deleted": deleted}


TOPICS = ["parser", "retry logic", "cache layer", "cli output", "timeouts", "encoding", "logging", "auth tokens"]


def make_history(folder: Path, n: int = 60, default: str = "trunk") -> Path:
    """Write `folder` in format 2 with n default-branch commits; returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    commits = [commit(1, "Initial import of the toolkit", [f("pkg/__init__.py", 10), f("pkg/core.py", 50),
                                                           f("pkg/io/__init__.py", 0), f("tests/test_core.py", 20),
                                                           f("docs/index.md", 5)])]
    blame = []
    core = "pkg/core.py"
    for i in range(2, n + 1):
        topic = TOPICS[i % len(TOPICS)]
        if i == n // 2:   # move core.py into pkg/engine/ (a rename: deleted plus added, same base name)
            commits.append(commit(i, "Move the core module", [f(core, 0, 50 + 3 * (i - 2)),
                                                               f("pkg/engine/core.py", 50 + 3 * (i - 2))],
                                  deleted={core}))
            core = "pkg/engine/core.py"
            continue
        if i % 10 == 0:   # a merge: never a memory
            commits.append(commit(i, f"Merge pull request #{i}", [], parents=[sha(i - 1), sha(1000 + i)]))
            commits[-1]["patch"] = ""
            continue
        files = [f(core, 3, 0 if i < 4 else 1), f(f"pkg/{topic.split()[0]}.py", 4, 0 if i < 10 else 2),
                 f("tests/test_core.py", 2, 0)]
        commits.append(commit(i, f"Improve {topic} handling, round {i}", files,
                              body=f"The {topic} path needed work: step {i}."))
        if i >= 4:
            origin = max(2, i - 3) if (i - 3) % 10 else i - 4
            if origin != n // 2:
                blame.append({"sha": sha(i), "origins": {sha(origin): 1 + i % 12},
                              "by_file": {core: {sha(origin): 1 + i % 12}}})
    base = commits[n // 3]
    branch_shas = [sha(5000 + k) for k in range(4)]
    branch_commits = []
    for k, s in enumerate(branch_shas):
        c = commit(5000 + k, f"Branch work on the retry backoff, part {k}", [f("pkg/retry.py", 5, 1)],
                   parents=[branch_shas[k - 1] if k else base["sha"]], body="Exponential backoff with jitter.")
        c["sha"], c["commit_time"] = s, base["commit_time"] + 60 * (k + 1)
        branch_commits.append(c)
    branches = [{"name": "feature/retry", "tip": branch_shas[-1], "merge_base": base["sha"], "commits": branch_shas},
                {"name": "orphan-docs", "tip": branch_shas[0], "merge_base": None, "commits": [branch_shas[0]]}]
    meta = {"source": "example.org/toolkit", "format": 2, "default_branch": default, "tip": commits[-1]["sha"],
            "commits": len(commits), "branch_commits": len(branch_commits), "branches": len(branches),
            "patch_cap_bytes": 6000}
    lines = lambda rows: "".join(json.dumps(r) + "\n" for r in rows)  # noqa: E731
    (folder / "commits.jsonl").write_text(lines(commits))
    (folder / "branch_commits.jsonl").write_text(lines(branch_commits))
    (folder / "branches.jsonl").write_text(lines(branches))
    (folder / "blame.jsonl").write_text(lines(blame))
    (folder / "meta.json").write_text(json.dumps(meta))
    return folder
