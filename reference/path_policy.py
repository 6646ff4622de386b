"""`PathPolicy`: where a path an agent names may lead — reads inside a root, writes inside a data folder.

    policy = PathPolicy(root=Path("/src/repo"), data_dir=Path("/home/me/.codemem/repo"))
    policy.read("src/a.py", "path")             # /src/repo/src/a.py (symlinks resolved)
    policy.read("/etc/passwd", "path")          # PathRefused: outside the root
    policy.glob("**/*.py", "glob")              # the pattern, or PathRefused for '/x' or '../x'
    policy.named_file("snapshots", "run-1", ".snap", "name")   # <data>/snapshots/run-1.snap

The rule, in order: `~` is expanded, a relative path is joined to the root,
every symlink is resolved (`os.path.realpath`), and only then is the result
compared with the root, so `..`, absolute paths, `~` and symlinked files or
folders that lead elsewhere are all refused the same way. A caller's argument
can name a sub-folder of the root (an index root) but never widen it. Writes
never go to a caller's path: a caller gives a *name* (letters, digits, `.`,
`_`, `-`), the file is `<data>/<folder>/<name><suffix>`, and a symlink there
(or in the folder's place) is refused rather than followed or replaced.
Refusals are `PathRefused` (a `StoreError` and `ValueError`) naming the
argument, a short prefix of the path, and the rule.
"""
from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath
from typing import Callable

from reference.errors import StoreError

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
QUOTE_CHARS = 80

READ_RULE = "an agent's paths must resolve (symlinks followed) inside the server's --root"
WRITE_RULE = "files are written only under the data folder, by name, never through a symlink"


class PathRefused(StoreError, ValueError):
    """A path argument leads outside what the policy allows; the message names it and the rule."""

    def __init__(self, argument: str, value: str, why: str, rule: str) -> None:
        super().__init__(f"argument {argument!r}: {quote(value)} {why} (rule: {rule})")
        self.argument = argument


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """`repr` of at most `limit` characters of a value, with the full length when cut."""
    text = value if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def is_inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


class PathPolicy:
    """Checks the paths of tool arguments against one root (reads) and one data folder (writes)."""

    def __init__(self, root: str | os.PathLike, data_dir: str | os.PathLike,
                 redactor: Callable[[str], str] | None = None) -> None:
        self.root = Path(os.path.realpath(root))
        self.data_dir = Path(os.path.realpath(data_dir))
        # a file name is written to disk as given: one the redactor would change holds a secret
        self.redactor = redactor

    def _check_name(self, name: object, argument: str) -> None:
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            raise PathRefused(argument, str(name), "is not a name (1-128 of letters, digits, '.', '_', '-', "
                                                   "starting with a letter or digit)", WRITE_RULE)
        if self.redactor is not None and self.redactor(name) != name:
            raise PathRefused(argument, "<redacted>", "holds a secret (the store's redactor would change it)",
                              "a file name is stored as given, so it may not carry a secret")

    def read(self, value: str, argument: str, *, within: Path | None = None) -> Path:
        """The resolved path of `value` if it lies inside the root (and inside `within`, if given)."""
        if not isinstance(value, str) or not value or "\0" in value:
            raise PathRefused(argument, str(value), "is not a path", READ_RULE)
        p = Path(os.path.expanduser(value))
        resolved = Path(os.path.realpath(p if p.is_absolute() else self.root / p))
        if not is_inside(resolved, self.root):
            raise PathRefused(argument, value, f"leads outside the server root {quote(str(self.root))}", READ_RULE)
        if within is not None and not is_inside(resolved, within):
            raise PathRefused(argument, value, f"leads outside {quote(str(within))}", READ_RULE)
        return resolved

    def glob(self, pattern: str, argument: str) -> str:
        """A glob pattern relative to a folder: no absolute pattern, no `..`, no `~`."""
        parts = PurePosixPath(pattern).parts
        if not pattern or pattern.startswith(("/", "~")) or ".." in parts or "\0" in pattern:
            raise PathRefused(argument, pattern, "is not a pattern relative to the folder",
                              "a glob selects files under its folder: no leading '/', '~' or '..' parts")
        return pattern

    def named_file(self, folder: str, name: str, suffix: str, argument: str = "name") -> Path:
        """`<data>/<folder>/<name><suffix>`, the folder created if missing; no symlink anywhere on the way."""
        self._check_name(name, argument)
        base = self.data_dir / folder
        if base.is_symlink() or (base.exists() and not base.is_dir()):
            raise PathRefused(argument, name, f"would be written through {quote(str(base))}, "
                                              "which is not a plain folder", WRITE_RULE)
        base.mkdir(parents=True, exist_ok=True)
        target = base / f"{name}{suffix}"
        for p in (target, target.with_name(target.name + ".tmp")):   # .tmp: the writers' rename source
            if p.is_symlink():
                raise PathRefused(argument, name, f"is a symlink at {quote(str(p))}; it is not replaced", WRITE_RULE)
        if not is_inside(Path(os.path.realpath(target)), self.data_dir):
            raise PathRefused(argument, name, "leads outside the data folder", WRITE_RULE)
        return target

    def stays_inside(self, path: Path) -> bool:
        """True if the data-folder file `path` is no symlink and resolves inside the data folder
        (files the project reads on its own, e.g. stored pattern sets, are opened only then)."""
        return not path.is_symlink() and is_inside(Path(os.path.realpath(path)), self.data_dir)

    def existing_file(self, folder: str, name: str, suffix: str, argument: str = "name") -> Path:
        """The path `named_file` would give, for reading (the folder is not created)."""
        self._check_name(name, argument)
        target = self.data_dir / folder / f"{name}{suffix}"
        if not is_inside(Path(os.path.realpath(target)), self.data_dir):
            raise PathRefused(argument, name, "leads outside the data folder", WRITE_RULE)
        return target
