"""Extract a format-2 history folder from a git repository (read-only `git` subprocess calls).

Same shape as the shared data sets: every commit the default branch reaches,
oldest first in the order of `git rev-list --reverse --topo-order` (the work
commits of merged pull requests included, as in the shared data: a first-parent
walk would keep only the merges of a repository that merges its pull requests),
each with its numstat and its patch against the first parent (`-U2`, of the
text files alone (`is_text_path`), cut at PATCH_CAP characters, empty for
merges); branches (local heads other than the default) with the commits the
default branch lacks; and blame: for each non-merge commit, `git blame -w` in
the parent of every old-side line range its hunks delete or rewrite in a text
file (the first BLAME_MAX_FILES such files), counted per origin commit.

Paths are git's own bytes decoded as UTF-8 (`core.quotePath` off), not the
quoted form git prints by default for other characters, so that a path names
the same file in every command.

A submodule's entry (a gitlink, mode 160000) is listed like a binary file, with
null line counts and no blame: its "lines" are commit ids of another repository.
"""
from __future__ import annotations

import json
import re
import subprocess
from collections import Counter, defaultdict
from pathlib import Path, PurePosixPath

from .layout import OTHER_SOURCE

PATCH_CAP = 6000
# The files whose lines count as text: the suffixes of every patched and snapshot file in the shared data sets
# (ours to match: a patch or a blame of `.gitignore`, `MANIFEST.in`, `LICENSE`, `.svg` or `uv.lock` is in none of
# them), and the source files of languages those three Python projects lack (a repository in C or TypeScript
# keeps its code's lines). scenarios/README.md, "History scenarios".
TEXT_SUFFIXES = frozenset({
    ".py", ".pyi", ".md", ".rst", ".txt", ".yml", ".yaml", ".toml", ".ini", ".cfg", ".json", ".css",
    ".html", ".js", ".sh",                                               # in the shared data
    ".pyx", ".sql", ".r", *OTHER_SOURCE})
BLAME_MAX_FILES = 30   # text files blamed per commit, the first in numstat order (the shared data's cap: attrs'
                       # "Drop Python 2.7" rewrites 42, and its blame names the first 30)
_PATHS_PER_DIFF = 64
_RANGES_PER_BLAME = 256
_SEP = "\x1e"
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", re.M)


def is_text_path(path: str) -> bool:
    """A file whose lines are patched and blamed: a suffix of TEXT_SUFFIXES (lower case)."""
    return PurePosixPath(path).suffix.lower() in TEXT_SUFFIXES


def _git(repo: Path, *args: str) -> str:
    out = subprocess.run(["git", "-C", str(repo), "-c", "core.quotePath=false", *args], capture_output=True,
                         text=True, errors="replace")
    if out.returncode != 0:
        raise ValueError(f"{repo}: git {' '.join(args[:2])} failed: {out.stderr.strip()[:200]}")
    return out.stdout


def _commit(repo: Path, sha: str) -> dict:
    meta = _git(repo, "show", "-s", f"--format=%H%x1e%P%x1e%at%x1e%ct%x1e%s%x1e%b", sha)
    h, parents, at, ct, subject, body = meta.split(_SEP, 5)
    parents = parents.split()
    files, patch = [], ""
    if len(parents) <= 1:
        base = parents[0] if parents else "4b825dc642cb6eb9a060e54bf8d69288fbee4904"   # the empty tree
        # one diff for both forms: its `--raw` lines (they start with ":") name the gitlinks, then `--numstat`'s
        raw, numstat = [], []
        for line in _git(repo, "diff", "--no-renames", "--raw", "--numstat", base, sha).splitlines():
            if line:
                (raw if line.startswith(":") else numstat).append(line)
        links = _gitlinks(raw)
        for line in numstat:
            add, dele, path = line.split("\t", 2)
            text = add != "-" and path not in links
            files.append({"path": path, "added": int(add) if text else None,
                          "deleted": int(dele) if text else None})
        texts = [f["path"] for f in files if f["added"] is not None and is_text_path(f["path"])]
        # the text files' diff alone, as the shared data's patches are; a few files at a time, in git's order,
        # until the cap: a commit of thousands of files neither overflows the argument list nor is diffed whole
        for start in range(0, len(texts), _PATHS_PER_DIFF):
            patch += _git(repo, "diff", "--no-renames", "-U2", base, sha, "--",
                          *(f":(literal){t}" for t in texts[start:start + _PATHS_PER_DIFF]))
            if len(patch) >= PATCH_CAP:
                break
        patch = patch[:PATCH_CAP]
    return {"sha": h, "parents": parents, "author_time": int(at), "commit_time": int(ct), "subject": subject,
            "body": body.strip(), "files": files, "patch": patch}


def _gitlinks(raw: list[str]) -> set[str]:
    """The paths of `git diff --raw` lines whose old or new mode is a gitlink (a submodule)."""
    links = set()
    for line in raw:
        head, _, path = line.partition("\t")
        modes = head.split(" ")[:2]
        if any(m.lstrip(":") == "160000" for m in modes):
            links.add(path)
    return links


def _blame(repo: Path, c: dict) -> dict | None:
    if len(c["parents"]) != 1:
        return None
    parent = c["parents"][0]
    by_file: dict[str, Counter] = defaultdict(Counter)
    blamed = [f for f in c["files"] if f["deleted"] and is_text_path(f["path"])][:BLAME_MAX_FILES]
    for f in blamed:
        diff = _git(repo, "diff", "--no-renames", "-U0", parent, c["sha"], "--", f["path"])
        ranges = []   # each hunk's old side, one `-L` each: one blame of the file (a process per hunk was most
        for m in _HUNK.finditer(diff):   # of an extraction's time; the lines' origins are the same)
            start, n = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
            if n:
                ranges += ["-L", f"{start},{start + n - 1}"]
        for start in range(0, len(ranges), 2 * _RANGES_PER_BLAME):   # bounded argument lists
            porcelain = _git(repo, "blame", "-w", "--porcelain", *ranges[start:start + 2 * _RANGES_PER_BLAME],
                             parent, "--", f["path"])
            for line in porcelain.splitlines():
                head = line.split(" ")
                if len(head) >= 3 and re.fullmatch(r"[0-9a-f]{40}", head[0]) and head[2].isdigit():
                    by_file[f["path"]][head[0]] += 1
    if not by_file:
        return None
    origins = Counter()
    for counts in by_file.values():
        origins.update(counts)
    return {"sha": c["sha"], "origins": dict(origins), "by_file": {p: dict(v) for p, v in by_file.items()}}


def extract(repo: str | Path, out: str | Path, default: str | None = None) -> Path:
    """Write `out` (commits, branch_commits, branches, blame, meta) from the git repository `repo`."""
    repo, out = Path(repo), Path(out)
    default = default or _git(repo, "symbolic-ref", "--short", "HEAD").strip()
    shas = _git(repo, "rev-list", "--reverse", "--topo-order", default).split()
    commits = [_commit(repo, s) for s in shas]
    on_default = set(_git(repo, "rev-list", default).split())
    branches, branch_commits = [], {}
    for name in sorted(_git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads").split()):
        if name == default:
            continue
        own = _git(repo, "rev-list", "--reverse", "--topo-order", name, f"^{default}").split()
        try:
            base = _git(repo, "merge-base", default, name).strip() or None
        except ValueError:   # no history in common
            base = None
        branches.append({"name": name, "tip": _git(repo, "rev-parse", name).strip(), "merge_base": base,
                         "commits": own})
        for s in own:
            if s not in branch_commits and s not in on_default:
                branch_commits[s] = _commit(repo, s)
    blame = [b for b in (_blame(repo, c) for c in commits) if b]
    out.mkdir(parents=True, exist_ok=True)
    lines = lambda rows: "".join(json.dumps(r) + "\n" for r in rows)  # noqa: E731
    (out / "commits.jsonl").write_text(lines(commits))
    (out / "branch_commits.jsonl").write_text(lines(branch_commits.values()))
    (out / "branches.jsonl").write_text(lines(branches))
    (out / "blame.jsonl").write_text(lines(blame))
    (out / "meta.json").write_text(json.dumps({
        "source": str(repo.resolve()), "format": 2, "default_branch": default, "tip": shas[-1] if shas else None,
        "commits": len(commits), "branch_commits": len(branch_commits), "branches": len(branches),
        "patch_cap_bytes": PATCH_CAP}, indent=2))
    return out
