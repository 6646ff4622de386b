"""`PathPolicy`: reads resolve inside the root, writes go by name under the data folder, refusals are short."""
from __future__ import annotations

import pytest

from reference.path_policy import PathPolicy, PathRefused, quote


@pytest.fixture
def policy(tmp_path):
    (tmp_path / "root" / "sub").mkdir(parents=True)
    (tmp_path / "root" / "sub" / "a.py").write_text("x = 1\n")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "b.py").write_text("y = 2\n")
    (tmp_path / "root" / "up").symlink_to(tmp_path / "out", target_is_directory=True)
    (tmp_path / "root" / "b.py").symlink_to(tmp_path / "out" / "b.py")
    return PathPolicy(tmp_path / "root", tmp_path / "data")


def test_reads_inside_the_root_resolve(policy):
    assert policy.read("sub/a.py", "path") == policy.root / "sub" / "a.py"
    assert policy.read(str(policy.root / "sub" / ".." / "sub" / "a.py"), "path") == policy.root / "sub" / "a.py"
    assert policy.read("sub", "root") == policy.root / "sub"
    assert policy.read(".", "path") == policy.root


@pytest.mark.parametrize("value", ["/etc/passwd", "..", "../out/b.py", "sub/../../out/b.py", "up", "up/b.py",
                                   "b.py", "~/b.py", "~root"])
def test_reads_that_lead_out_are_refused_with_the_rule(policy, value, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path / "out"))
    with pytest.raises(PathRefused) as exc:
        policy.read(value, "path")
    text = str(exc.value)
    assert text.startswith(f"argument 'path': {value!r} leads outside the server root") and "(rule: " in text


def test_within_narrows_a_read(policy):
    sub = policy.read("sub", "root")
    assert policy.read("sub/a.py", "path", within=sub) == sub / "a.py"
    with pytest.raises(PathRefused, match="leads outside"):
        policy.read("b.py", "path", within=sub)


@pytest.mark.parametrize("pattern", ["/etc/*", "../*.py", "a/../../x", "~/x", ""])
def test_globs_stay_under_their_folder(policy, pattern):
    with pytest.raises(PathRefused, match="argument 'glob'"):
        policy.glob(pattern, "glob")
    assert policy.glob("**/*.py", "glob") == "**/*.py"


def test_named_files_go_under_the_data_folder_and_never_through_a_symlink(policy, tmp_path):
    target = policy.named_file("snapshots", "run-1.v2", ".snap")
    assert target == policy.data_dir / "snapshots" / "run-1.v2.snap" and target.parent.is_dir()
    for bad in ("../x", "a/b", "/x", ".x", "", "x" * 129, "a\0b"):
        with pytest.raises(PathRefused, match="is not a name"):
            policy.named_file("snapshots", bad, ".snap")
    (policy.data_dir / "snapshots" / "link.snap").symlink_to(tmp_path / "out" / "b.py")
    with pytest.raises(PathRefused, match="symlink"):
        policy.named_file("snapshots", "link", ".snap")
    assert (tmp_path / "out" / "b.py").read_text() == "y = 2\n"


def test_a_huge_path_is_quoted_short(policy):
    with pytest.raises(PathRefused) as exc:
        policy.read("/" + "x" * 1_000_000, "path")
    assert len(str(exc.value)) < 400 and "1,000,001 characters" in str(exc.value)
    assert quote("abc") == "'abc'"
