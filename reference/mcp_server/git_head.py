"""`GitHead`: the branch checked out in the server's root repository, read from `.git/HEAD` at each call.

    head = GitHead(Path("/src/myrepo"))
    head.branch()      # "feature/login", or None (no repository at the root, or a detached HEAD)

Project memory asks it at each call, so a `git checkout` between two calls is
seen by the second. It reads the file directly (no `git` process): `<root>/.git`
is the git directory, or (a worktree, a submodule) a file `gitdir: <path>`
naming it. The answer is cached by HEAD's path, mtime and size, so a call
costs one `stat`. Only the root itself is looked at, never its parents.

The path policy covers these reads too (issue 25): the git directory, and HEAD
in it, must resolve (symlinks followed) inside the root, or be a `git worktree`
administrative folder that names this root's `.git` back in its own `gitdir`
file (what `git worktree add` writes). A `.git` file or a symlinked `.git`
folder leading anywhere else is refused: no branch is read from it, and a
warning names it once.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

log = logging.getLogger("reference.mcp_server")

REF_PREFIX = "ref: refs/heads/"
MAX_HEAD_BYTES = 4096         # a HEAD file is one short line; anything longer is not one


class GitHead:
    """The current branch of the repository at `root` (None when there is none or HEAD is detached)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._key: tuple[str, int, int] | None = None
        self._branch: str | None = None
        self._refused = False

    def head_file(self) -> Path | None:
        """`<git dir>/HEAD` of the repository at the root, or None (none, or refused by the path policy)."""
        dotgit = self.root / ".git"
        try:
            if dotgit.is_dir():
                gitdir = dotgit
            elif dotgit.is_file():
                text = dotgit.read_bytes()[:MAX_HEAD_BYTES].decode("utf-8", "replace").strip()
                if not text.startswith("gitdir:"):
                    return None
                named = Path(text[len("gitdir:"):].strip())
                gitdir = named if named.is_absolute() else self.root / named
            else:
                return None
            real_dir = Path(os.path.realpath(gitdir))
            head = Path(os.path.realpath(real_dir / "HEAD"))
            if not (self._inside_root(real_dir) or self._links_back(real_dir)) or head.parent != real_dir:
                self._refuse(gitdir)
                return None
            return head
        except (OSError, ValueError):
            return None

    def _inside_root(self, path: Path) -> bool:
        root = Path(os.path.realpath(self.root))
        return path == root or root in path.parents

    def _links_back(self, gitdir: Path) -> bool:
        """True if `gitdir` is a worktree's admin folder whose `gitdir` file names `<root>/.git`."""
        try:
            back = (gitdir / "gitdir").read_bytes()[:MAX_HEAD_BYTES].decode("utf-8", "replace").strip()
        except OSError:
            return False
        return bool(back) and os.path.realpath(back) == os.path.realpath(self.root / ".git")

    def _refuse(self, gitdir: Path) -> None:
        if not self._refused:
            self._refused = True
            log.warning("%s/.git leads to %s, outside the server root and not a worktree of it: its branch "
                        "is not read (rule: the project reads files only inside --root)", self.root, gitdir)

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
