"""The post-commit hook in a real repository: a real `git commit` runs it and binds the placeholder."""
import os
import shlex
import stat
import sys

import pytest

from reference.clock import LogicalClock
from reference.project import HookError, ProjectMemory
from reference.project.hook import MARKER, hook_script, install_hook, record_placeholder
from reference.store import MemoryStore


def open_project(data):
    store = MemoryStore.open(data, clock=LogicalClock(0.0))
    return store, ProjectMemory.for_store(store)


def test_real_commit_runs_the_hook_and_binds_the_placeholder(repo, tmp_path):
    data = tmp_path / "data"
    first = repo.commit("Initial", {"README.md": "x\n"})
    path = install_hook(repo.path, data)
    assert path.name == "post-commit" and path.stat().st_mode & stat.S_IXUSR and MARKER in path.read_text()
    p = record_placeholder(repo.path, data, "session-1", "Asked o3 how to parse CSV headers",
                           tool_name="chat_with_o3", clock=LogicalClock(repo.time + 10))
    assert p.branch == "main"
    second = repo.commit("Parse CSV headers", {"csv.py": "import csv\n"})   # git runs the hook
    store, project = open_project(data)
    try:
        meta = project.get(p.memory_id).metadata
        assert (meta["placeholder"], meta["commit_sha"], meta["prev_commit_sha"], meta["files_changed"]) == \
               (False, second, first, ["csv.py"])
        commits = {e.metadata["commit_sha"]: e for e in project.memories() if e.metadata["kind"] == "commit"}
        assert set(commits) == {second}                  # the first commit predates the hook
        assert commits[second].created_at == repo.time   # written at the commit's time
        assert commits[second].metadata["branch"] == "main"
    finally:
        store.close()


def test_hook_on_a_branch_labels_the_commit_with_it(repo, tmp_path):
    data = tmp_path / "data"
    repo.commit("Initial", {"a": "1"})
    install_hook(repo.path, data)
    repo.git("checkout", "-q", "-b", "feature/x")
    sha = repo.commit("On the branch", {"b": "2"})
    store, project = open_project(data)
    try:
        (entry,) = list(project.memories())
        assert entry.metadata["commit_sha"] == sha and entry.metadata["branch"] == "feature/x"
        assert project.default_branch == "main"
    finally:
        store.close()


def test_a_foreign_hook_is_not_overwritten(repo, tmp_path):
    hooks = repo.path / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "post-commit").write_text("#!/bin/sh\necho mine\n")
    with pytest.raises(HookError, match="already exists") as raised:
        install_hook(repo.path, tmp_path / "data")
    # the line to chain names the interpreter that is running, not a bare `python` that may not exist
    assert f"{shlex.quote(sys.executable)} -m reference.project.hook --data" in str(raised.value)
    assert " python -m" not in str(raised.value)
    assert (hooks / "post-commit").read_text() == "#!/bin/sh\necho mine\n"
    install_hook(repo.path, tmp_path / "data", force=True)
    assert MARKER in (hooks / "post-commit").read_text()
    install_hook(repo.path, tmp_path / "data")          # our own hook may be rewritten


def test_hook_script_quotes_paths(tmp_path):
    text = hook_script(tmp_path / "my data", python="/usr/bin/python3")
    assert text.startswith("#!/bin/sh\n") and "/usr/bin/python3 -m reference.project.hook --data" in text
    assert f"--data '{(tmp_path / 'my data').resolve()}'" in text and text.rstrip().endswith("exit 0")


def test_a_failing_hook_does_not_fail_the_commit(repo, tmp_path):
    repo.commit("Initial", {"a": "1"})
    blocker = tmp_path / "blocker"
    blocker.write_text("not a directory")
    install_hook(repo.path, blocker / "data")          # the store cannot be created under a file
    sha = repo.commit("Still committed", {"b": "2"})
    assert repo.git("rev-parse", "HEAD") == sha and os.path.exists(repo.path / "b")
