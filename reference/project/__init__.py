"""Project memory (seed 002): git-correlated memories with branch filtering, dedup, redaction and GC.

`ProjectMemory.for_store(store)` is the entry point; `read_repository` /
`read_dataset` + `ingest_history` load a history; `hook` is the post-commit
hook. Formats and decisions: reference/project/README.md.

Names are imported lazily: the tracker's migration list imports
`reference.project.schema`, which must not pull in the store.
"""
from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "CommitInfo": "commit", "check_branch": "commit", "check_sha": "commit", "commit_text": "commit",
    "parse_message": "commit", "read_dataset": "dataset", "doc_hash": "doc_hash", "normalise": "doc_hash",
    "DatasetError": "errors", "GitError": "errors", "HookError": "errors", "ProjectError": "errors",
    "read_repository": "gitrepo", "BranchInfo": "history", "History": "history", "IngestResult": "ingest",
    "ingest_history": "ingest", "GcResult": "layer", "ProjectMemory": "layer", "WriteResult": "layer",
    "locate_files": "locate", "index_snapshot": "snapshot",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'reference.project' has no attribute {name!r}")
    return getattr(importlib.import_module(f"reference.project.{_EXPORTS[name]}"), name)
