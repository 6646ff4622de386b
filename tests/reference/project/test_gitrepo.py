"""Reading a real repository (created with git in tmp_path) and ingesting it."""
import pytest

from reference.project import GitError, ProjectMemory, ingest_history, read_repository
from reference.project.gitrepo import default_branch, read_commit


@pytest.fixture
def history_repo(repo):
    """main: c1, c2; feature (from c2): f1, f2; main: c3; merged: m (feature into main)."""
    shas = {"c1": repo.commit("Initial commit", {"README.md": "hello\n"})}
    shas["c2"] = repo.commit("Add db module\n\nWith a body line.", {"db.py": "x = 1\n", "README.md": "hi\n"})
    repo.git("checkout", "-q", "-b", "feature")
    shas["f1"] = repo.commit("Start fast insert", {"insert.py": "a\n"})
    shas["f2"] = repo.commit("Finish fast insert", {"insert.py": "b\n", "db.py": "x = 2\n"})
    repo.git("checkout", "-q", "main")
    shas["c3"] = repo.commit("Add cli", {"cli.py": "c\n"})
    repo.git("checkout", "-q", "-b", "wip")
    shas["w1"] = repo.commit("Unmerged idea", {"idea.txt": "?\n"})
    repo.git("checkout", "-q", "main")
    return repo, shas


def test_read_repository_labels_commits_by_branch(history_repo):
    repo, s = history_repo
    h = read_repository(repo.path)
    assert h.default_branch == "main"
    labels = {c.sha: c.branch for c in h.commits}
    assert labels == {s["c1"]: "main", s["c2"]: "main", s["c3"]: "main", s["f1"]: "feature", s["f2"]: "feature",
                      s["w1"]: "wip"}
    by_sha = {c.sha: c for c in h.commits}
    assert by_sha[s["c2"]].subject == "Add db module" and by_sha[s["c2"]].body == "With a body line."
    assert by_sha[s["c2"]].files == ("README.md", "db.py") and by_sha[s["c2"]].parents == (s["c1"],)
    assert by_sha[s["f2"]].git_time == repo.time - 120   # committed two steps before w1
    assert [(b.name, b.merge_base, b.commits) for b in h.branches] == [
        ("feature", s["c2"], (s["f1"], s["f2"])), ("wip", s["c3"], (s["w1"],))]


def test_merged_branch_commits_belong_to_main(history_repo):
    repo, s = history_repo
    repo.git("merge", "-q", "--no-ff", "-m", "Merge feature", "feature")
    h = read_repository(repo.path)
    labels = {c.sha: c.branch for c in h.commits}
    assert labels[s["f1"]] == labels[s["f2"]] == "main"
    merge = [c for c in h.commits if c.subject == "Merge feature"][0]
    assert len(merge.parents) == 2 and merge.files == ()


def test_ingest_then_reingest_after_merge_promotes_instead_of_duplicating(history_repo, store):
    repo, s = history_repo
    project = ProjectMemory.for_store(store)
    r1 = ingest_history(project, read_repository(repo.path))
    assert (r1.commits, r1.written, r1.branches) == (6, 6, 3)
    created = {e.metadata["commit_sha"]: e.created_at for e in project.memories()}
    git_times = {c.sha: c.git_time for c in read_repository(repo.path).commits}
    assert created == {k: float(v) for k, v in git_times.items()}   # written at the commit's time
    repo.git("merge", "-q", "--no-ff", "-m", "M", "feature")
    r2 = ingest_history(project, read_repository(repo.path))
    assert (r2.written, r2.duplicates, r2.promoted) == (1, 6, 2)
    assert project.gc(["main", "wip"]).deleted_memories == 0   # feature's commits now live on main


def test_default_branch_rules_and_errors(repo, tmp_path):
    repo.commit("one", {"a": "1"})
    repo.git("branch", "-m", "trunk")
    assert default_branch(repo.path) == "trunk"            # neither main nor master: the checked-out branch
    with pytest.raises(GitError, match="no local branch 'main'"):
        read_repository(repo.path, "main")
    with pytest.raises(GitError):
        read_repository(tmp_path / "nowhere")
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(GitError, match="rev-parse"):
        read_repository(plain)


def test_read_commit_reads_head_with_the_current_branch(history_repo):
    repo, s = history_repo
    c = read_commit(repo.path)
    assert (c.sha, c.branch, c.subject, c.files) == (s["c3"], "main", "Add cli", ("cli.py",))


def test_empty_repository_has_no_commits(repo):
    h = read_repository(repo.path)
    assert h.commits == [] and h.default_branch == "main"
