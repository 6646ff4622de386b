"""Read a history data set in the format of `scenarios/data/sqlite-utils` into a `History`.

Files (see that folder's README): `meta.json` (`default_branch`),
`commits.jsonl` (the default branch, oldest first: `sha`, `parents`,
`commit_time`, `subject`, `body`, `files` [{`path`, ...}]) and
`branches.jsonl` (`name`, `tip`, `merge_base`, `commits`: the shas only on
that branch, oldest first). `snapshot.jsonl` is not read here.

Branch commits have no message, time or files in the data set, so their
memories are synthetic (`CommitInfo.synthetic`), built from what is known:
- subject: `Work on branch <name>: <topic>`, the topic being the branch
  name's words (split at `/ - _ .`, dropping generated ids: words of 5+
  characters that mix letters and digits or upper and lower case after the
  first letter, such as `nrt5l4` or `ECtzG`);
- body: `Commit i of n on <name>, branched from <default> at <sha12>
  ("<merge-base subject>").` and `Files near the branch point: ...`, the
  files most often changed by the merge base and the up to NEIGHBOURS
  default-branch commits before it (at most NEAR_FILES, by count then path);
- parents: the previous commit of the branch, the merge base for the first;
- git_time: the merge base's commit time + i seconds (i = 1..n);
- files_changed: empty (unknown).
A branch whose `merge_base` is null shares no commit with the default branch (an
orphan such as `gh-pages`, or a rewritten history): it is registered with no base,
its body reads `Commit i of n on <name>, an unrelated history (no merge base with
<default>).`, its first commit has no parent, there are no near files, and its
git_time is the default branch's last commit time + i (after all of it).
A sha listed by several branches belongs to the first branch that lists it.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from reference.project.commit import CommitInfo
from reference.project.errors import DatasetError, ProjectError
from reference.project.history import BranchInfo, History

NEIGHBOURS = 6
NEAR_FILES = 8
_SPLIT = re.compile(r"[/\-_.]+")


def topic_words(branch: str) -> list[str]:
    """The words of a branch name, without generated ids (see module docstring)."""
    words = []
    for w in _SPLIT.split(branch):
        if not w:
            continue
        mixed_digits = any(ch.isdigit() for ch in w) and any(ch.isalpha() for ch in w)
        mixed_case = any(ch.isupper() for ch in w[1:]) and any(ch.islower() for ch in w)
        if len(w) >= 5 and (mixed_digits or mixed_case):
            continue
        words.append(w)
    return words


def _lines(path: Path) -> list[tuple[int, dict[str, Any]]]:
    if not path.is_file():
        raise DatasetError(f"{path}: missing (a history data set needs meta.json, commits.jsonl, branches.jsonl)")
    out = []
    for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{path}:{n}: not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(obj, dict):
            raise DatasetError(f"{path}:{n}: each line must be a JSON object")
        out.append((n, obj))
    return out


def _field(path: Path, n: int, obj: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = obj.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise DatasetError(f"{path}:{n}: {name}: expected {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def _main_commit(path: Path, n: int, obj: dict[str, Any], branch: str) -> CommitInfo:
    files = _field(path, n, obj, "files", list)
    paths = []
    for i, f in enumerate(files):
        if not isinstance(f, dict) or not isinstance(f.get("path"), str):
            raise DatasetError(f"{path}:{n}: files[{i}]: expected an object with a string 'path'")
        paths.append(f["path"])
    try:
        return CommitInfo(sha=_field(path, n, obj, "sha", str), parents=tuple(_field(path, n, obj, "parents", list)),
                          branch=branch, git_time=_field(path, n, obj, "commit_time", int),
                          subject=_field(path, n, obj, "subject", str), body=obj.get("body") or "",
                          files=tuple(paths))
    except ProjectError as exc:
        raise DatasetError(f"{path}:{n}: {exc}") from None


def read_dataset(folder: str | Path) -> History:
    """The data set's history: default-branch commits, then synthetic branch commits (module docstring)."""
    folder = Path(folder)
    meta_path = folder / "meta.json"
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DatasetError(f"{meta_path}: missing (a history data set needs meta.json)") from None
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{meta_path}: not valid JSON ({exc.msg})") from None
    default = meta.get("default_branch") if isinstance(meta, dict) else None
    if not isinstance(default, str) or not default:
        raise DatasetError(f"{meta_path}: default_branch: expected a branch name, got {default!r}")
    cpath = folder / "commits.jsonl"
    main = [_main_commit(cpath, n, obj, default) for n, obj in _lines(cpath)]
    history = History(default, list(main))
    position = {c.sha: i for i, c in enumerate(main)}
    if len(position) != len(main):
        raise DatasetError(f"{cpath}: a sha appears on more than one line")
    claimed = set(position)
    bpath = folder / "branches.jsonl"
    for n, obj in _lines(bpath):
        name, tip = _field(bpath, n, obj, "name", str), _field(bpath, n, obj, "tip", str)
        base = obj.get("merge_base")
        shas = _field(bpath, n, obj, "commits", list)
        if base is not None and base not in position:
            raise DatasetError(f"{bpath}:{n}: merge_base: {str(base)[:60]!r} is not a commit of commits.jsonl")
        try:
            history.branches.append(BranchInfo(name, tip, base, tuple(shas)))
            own = _branch_commits(main, position.get(base), name, shas, claimed, default)
        except ProjectError as exc:
            raise DatasetError(f"{bpath}:{n}: {exc}") from None
        history.commits += own
        history.shared += len(shas) - len(own)
    return history


def _branch_commits(main: list[CommitInfo], base_at: int | None, name: str, shas: list[Any], claimed: set[str],
                    default: str) -> list[CommitInfo]:
    """The branch's synthetic commits; `base_at` None for a branch with no merge base (module docstring)."""
    topic = " ".join(topic_words(name)) or name
    if base_at is None:
        start_time = max((c.git_time for c in main), default=0)
        parent: str | None = None
    else:
        base = main[base_at]
        near = Counter(f for c in main[max(0, base_at - NEIGHBOURS): base_at + 1] for f in c.files)
        files = [f for f, _ in sorted(near.items(), key=lambda fc: (-fc[1], fc[0]))[:NEAR_FILES]]
        start_time, parent = base.git_time, base.sha
    out = []
    for i, sha in enumerate(shas, start=1):
        if not isinstance(sha, str):
            raise ProjectError(f"commits[{i - 1}]: expected a sha string, got {str(sha)[:60]!r}")
        if sha not in claimed:
            claimed.add(sha)
            if base_at is None:
                body = f"Commit {i} of {len(shas)} on {name}, an unrelated history (no merge base with {default})."
            else:
                body = (f'Commit {i} of {len(shas)} on {name}, branched from {default} at {base.sha[:12]} '
                        f'("{base.subject}").\nFiles near the branch point: {", ".join(files) or "(none)"}')
            out.append(CommitInfo(sha, (parent,) if parent else (), name, start_time + i,
                                  f"Work on branch {name}: {topic}", body, (), synthetic=True))
        parent = sha
    return out
