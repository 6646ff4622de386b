"""`GitHead`: the branch checked out in the server's root repository, read from `.git/HEAD` at each call.

    head = GitHead(Path("/src/myrepo"))
    head.branch()      # "feature/login", or None (no repository at the root, or a detached HEAD)

Project memory asks it at each call, so a `git checkout` between two calls is
seen by the second. It reads the file directly (no `git` process): `<root>/.git`
is the git directory, or (a worktree, a submodule) a file `gitdir: <path>`
naming it. The answer is cached by HEAD's path, mtime and size, so a call
costs one `stat`. Only the root itself is looked at, never its parents.
"""
from __future__ import annotations

import os
from pathlib import Path

REF_PREFIX = "ref: refs/heads/"
MAX_HEAD_BYTES = 4096         # a HEAD file is one short line; anything longer is not one


class GitHead:
    """The current branch of the repository at `root` (None when there is none or HEAD is detached)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._key: tuple[str, int, int] | None = None
        self._branch: str | None = None

    def head_file(self) -> Path | None:
        """`<git dir>/HEAD` of the repository at the root, or None."""
        dotgit = self.root / ".git"
        try:
            if dotgit.is_dir():
                return dotgit / "HEAD"
            if dotgit.is_file():
                text = dotgit.read_bytes()[:MAX_HEAD_BYTES].decode("utf-8", "replace").strip()
                if text.startswith("gitdir:"):
                    gitdir = Path(text[len("gitdir:"):].strip())
                    return (gitdir if gitdir.is_absolute() else self.root / gitdir) / "HEAD"
        except OSError:
            return None
        return None

    def branch(self) -> str | None:
        """The checked-out branch name (`refs/heads/` stripped), re-read only when HEAD changed."""
        head = self.head_file()
        if head is None:
            return None
        try:
            st = os.stat(head)
        except OSError:
            return None
        key = (str(head), st.st_mtime_ns, st.st_size)
        if key != self._key:
            try:
                text = head.read_bytes()[:MAX_HEAD_BYTES].decode("utf-8", "replace").strip()
            except OSError:
                return None
            name = text[len(REF_PREFIX):] if text.startswith(REF_PREFIX) else ""   # else: detached (a sha)
            self._branch = name or None
            self._key = key
        return self._branch
