"""`codemem-bench ingest-git` on a real repository created with `git init`, and on a data set."""
import pytest

from bench.cli.main import main
from reference.clock import LogicalClock
from reference.project import ProjectMemory
from reference.store import MemoryStore

from tests.reference.project.git_repo import Repo
from tests.reference.project.history_data import dataset  # noqa: F401  (fixture)


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "repo").mkdir()
    r = Repo(tmp_path / "repo")
    r.commit("Initial", {"README.md": "x\n"})
    r.commit("Add db", {"db.py": "x = 1\n"})
    r.git("checkout", "-q", "-b", "feature")
    r.commit("Feature work", {"f.py": "y\n"})
    r.git("checkout", "-q", "main")
    r.commit("Add cli", {"cli.py": "z\n"})
    return r


def memories(data):
    store = MemoryStore.open(data, clock=LogicalClock(0.0))
    try:
        return {e.metadata["commit_sha"]: e.metadata["branch"] for e in ProjectMemory.for_store(store).memories()}
    finally:
        store.close()


def test_ingest_a_repository_twice(repo, tmp_path, capsys):
    data = tmp_path / "data"
    assert main(["ingest-git", str(repo.path), "--data", str(data)]) == 0
    out = capsys.readouterr()
    assert "ingested 4 commits on 2 branches (default main): 4 new memories, 0 duplicates skipped" in out.out
    assert "ingest: commit 4/4," in out.err
    assert sorted(memories(data).values()) == ["feature", "main", "main", "main"]
    assert main(["ingest-git", str(repo.path), "--data", str(data), "--quiet"]) == 0
    assert "0 new memories, 4 duplicates skipped" in capsys.readouterr().out


def test_gc_after_a_branch_is_deleted(repo, tmp_path, capsys):
    data = tmp_path / "data"
    assert main(["ingest-git", str(repo.path), "--data", str(data), "--quiet"]) == 0
    repo.git("branch", "-D", "feature")
    assert main(["ingest-git", str(repo.path), "--data", str(data), "--quiet", "--gc"]) == 0
    assert "gc: deleted 1 memories of 1 deleted branch(es)" in capsys.readouterr().out
    assert sorted(memories(data).values()) == ["main", "main", "main"]


def test_install_hook_and_placeholder(repo, tmp_path, capsys):
    data = tmp_path / "data"
    assert main(["ingest-git", "--install-hook", str(repo.path), "--data", str(data)]) == 0
    assert "installed" in capsys.readouterr().out
    assert main(["ingest-git", str(repo.path), "--data", str(data), "--placeholder", "s1",
                 "--summary", "Asked about the cli"]) == 0
    assert "placeholder mem:" in capsys.readouterr().out
    sha = repo.commit("Improve cli", {"cli.py": "zz\n"})
    store = MemoryStore.open(data, clock=LogicalClock(0.0))
    try:
        sessions = [e for e in ProjectMemory.for_store(store).memories() if e.metadata["kind"] == "session"]
        assert [e.metadata["commit_sha"] for e in sessions] == [sha]
    finally:
        store.close()


def test_ingest_a_dataset(dataset, tmp_path, capsys):  # noqa: F811
    assert main(["ingest-git", "--dataset", str(dataset), "--data", str(tmp_path / "d"), "--quiet"]) == 0
    assert "ingested 5 commits on 4 branches (default main): 5 new memories" in capsys.readouterr().out


@pytest.mark.parametrize("argv,message", [
    (["--dataset", "x", "repo"], "not both"),
    ([], "give a repository path"),
    (["--dataset", "x", "--install-hook"], "need a repository"),
    (["repo", "--placeholder", "s"], "--summary"),
])
def test_bad_arguments_exit_2(argv, message, tmp_path, capsys):
    assert main(["ingest-git", "--data", str(tmp_path / "d"), *argv]) == 2
    assert message in capsys.readouterr().err


def test_not_a_repository_exits_2_naming_it(tmp_path, capsys):
    plain = tmp_path / "plain"
    plain.mkdir()
    assert main(["ingest-git", str(plain), "--data", str(tmp_path / "d")]) == 2
    assert "plain" in capsys.readouterr().err
