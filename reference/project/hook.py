"""The git post-commit hook: record HEAD's commit and bind the placeholders waiting for it.

Install it in a repository (once):

    codemem-bench ingest-git --install-hook REPO --data DATA_DIR
    # or by hand: python3 -m reference.project.hook --print-script --data DATA_DIR > REPO/.git/hooks/post-commit
    #             chmod +x REPO/.git/hooks/post-commit

After every `git commit` the hook runs

    python3 -m reference.project.hook --data DATA_DIR --repo <top-level>

which opens the store, writes the new commit's memory at the commit's time
(a `LogicalClock` set to the committer time) and binds every placeholder
whose `prev_commit_sha` is the commit's parent. A failing hook prints one
line on stderr and never fails the commit (git ignores a post-commit hook's
status anyway). An existing post-commit hook that is not ours is never
overwritten: `install_hook` raises `HookError` and says how to chain it.
"""
from __future__ import annotations

import argparse
import shlex
import stat
import sys
from pathlib import Path

from reference.clock import Clock, LogicalClock, SystemClock
from reference.errors import StoreError
from reference.project.errors import HookError
from reference.project.gitrepo import check_repository, current_branch, default_branch, git, read_commit
from reference.project.layer import ProjectMemory, WriteResult

MARKER = "# codemem-bench project memory hook"


def hook_command(data_dir: str | Path, *, python: str | None = None, default: str | None = None) -> str:
    """The shell line the hook runs, with the running interpreter (`sys.executable`) unless `python` is given."""
    cmd = [python or sys.executable or "python3", "-m", "reference.project.hook",
           "--data", str(Path(data_dir).resolve())]
    if default:
        cmd += ["--default-branch", default]
    return " ".join(shlex.quote(x) for x in cmd) + ' --repo "$(git rev-parse --show-toplevel)"'


def hook_script(data_dir: str | Path, *, python: str | None = None, default: str | None = None) -> str:
    """The text of the post-commit hook for a store in `data_dir` (an absolute path is written)."""
    line = hook_command(data_dir, python=python, default=default)
    return (f"#!/bin/sh\n{MARKER} (installed by `codemem-bench ingest-git --install-hook`)\n"
            f'{line} '
            '|| echo "codemem-bench: project memory hook failed; the commit is kept" >&2\nexit 0\n')


def hooks_dir(repo: str | Path) -> Path:
    """Where git looks for this repository's hooks (honours core.hooksPath)."""
    top = check_repository(repo)
    path = Path(git(top, "rev-parse", "--git-path", "hooks").strip())
    return path if path.is_absolute() else top / path


def install_hook(repo: str | Path, data_dir: str | Path, *, force: bool = False) -> Path:
    """Write the post-commit hook into `repo`; returns its path.

    Replaces a hook this function wrote before; any other existing hook is
    kept and `HookError` raised, unless `force`.
    """
    top = check_repository(repo)
    target = hooks_dir(top) / "post-commit"
    if target.exists() and MARKER not in target.read_text(encoding="utf-8", errors="replace") and not force:
        raise HookError(f"{target} already exists and is not the codemem-bench hook; add this line to it "
                        f"instead: {hook_command(data_dir, default=default_branch(top))} "
                        "(or pass --force to replace it)")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(hook_script(data_dir, default=default_branch(top)), encoding="utf-8")
    target.chmod(target.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return target


def run_post_commit(repo: str | Path, data_dir: str | Path, *, default: str | None = None) -> WriteResult:
    """Record HEAD of `repo` in the store at `data_dir` and bind its placeholders."""
    from reference.store import MemoryStore

    top = check_repository(repo)
    commit = read_commit(top, "HEAD")
    store = MemoryStore.open(data_dir, clock=LogicalClock(float(commit.git_time)))
    try:
        project = ProjectMemory.for_store(store)
        if default and project.default_branch != default:
            project.set_default_branch(default)
        return project.record_commit(commit)
    finally:
        store.close()


def record_placeholder(repo: str | Path, data_dir: str | Path, session_id: str, summary: str, *,
                       tool_name: str | None = None, clock: Clock | None = None) -> WriteResult:
    """Seed 002 §1 phase 1 from outside an MCP server: a placeholder at `repo`'s HEAD on its current branch."""
    from reference.store import MemoryStore

    top = check_repository(repo)
    head = git(top, "rev-parse", "--verify", "-q", "HEAD", check=False).strip() or None
    branch = current_branch(top) or "HEAD"
    store = MemoryStore.open(data_dir, clock=clock or SystemClock())
    try:
        return ProjectMemory.for_store(store).create_placeholder(session_id, summary, tool_name=tool_name,
                                                                 branch=branch, prev_commit_sha=head)
    finally:
        store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m reference.project.hook", description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="the store's data directory")
    parser.add_argument("--repo", default=".", help="the repository (default: the current directory)")
    parser.add_argument("--default-branch", default=None, help="the project's default branch")
    parser.add_argument("--print-script", action="store_true", help="print the hook script and exit")
    args = parser.parse_args(argv)
    if args.print_script:
        sys.stdout.write(hook_script(args.data, default=args.default_branch))
        return 0
    try:
        result = run_post_commit(args.repo, args.data, default=args.default_branch)
    except (StoreError, OSError) as exc:
        print(f"codemem-bench hook: {exc}", file=sys.stderr)
        return 1
    state = "already stored" if result.duplicate else "stored"
    print(f"codemem-bench: commit memory {result.memory_id} {state} on {result.branch}; "
          f"{len(result.bound)} placeholder(s) bound", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
