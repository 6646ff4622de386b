"""Commit identity checks, message parsing, the commit memory's text and the dedup hash."""
import hashlib

import pytest

from reference.project.commit import CommitInfo, check_branch, check_sha, commit_text, parse_message
from reference.project.doc_hash import doc_hash, normalise
from reference.project.errors import ProjectError

SHA, PARENT = "a" * 40, "b" * 40


@pytest.mark.parametrize("name", ["main", "feature/auth", "claude/fix-1.2", "release-1.12.1", "HEAD"])
def test_valid_branch_names(name):
    assert check_branch(name) == name


@pytest.mark.parametrize("name", ["", "a b", "a..b", "-x", "x/", "x.lock", "a~1", "a^", "a:b", "x/.hidden",
                                  "@", "a//b", 7, None])
def test_invalid_branch_names_are_refused(name):
    with pytest.raises(ProjectError, match="branch name"):
        check_branch(name)


@pytest.mark.parametrize("sha", ["ABC1234", "abc", "g" * 40, "", 12])
def test_invalid_shas_are_refused_naming_the_field(sha):
    with pytest.raises(ProjectError, match="parent sha"):
        check_sha(sha, "parent sha")


def test_parse_message_splits_subject_and_body():
    assert parse_message("Fix race\n\nLong story\nmore") == ("Fix race", "Long story\nmore")
    assert parse_message("\nOnly subject  \n") == ("Only subject", "")


def test_commit_text_has_the_documented_layout():
    c = CommitInfo(SHA, (PARENT,), "main", 10, "Fix race", "Because.", ("a.py", "b.py"))
    assert commit_text(c) == (f"Fix race\n\nBecause.\n\nCommit {SHA}\nParent {PARENT}\nFiles changed: a.py, b.py")
    root = CommitInfo(SHA, (), "main", 10, "Initial")
    assert commit_text(root) == f"Initial\n\nCommit {SHA}\nParent none\nFiles changed: (none recorded)"


def test_commit_text_caps_long_bodies_and_file_lists():
    files = tuple(f"f{i}.py" for i in range(45))
    c = CommitInfo(SHA, (), "main", 10, "S", "x" * 2500, files)
    text = commit_text(c)
    assert "x" * 2000 + " [...]" in text and "x" * 2001 not in text
    assert "f39.py (+5 more)" in text and "f40.py" not in text


def test_commit_info_validates_its_fields():
    with pytest.raises(ProjectError, match="git_time"):
        CommitInfo(SHA, (), "main", 1.5, "S")
    with pytest.raises(ProjectError, match="files"):
        CommitInfo(SHA, (), "main", 1, "S", files=("",))


def test_normalise_follows_the_documented_rules():
    raw = "\n\r\nTitle  \r\n\r\n\r\n\r\nBody\tline \n\n"
    assert normalise(raw) == "Title\n\nBody\tline"
    # NFC: e + combining acute equals the precomposed letter
    assert normalise("Cafe\u0301") == "Caf\u00e9"
    assert normalise("Case Kept") != normalise("case kept")


def test_doc_hash_is_sha256_of_the_normalised_text():
    assert doc_hash("Title  \r\n\r\n\r\nBody\n") == hashlib.sha256(b"Title\n\nBody").hexdigest()
    assert doc_hash("a\n\n\nb") == doc_hash("a\n\nb") != doc_hash("a\nb")
