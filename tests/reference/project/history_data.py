"""A small hand-made history data set (format of scenarios/data/sqlite-utils) for the project tests."""
import json

import pytest


def sha(c: str) -> str:
    return c * 40


def write_dataset(folder, commits, branches, default="main"):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "meta.json").write_text(json.dumps({"default_branch": default}))
    (folder / "commits.jsonl").write_text("".join(json.dumps(c) + "\n" for c in commits))
    (folder / "branches.jsonl").write_text("".join(json.dumps(b) + "\n" for b in branches))
    return folder


def main_commit(c, parent, t, subject, files):
    return {"sha": sha(c), "parents": [sha(parent)] if parent else [], "author_time": t, "commit_time": t,
            "subject": subject, "body": "", "files": [{"path": f, "added": 1, "deleted": 0} for f in files]}


@pytest.fixture
def dataset(tmp_path):
    commits = [main_commit("1", None, 100, "Initial", ["README.md"]),
               main_commit("2", "1", 200, "Add db", ["db.py", "README.md"]),
               main_commit("3", "2", 150, "Add cli", ["cli.py", "db.py"])]   # time goes back: clock skew
    branches = [{"name": "feature/fast-insert", "tip": sha("b"), "merge_base": sha("2"),
                 "commits": [sha("a"), sha("b")]},
                {"name": "copy", "tip": sha("b"), "merge_base": sha("2"), "commits": [sha("b")]},
                {"name": "empty", "tip": sha("3"), "merge_base": sha("3"), "commits": []}]
    return write_dataset(tmp_path / "ds", commits, branches)
