"""Follow files through renames: a file renamed later is the same file.

The data lists a rename as a deletion plus an addition (`--no-renames`), so
renames are recovered by rule while the commits are replayed oldest first:

- a path is *deleted* by a commit when the patch says `deleted file mode` for
  it, or when its running line count (sum of added - deleted so far) drops to 0
  in a commit that adds no line to it;
- a path is *added* when it was not live before and the commit deletes no line
  of it;
- a deleted path and an added path of the same commit are one file renamed when
  they have the same base name, or the same stem (the name before its first
  dot), or the same extension and the same line count (at least 5 lines); the
  added line count must be within half of the deleted one (or 2 lines). Pairs
  are taken greedily: same base name first, then stem, then count; closest line
  counts first; path order breaks ties. Each path is paired at most once.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import PurePosixPath

_DELETED = re.compile(r"^diff --git a/(\S+) b/\S+\ndeleted file mode", re.M)


def _stem(path: str) -> str:
    return PurePosixPath(path).name.split(".", 1)[0]


def _ext(path: str) -> str:
    name = PurePosixPath(path).name
    return name.rsplit(".", 1)[1] if "." in name.lstrip(".") else ""


def _compatible(deleted: int, added: int) -> bool:
    return abs(added - deleted) <= max(2, 0.5 * max(added, deleted))


def pair_renames(gone: dict[str, int], new: dict[str, int]) -> list[tuple[str, str]]:
    """Pairs (old, new) among the paths one commit deleted ({path: lines}) and added ({path: lines})."""
    cands = []
    for d, dn in gone.items():
        for a, an in new.items():
            if not _compatible(dn, an):
                continue
            if PurePosixPath(d).name == PurePosixPath(a).name:
                rank = 0
            elif _stem(d) == _stem(a) and _stem(d):
                rank = 1
            elif _ext(d) == _ext(a) and dn == an >= 5:
                rank = 2
            else:
                continue
            cands.append((rank, abs(an - dn), d, a))
    used_d, used_a, out = set(), set(), []
    for _, _, d, a in sorted(cands):
        if d not in used_d and a not in used_a:
            used_d.add(d)
            used_a.add(a)
            out.append((d, a))
    return sorted(out)


class FileHistory:
    """Replays commits oldest first; knows live paths, renames and a stable identity per file."""

    def __init__(self) -> None:
        self.lines: Counter[str] = Counter()
        self.live: set[str] = set()
        self.identity: dict[str, str] = {}     # path -> identity (the file's first path)
        self.renames: list[tuple[str, str, str]] = []   # (sha, old, new)

    def ident(self, path: str) -> str:
        return self.identity.get(path, path)

    def apply(self, c: dict) -> list[tuple[str, str]]:
        """Record one non-merge commit; return the renames it made."""
        said_deleted = set(_DELETED.findall(c.get("patch") or ""))
        gone: dict[str, int] = {}
        new: dict[str, int] = {}
        for f in c["files"]:
            p, add, dele = f["path"], f.get("added"), f.get("deleted")
            was_live = p in self.live
            if add is not None:
                self.lines[p] += add - dele
            if was_live and (p in said_deleted or (add == 0 and dele and self.lines[p] <= 0)):
                gone[p] = dele or 0
            elif not was_live and not dele and p not in said_deleted:
                new[p] = add or 0
        pairs = pair_renames(gone, new)
        for old, new_path in pairs:
            self.identity[new_path] = self.ident(old)
            self.renames.append((c["sha"], old, new_path))
        for p in gone:
            self.live.discard(p)
            self.lines.pop(p, None)
        for f in c["files"]:
            if f["path"] not in gone:
                self.live.add(f["path"])
        return pairs
