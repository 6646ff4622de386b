"""Index a snapshot of a repository given as records (`path`, `text`) rather than as a checkout.

The records are written to a temporary folder and indexed one by one with the
store's code index (file record, symbols for Python, 40-line chunks), so
hidden paths such as `.github/workflows/test.yml` are indexed too. Paths are
relative POSIX paths; an absolute path or one with `..` is refused before
anything is written. Files are indexed in path order, so the store is the
same for the same records.
"""
from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any

from reference.code.indexer import IndexResult
from reference.project.errors import ProjectError


def check_records(records: Iterable[Any]) -> dict[str, str]:
    """path -> text; `ProjectError` naming the record for a bad path, text or repeated path."""
    out: dict[str, str] = {}
    for i, rec in enumerate(records):
        if not isinstance(rec, dict) or not isinstance(rec.get("path"), str) or not isinstance(rec.get("text"), str):
            raise ProjectError(f"snapshot record {i}: needs string fields 'path' and 'text'")
        p = PurePosixPath(rec["path"])
        if not rec["path"] or p.is_absolute() or ".." in p.parts or "\\" in rec["path"] or str(p) != rec["path"]:
            raise ProjectError(f"snapshot record {i}: path {rec['path']!r} must be a normalised relative POSIX path")
        if rec["path"] in out:
            raise ProjectError(f"snapshot record {i}: path {rec['path']!r} appears twice")
        out[rec["path"]] = rec["text"]
    return out


def index_snapshot(store: Any, records: Iterable[Any]) -> IndexResult:
    """Index every record with `store.index_file`; returns the merged `IndexResult`."""
    files = check_records(records)
    result = IndexResult()
    with tempfile.TemporaryDirectory(prefix="codemem-snapshot-") as tmp:
        root = Path(tmp)
        for path, text in files.items():
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="")
        for path in sorted(files):
            result.merge(store.index_file(root / path, root))
    return result
