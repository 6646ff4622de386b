"""Extracting a git repository as the shared data have it (`extract.py`) and checking an extraction (`compare.py`)."""
import json

from bench.cli.main import main
from bench.scenario import load_scenario
from bench.scenario.history_generator import history_generator

gen = history_generator()
common = __import__(gen.__name__ + ".common", fromlist=["x"])


def _new_repo(tmp_path):
    """An empty git repository `demo` on branch main."""
    repo = tmp_path / "demo"
    repo.mkdir(parents=True, exist_ok=True)
    _git(repo, "init", "-q", "-b", "main")
    return repo


def _git(repo, *args):
    import subprocess
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@x", "GIT_COMMITTER_NAME": "a",
                        "GIT_COMMITTER_EMAIL": "a@x", "GIT_AUTHOR_DATE": "1600000000 +0000",
                        "GIT_COMMITTER_DATE": "1600000000 +0000", "PATH": "/usr/bin:/bin", "HOME": str(repo)})


def test_a_git_repository_is_extracted_with_blame(tmp_path, capsys):
    extract = __import__(gen.__name__ + ".extract", fromlist=["x"])
    repo = _new_repo(tmp_path)
    (repo / "pkg").mkdir()
    (repo / "pkg" / "__init__.py").write_text("")
    (repo / "pkg" / "a.py").write_text("one\ntwo\nthree\nfour\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Add module a with four lines")
    (repo / "pkg" / "a.py").write_text("one\ntwo\nthree\nfour\nfive\n")
    _git(repo, "commit", "-q", "-am", "Append a fifth line")
    (repo / "pkg" / "a.py").write_text("ONE\ntwo\nthree\nfour\nFIVE\n")
    _git(repo, "commit", "-q", "-am", "Rewrite the first and last lines")
    _git(repo, "checkout", "-q", "-b", "feature")
    (repo / "pkg" / "b.py").write_text("b\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Branch work on b")
    _git(repo, "checkout", "-q", "main")
    folder = extract.extract(repo, tmp_path / "data" / "demo")
    ds = gen.load(folder)
    first, second, third = (c["sha"] for c in ds.commits)
    assert ds.blame == {third: {first: 1, second: 1}}
    assert [b["name"] for b in ds.branches] == ["feature"] and ds.branches[0]["merge_base"] == third
    assert [c["subject"] for c in ds.branch_commits.values()] == ["Branch work on b"]
    assert ds.commits[2]["files"] == [{"path": "pkg/a.py", "added": 2, "deleted": 2}]
    out = tmp_path / "built"
    assert main(["scenarios", "build", str(repo), "--out", str(out), "--task", "blame"]) == 0
    assert (out / "data" / "demo" / "blame.jsonl").exists()
    sc = load_scenario(out / "demo-blame.jsonl", out / "oracle_data")
    assert [q.expect.grades() for q in sc.queries] == [{common.alias(first): 1, common.alias(second): 1}]


def test_a_merged_pull_requests_work_commits_are_memories_and_a_submodule_is_no_text(tmp_path):
    """Every commit the default branch reaches, in `rev-list --topo-order` order, as the shared data has them (not
    only a first-parent walk, which keeps just the merge of a merged pull request); a gitlink is listed like a
    binary file and never blamed (`git blame` of a submodule path fails); only text files are patched and blamed."""
    extract = __import__(gen.__name__ + ".extract", fromlist=["x"])
    repo = _new_repo(tmp_path)
    (repo / "a.py").write_text("one\ntwo\n")
    (repo / ".gitignore").write_text("dist\n")
    (repo / "café.py").write_text("x\ny\n")   # git quotes such a path unless told not to
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Add a")
    base = _git_out(repo, "rev-parse", "HEAD")
    _git(repo, "update-index", "--add", "--cacheinfo", f"160000,{base},vendor/sub")
    _git(repo, "commit", "-q", "-m", "Vendor a submodule")
    _git(repo, "checkout", "-q", "-b", "pr")
    (repo / "a.py").write_text("one\nTWO\n")
    (repo / ".gitignore").write_text("build\n")   # not a text file of the shared data's kind: no patch, no blame
    (repo / "café.py").write_text("x\nY\n")
    _git(repo, "add", "a.py", ".gitignore", "café.py")
    _git(repo, "commit", "-q", "-m", "Fix the second line")
    fix = _git_out(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "main")
    _git(repo, "merge", "-q", "--no-ff", "-m", "Merge pull request #1", "pr")
    _git(repo, "update-index", "--add", "--cacheinfo", f"160000,{fix},vendor/sub")
    _git(repo, "commit", "-q", "-m", "Bump the submodule")
    _git(repo, "branch", "-q", "-D", "pr")
    ds = gen.load(extract.extract(repo, tmp_path / "data" / "demo"))
    subjects = [c["subject"] for c in ds.commits]
    expected = _git_out(repo, "rev-list", "--reverse", "--topo-order", "main").split()
    assert [c["sha"] for c in ds.commits] == expected
    assert subjects == ["Add a", "Vendor a submodule", "Fix the second line", "Merge pull request #1",
                        "Bump the submodule"]
    assert ds.blame == {fix: {base: 2}}
    assert [f["path"] for f in ds.commits[2]["files"]] == [".gitignore", "a.py", "café.py"]
    assert "a/a.py" in ds.commits[2]["patch"] and "a/café.py" in ds.commits[2]["patch"]
    assert ".gitignore" not in ds.commits[2]["patch"]
    import unittest.mock
    with unittest.mock.patch.object(extract, "_PATHS_PER_DIFF", 1):   # the patch diffed a file at a time
        assert gen.load(extract.extract(repo, tmp_path / "data" / "one-by-one")).commits == ds.commits
    assert ds.commits[1]["files"] == [{"path": "vendor/sub", "added": None, "deleted": None}]
    assert ds.commits[4]["files"] == [{"path": "vendor/sub", "added": None, "deleted": None}]
    bare = tmp_path / "demo.git"   # a bare clone (a mirror) is a git repository too, named without .git
    _git_out(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    gen.build(bare, tmp_path / "from-bare", tasks=["blame"])
    assert (tmp_path / "from-bare" / "data" / "demo" / "blame.jsonl").read_text() == \
        (tmp_path / "data" / "demo" / "blame.jsonl").read_text()
    assert (tmp_path / "from-bare" / "demo-blame.jsonl").exists()


def test_a_files_hunks_are_blamed_in_one_call_with_the_same_origins(tmp_path):
    """Each hunk's old side is one `-L` of a single `git blame` per file (at most `_RANGES_PER_BLAME` a call):
    the origins are those of a blame per hunk."""
    extract = __import__(gen.__name__ + ".extract", fromlist=["x"])
    repo = _new_repo(tmp_path)
    (repo / "m.py").write_text("a1\na2\na3\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Write a")
    first = _git_out(repo, "rev-parse", "HEAD")
    (repo / "m.py").write_text("a1\na2\na3\nb4\nb5\nb6\nb7\n")
    _git(repo, "commit", "-q", "-am", "Write b")
    second = _git_out(repo, "rev-parse", "HEAD")
    (repo / "m.py").write_text("A1\na2\na3\nb4\nB5\nb6\nB7\n")   # three hunks: one line of a, two of b
    _git(repo, "commit", "-q", "-am", "Rewrite three lines")
    third = _git_out(repo, "rev-parse", "HEAD")
    ds = gen.load(extract.extract(repo, tmp_path / "data" / "demo"))
    assert ds.blame == {third: {first: 1, second: 2}}
    import unittest.mock
    with unittest.mock.patch.object(extract, "_RANGES_PER_BLAME", 1):   # a blame per hunk, as before
        assert gen.load(extract.extract(repo, tmp_path / "data" / "per-hunk")).blame == ds.blame


def test_compare_says_whether_an_extraction_reproduces_a_folder(tmp_path, capsys):
    """`compare` extracts at the folder's tip: the folder extracted before is the same; a changed count and a
    dropped record are named; a folder without a tip is a clear error."""
    import io
    import shutil
    extract = __import__(gen.__name__ + ".extract", fromlist=["x"])
    compare = __import__(gen.__name__ + ".compare", fromlist=["x"])
    repo = _new_repo(tmp_path)
    for i, text in enumerate(("a\nb\nc\n", "a\nB\nc\n", "A\nB\nc\n")):
        (repo / "m.py").write_text(text)
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", f"Change {i}")
    folder = extract.extract(repo, tmp_path / "data" / "demo")
    (repo / "m.py").write_text("A\nB\nC\n")   # a commit after the tip: the comparison extracts at the tip
    _git(repo, "commit", "-q", "-am", "Later")
    out = io.StringIO()
    assert compare.compare(repo, folder, out) is True
    assert out.getvalue().count("the same, record for record") == 2
    changed = tmp_path / "changed"
    shutil.copytree(folder, changed)
    rows = (changed / "blame.jsonl").read_text().splitlines()
    first = json.loads(rows[0])
    first["origins"] = {k: v + 1 for k, v in first["origins"].items()}
    (changed / "blame.jsonl").write_text(json.dumps(first) + "\n")
    commits = (changed / "commits.jsonl").read_text().splitlines()
    (changed / "commits.jsonl").write_text("\n".join(commits[:-1]) + "\n")
    out = io.StringIO()
    assert compare.compare(repo, changed, out) is False
    text = out.getvalue()
    assert "field 'origins' differs in 1 records" in text and "1 records only in the extraction" in text
    assert "records only in the extraction" in text and text.count("different") == 2
    (changed / "meta.json").write_text("{}")
    assert compare.main([str(repo), str(changed)]) == 2
    assert "meta.json: no tip" in capsys.readouterr().err


def _git_out(repo, *args):
    import subprocess
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()
