"""Read a real git repository's history with `git` subprocess calls (read-only commands only).

- branches: local branches (`refs/heads`); the default branch is the one
  given, else `main`, else `master`, else the checked-out branch, else the
  first by name;
- commits of the default branch: `git log --reverse --topo-order <default>`
  (every commit reachable from it, merged branches included);
- commits of each other branch: `git log --reverse --topo-order <default>..<branch>`,
  in branch name order; a commit already claimed by an earlier branch is
  counted in `History.shared` and not listed again;
- files: `--numstat --no-renames` against the first parent (merge commits
  list none, as `git log` shows no diff for them by default).
Messages are decoded as UTF-8 with replacement characters for bad bytes.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

from reference.project.commit import CommitInfo
from reference.project.errors import GitError
from reference.project.history import BranchInfo, History

_REC, _FLD, _END = "\x1e", "\x1f", "\x1d"
_FORMAT = f"--format={_REC}%H{_FLD}%P{_FLD}%ct{_FLD}%s{_FLD}%b{_END}"


def git(repo: str | Path, *args: str, check: bool = True) -> str:
    """Run `git -C repo args...`; `GitError` with the command and git's message on failure."""
    cmd = ["git", "-C", str(repo), *args]
    try:
        proc = subprocess.run(cmd, capture_output=True, check=False)
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH") from None
    if check and proc.returncode != 0:
        msg = proc.stderr.decode("utf-8", "replace").strip() or f"exit status {proc.returncode}"
        raise GitError(f"{' '.join(cmd)}: {msg}")
    return proc.stdout.decode("utf-8", "replace")


def check_repository(repo: str | Path) -> Path:
    """The repository's top-level folder; `GitError` if `repo` is not inside a git work tree."""
    path = Path(repo)
    if not path.is_dir():
        raise GitError(f"{path}: not a directory")
    return Path(git(path, "rev-parse", "--show-toplevel").strip())


def local_branches(repo: str | Path) -> dict[str, str]:
    """Branch name -> tip sha of every local branch."""
    out = git(repo, "for-each-ref", "--format=%(refname:short)%00%(objectname)", "refs/heads")
    return dict(line.split("\0", 1) for line in out.splitlines() if "\0" in line)


def current_branch(repo: str | Path) -> str | None:
    """The checked-out branch, None when HEAD is detached."""
    return git(repo, "branch", "--show-current").strip() or None


def default_branch(repo: str | Path, branches: dict[str, str] | None = None) -> str | None:
    """The default branch by the rule of the module docstring; None in a repository without branches."""
    branches = local_branches(repo) if branches is None else branches
    for name in ("main", "master", current_branch(repo)):
        if name and name in branches:
            return name
    return min(branches) if branches else None


def parse_log(text: str, branch: str) -> list[CommitInfo]:
    """Commits from `git log` output in `_FORMAT` with `--numstat` lines after each record."""
    out = []
    for record in text.split(_REC)[1:]:
        head, _, stats = record.partition(_END)
        sha, parents, ctime, subject, body = head.split(_FLD, 4)
        files = []
        for line in stats.splitlines():
            parts = line.split("\t", 2)
            if len(parts) == 3 and parts[2]:
                files.append(parts[2])
        out.append(CommitInfo(sha, tuple(parents.split()), branch, int(ctime), subject, body.strip("\n"),
                              tuple(files)))
    return out


def log(repo: str | Path, rev_range: str, branch: str) -> list[CommitInfo]:
    """The commits of `rev_range`, oldest first (parents before children)."""
    return parse_log(git(repo, "log", "--reverse", "--topo-order", "--no-renames", "--numstat", _FORMAT,
                         rev_range, "--"), branch)


def read_commit(repo: str | Path, rev: str = "HEAD", branch: str | None = None) -> CommitInfo:
    """One commit (default: HEAD) labelled with `branch` (default: the checked-out branch, or `HEAD`)."""
    label = branch or current_branch(repo) or "HEAD"
    found = parse_log(git(repo, "log", "-1", "--no-renames", "--numstat", _FORMAT, rev, "--"), label)
    if not found:
        raise GitError(f"{repo}: no commit {rev!r}")
    return found[0]


def read_repository(repo: str | Path, default: str | None = None) -> History:
    """The repository's history (module docstring); an empty `History` for a repository without commits."""
    top = check_repository(repo)
    branches = local_branches(top)
    if default is not None and default not in branches:
        raise GitError(f"{top}: no local branch {default!r} (branches: {', '.join(sorted(branches)) or 'none'})")
    name = default or default_branch(top, branches)
    if name is None:
        return History(default or "main")
    history = History(name, log(top, name, name))
    claimed = {c.sha for c in history.commits}
    for other in sorted(b for b in branches if b != name):
        base = git(top, "merge-base", name, other, check=False).strip() or None
        own = log(top, f"{name}..{other}", other)
        fresh = [c for c in own if c.sha not in claimed]
        history.shared += len(own) - len(fresh)
        claimed.update(c.sha for c in fresh)
        history.commits += fresh
        history.branches.append(BranchInfo(other, branches[other], base, tuple(c.sha for c in own)))
    return history
