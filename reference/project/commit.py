"""`CommitInfo`: one commit as the project layer records it, and the text of its memory.

A commit memory's content is, in this order: the subject; the body (at most
BODY_CHARS characters); then `Commit <sha>`, `Parent <sha or none>` and
`Files changed: a, b, ...` (at most MAX_FILES_IN_TEXT names, then `(+N more)`).
The branch is deliberately not part of the content, so the same commit seen
again on another branch (a fast-forward merge, a second ingest) has the same
`doc_hash` and is not stored twice.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from reference.project.errors import ProjectError

BODY_CHARS = 2000
MAX_FILES_IN_TEXT = 40
_SHA = re.compile(r"[0-9a-f]{7,64}")
_BAD_REF_CHARS = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]")
_MARKER = re.compile(r"\[REDACTED:[a-z0-9_\-]+\]")  # reference.patterns.redactor.MARKER, as text


def check_sha(value: object, what: str = "sha") -> str:
    """A lowercase hex object name (7 to 64 digits); `ProjectError` naming `what` otherwise."""
    if not isinstance(value, str) or not _SHA.fullmatch(value):
        raise ProjectError(f"{what} must be a lowercase hex commit id (7-64 digits), got {value!r}")
    return value


def check_branch(name: object) -> str:
    """A branch name that `git check-ref-format --branch` would accept (the common rules).

    A redaction marker (`[REDACTED:<name>]`) counts as ordinary characters, so the
    stored form of a branch whose name held a secret is accepted back.
    """
    if not isinstance(name, str) or not name:
        raise ProjectError(f"branch name must be a non-empty string, got {name!r}")
    plain = _MARKER.sub("x", name) if "[REDACTED:" in name else name
    bad = (len(name) > 255 or _BAD_REF_CHARS.search(plain) or ".." in name or "//" in name or "@{" in name
           or name.startswith(("-", "/", ".")) or name.endswith(("/", ".", ".lock")) or name == "@"
           or any(part.startswith(".") for part in name.split("/")))
    if bad:
        raise ProjectError(f"{name!r} is not a valid git branch name")
    return name


def parse_message(message: str) -> tuple[str, str]:
    """(subject, body) of a commit message: the first line, then the rest without leading blank lines."""
    if not isinstance(message, str):
        raise ProjectError(f"commit message must be a string, got {type(message).__name__}")
    first, _, rest = message.strip("\n").partition("\n")
    return first.strip(), rest.strip("\n")


@dataclass(frozen=True)
class CommitInfo:
    """A commit: identity, branch label, time (Unix seconds), message and the files it changed.

    `synthetic` marks a commit whose message and time were made up by a data
    set reader because the source lacks them (see reference/project/README.md).
    """

    sha: str
    parents: tuple[str, ...]
    branch: str
    git_time: int
    subject: str
    body: str = ""
    files: tuple[str, ...] = field(default=())
    synthetic: bool = False

    def __post_init__(self) -> None:
        check_sha(self.sha)
        for p in self.parents:
            check_sha(p, "parent sha")
        check_branch(self.branch)
        if isinstance(self.git_time, bool) or not isinstance(self.git_time, int):
            raise ProjectError(f"git_time of {self.sha} must be integer Unix seconds, got {self.git_time!r}")
        for f in self.files:
            if not isinstance(f, str) or not f:
                raise ProjectError(f"files of {self.sha} must be non-empty path strings, got {f!r}")

    @property
    def parent(self) -> str | None:
        """The first parent (the branch's previous commit), None for a root commit."""
        return self.parents[0] if self.parents else None


def commit_text(c: CommitInfo) -> str:
    """The content of the commit's memory document (format in the module docstring)."""
    body = c.body.strip()
    if len(body) > BODY_CHARS:
        body = body[:BODY_CHARS].rstrip() + " [...]"
    files = list(c.files[:MAX_FILES_IN_TEXT])
    listed = ", ".join(files) if files else "(none recorded)"
    if len(c.files) > MAX_FILES_IN_TEXT:
        listed += f" (+{len(c.files) - MAX_FILES_IN_TEXT} more)"
    tail = f"Commit {c.sha}\nParent {c.parent or 'none'}\nFiles changed: {listed}"
    return "\n\n".join(x for x in (c.subject.strip() or "(no subject)", body, tail) if x)
