"""Reading a history data set: default-branch commits as given, branch commits synthesised as documented."""
import json

import pytest

from reference.project.dataset import read_dataset, topic_words
from reference.project.errors import DatasetError

from tests.reference.project.history_data import main_commit, sha, write_dataset


def test_default_branch_commits_are_read_as_given(dataset):
    h = read_dataset(dataset)
    main = [c for c in h.commits if c.branch == "main"]
    assert [c.sha for c in main] == [sha("1"), sha("2"), sha("3")]
    assert main[2].parents == (sha("2"),) and main[2].git_time == 150 and main[2].files == ("cli.py", "db.py")
    assert not any(c.synthetic for c in main)
    assert h.default_branch == "main" and [b.name for b in h.branches] == ["feature/fast-insert", "copy", "empty"]


def test_branch_commits_are_synthesised_from_name_merge_base_and_nearby_files(dataset):
    h = read_dataset(dataset)
    a, b = [c for c in h.commits if c.branch == "feature/fast-insert"]
    assert a.synthetic and a.files == ()
    assert a.parents == (sha("2"),) and b.parents == (sha("a"),)
    assert (a.git_time, b.git_time) == (201, 202)            # merge base time + i
    assert a.subject == "Work on branch feature/fast-insert: feature fast insert"
    # files of the merge base and the commits before it: README.md twice, db.py once
    assert a.body == (f'Commit 1 of 2 on feature/fast-insert, branched from main at {sha("2")[:12]} ("Add db").\n'
                      "Files near the branch point: README.md, db.py")


def test_a_sha_listed_by_two_branches_belongs_to_the_first(dataset):
    h = read_dataset(dataset)
    assert [c.sha for c in h.commits if c.branch == "copy"] == []
    assert h.shared == 1
    assert len({c.sha for c in h.commits}) == len(h.commits) == 5


def test_time_order_never_puts_a_commit_before_its_parent(dataset):
    order = [c.sha for c in read_dataset(dataset).in_time_order()]
    # by time alone "3" (150) would precede "2" (200); a, b (201, 202) follow "2"
    assert order == [sha("1"), sha("2"), sha("3"), sha("a"), sha("b")]


@pytest.mark.parametrize("name,words", [
    ("claude/add-type-hints-07PAy", ["claude", "add", "type", "hints"]),
    ("claude/4-0-release-review-nrt5l4", ["claude", "4", "0", "release", "review"]),
    ("fix_for_pragma", ["fix", "for", "pragma"]),
    ("python-3.12", ["python", "3", "12"]),
])
def test_topic_words_drop_generated_ids(name, words):
    assert topic_words(name) == words


def test_errors_name_file_line_and_field(tmp_path, dataset):
    lines = (dataset / "commits.jsonl").read_text().splitlines()
    bad = json.loads(lines[1])
    bad["commit_time"] = "yesterday"
    (dataset / "commits.jsonl").write_text("\n".join([lines[0], json.dumps(bad), lines[2]]) + "\n")
    with pytest.raises(DatasetError, match=r"commits\.jsonl:2: commit_time"):
        read_dataset(dataset)


def test_unknown_merge_base_and_missing_files_are_errors(tmp_path):
    ds = write_dataset(tmp_path / "x", [main_commit("1", None, 1, "I", [])],
                       [{"name": "f", "tip": sha("a"), "merge_base": sha("9"), "commits": [sha("a")]}])
    with pytest.raises(DatasetError, match=r"branches\.jsonl:1: merge_base"):
        read_dataset(ds)
    (ds / "meta.json").unlink()
    with pytest.raises(DatasetError, match="meta.json"):
        read_dataset(ds)


def _orphan_dataset(folder):
    return write_dataset(folder, [main_commit("1", None, 100, "Init", ["a.py"]),
                                  main_commit("2", "1", 200, "Add b", ["b.py"])],
                         [{"name": "gh-pages", "tip": sha("e"), "merge_base": None, "commits": [sha("d"), sha("e")]}])


def test_a_branch_without_merge_base_is_an_unrelated_history(tmp_path):
    h = read_dataset(_orphan_dataset(tmp_path / "x"))
    assert [(b.name, b.merge_base) for b in h.branches] == [("gh-pages", None)]
    d, e = [c for c in h.commits if c.branch == "gh-pages"]
    assert d.parents == () and e.parents == (sha("d"),)
    assert (d.git_time, e.git_time) == (201, 202)  # after the default branch's last commit
    assert d.body == "Commit 1 of 2 on gh-pages, an unrelated history (no merge base with main)."
    assert [c.sha for c in h.in_time_order()] == [sha("1"), sha("2"), sha("d"), sha("e")]


@pytest.mark.parametrize("name", ["sqlite-utils", "httpx", "attrs"])
def test_the_shipped_datasets_read(name):
    """httpx has branches with a null merge_base (gh-pages, v1, ...)."""
    from pathlib import Path

    h = read_dataset(Path(__file__).resolve().parents[3] / "scenarios" / "data" / name)
    assert h.branches and len({c.sha for c in h.commits}) == len(h.commits)
    assert len(h.in_time_order()) == len(h.commits)
