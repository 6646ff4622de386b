"""Project memory follows the branch checked out in the server's root repository (a real git repo)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from reference.mcp_server.git_head import GitHead
from tests.reference.mcp_server.conftest import open_server


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                          check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def repo(tmp_path):
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "a.py").write_text("print('a')\n")
    git(path, "add", "a.py")
    git(path, "commit", "-q", "-m", "add a")
    return path


def commit(repo: Path, name: str, message: str) -> str:
    (repo / name).write_text(f"# {message}\n")
    git(repo, "add", name)
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def test_search_and_stats_follow_a_checkout(repo, tmp_path):
    ctx, mcp = open_server(tmp_path / "data", root=repo)
    try:
        assert mcp.call("project_stats")["current_branch"] == "main"
        main_sha = git(repo, "rev-parse", "HEAD")
        mcp.call("project_record_commit", sha=main_sha, message="Add the billing invoice rounding", files=["a.py"])

        git(repo, "checkout", "-q", "-b", "feature")
        assert mcp.call("project_stats")["current_branch"] == "feature"     # no switch call: git said so
        sha = commit(repo, "b.py", "Fix the token refresh race in the auth cache")
        written = mcp.call("project_record_commit", sha=sha, message="Fix the token refresh race in the auth cache",
                           parent=main_sha, files=["b.py"])
        assert written["branch"] == "feature"
        note = mcp.call("project_placeholder", summary="auth cache token refresh: lock per user")
        assert note["branch"] == "feature"

        found = mcp.call("project_memory_search", query="token refresh race auth cache")
        assert {h["metadata"]["branch"] for h in found} == {"main", "feature"}
        assert any("token refresh" in h["text"] for h in found if h["metadata"]["branch"] == "feature")

        git(repo, "checkout", "-q", "main")
        on_main = mcp.call("project_memory_search", query="token refresh race auth cache")
        assert {h["metadata"]["branch"] for h in on_main} == {"main"}          # the feature's memories are not main's
        assert mcp.call("project_stats")["current_branch"] == "main"
        named = mcp.call("project_memory_search", query="token refresh race auth cache", branch="feature")
        assert "feature" in {h["metadata"]["branch"] for h in named}          # an explicit branch wins
    finally:
        mcp.close()
        ctx.close()


def test_without_following_the_stored_branch_stays(repo, tmp_path):
    ctx, mcp = open_server(tmp_path / "data", root=repo, follow_git=False)
    try:
        git(repo, "checkout", "-q", "-b", "feature")
        assert mcp.call("project_stats")["current_branch"] == "main"
    finally:
        mcp.close()
        ctx.close()


def test_git_head_reads_branches_worktrees_and_detached_heads(repo, tmp_path):
    head = GitHead(repo)
    assert head.branch() == "main"
    git(repo, "checkout", "-q", "-b", "feature/login")
    assert head.branch() == "feature/login"
    git(repo, "checkout", "-q", "--detach")
    assert head.branch() is None
    git(repo, "checkout", "-q", "main")
    worktree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(worktree))
    assert (worktree / ".git").is_file()                                    # "gitdir: ..." pointer
    assert GitHead(worktree).branch() == "side"
    assert GitHead(tmp_path / "nothing").branch() is None
    (repo / "sub").mkdir()
    assert GitHead(repo / "sub").branch() is None                           # parents are not searched


def test_a_git_pointer_leading_outside_the_root_is_not_followed(tmp_path):
    """Issue 25: a planted `.git` file (`gitdir: /elsewhere`) made project_stats read a HEAD outside the root."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "HEAD").write_text("ref: refs/heads/outside-secret-branch\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / ".git").write_text(f"gitdir: {elsewhere}\n")
    assert GitHead(root).branch() is None
    (root / ".git").write_text("gitdir: ../elsewhere\n")                   # relative, through '..'
    assert GitHead(root).branch() is None
    (root / ".git").unlink()
    (root / ".git").symlink_to(elsewhere, target_is_directory=True)        # a symlinked .git folder
    assert GitHead(root).branch() is None
    (root / ".git").unlink()
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").symlink_to(elsewhere / "HEAD")               # HEAD itself a symlink out
    assert GitHead(root).branch() is None
    ctx, mcp = open_server(tmp_path / "data", root=root)
    try:
        (root / ".git" / "HEAD").unlink()
        (root / ".git").rmdir()
        (root / ".git").write_text(f"gitdir: {elsewhere}\n")
        assert "outside-secret-branch" not in str(mcp.call("project_stats"))
    finally:
        mcp.close()
        ctx.close()
