"""Read a history data folder in format 2 (see scenarios/data/*/README.md) into plain records.

Nothing here knows which repository it reads: every rule the scenarios use is
derived from these records (scenarios/README.md, "History scenarios").
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path


class DataError(ValueError):
    """A data folder is missing a file or holds a malformed record (the message names file and line)."""


@dataclass
class Dataset:
    """One repository's history: default-branch commits (merges included), branches, blame."""

    name: str
    source: str
    default_branch: str
    commits: list[dict]                      # default branch, oldest first (merges included)
    branch_commits: dict[str, dict]          # sha -> commit, for commits only other branches have
    branches: list[dict]                     # name, tip, merge_base, commits (oldest first)
    blame: dict[str, dict[str, int]]         # sha -> {origin sha: lines}
    licence: str = ""
    extra: dict = field(default_factory=dict)

    def position(self, sha: str) -> int:
        """0-based line of a commit in `commits.jsonl`, or in `branch_commits.jsonl` for a branch commit."""
        if not hasattr(self, "_position"):
            self._position = {c["sha"]: i for i, c in enumerate(self.branch_commits.values())}
            self._position.update({c["sha"]: i for i, c in enumerate(self.commits)})
        return self._position[sha]

    @property
    def work(self) -> list[dict]:
        """The default branch's non-merge commits, oldest first: the ones that become memories."""
        return [c for c in self.commits if not is_merge(c)]


def is_merge(c: dict) -> bool:
    return len(c.get("parents") or []) > 1


def read_jsonl(path: Path) -> list[dict]:
    """The JSON objects of a format-2 file, one a line (blank lines skipped); DataError naming file and line."""
    if not path.exists():
        raise DataError(f"{path}: missing (a format-2 history folder needs it)")
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}:{n}: not valid JSON ({exc.msg})") from None
        if not isinstance(rec, dict):
            raise DataError(f"{path}:{n}: each line must be a JSON object")
        out.append(rec)
    return out


def _check_commit(path: Path, n: int, c: dict) -> None:
    for key in ("sha", "parents", "commit_time", "subject", "body", "files"):
        if key not in c:
            raise DataError(f"{path}:{n}: commit lacks {key!r}")


def dataset_name(folder: Path) -> str:
    """The scenario-name prefix of a data folder: its name, lowercased, other characters as '-'."""
    name = re.sub(r"[^a-z0-9_-]+", "-", folder.resolve().name.lower()).strip("-")
    if not name:
        raise DataError(f"{folder}: cannot make a scenario name from the folder name")
    return name


def load(folder: str | Path) -> Dataset:
    """Read `commits.jsonl`, `branch_commits.jsonl`, `branches.jsonl`, `blame.jsonl` and `meta.json`."""
    folder = Path(folder)
    meta_path = folder / "meta.json"
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{meta_path}: cannot read ({exc})") from None
    if meta.get("format") != 2:
        raise DataError(f"{meta_path}: format must be 2, got {str(meta.get('format'))[:20]!r}")
    commits = read_jsonl(folder / "commits.jsonl")
    for n, c in enumerate(commits, start=1):
        _check_commit(folder / "commits.jsonl", n, c)
    branch_commits = read_jsonl(folder / "branch_commits.jsonl")
    for n, c in enumerate(branch_commits, start=1):
        _check_commit(folder / "branch_commits.jsonl", n, c)
    blame = {b["sha"]: {k: int(v) for k, v in b["origins"].items()} for b in read_jsonl(folder / "blame.jsonl")}
    return Dataset(name=dataset_name(folder), source=str(meta.get("source", "")),
                   default_branch=str(meta.get("default_branch", "main")), commits=commits,
                   branch_commits={c["sha"]: c for c in branch_commits},
                   branches=read_jsonl(folder / "branches.jsonl"), blame=blame, extra=meta)
