"""Project memory (seed 002): git-correlated memories with branch filtering, dedup, redaction and GC.

`ProjectMemory.for_store(store)` is the entry point; `read_repository` /
`read_dataset` + `ingest_history` load a history; `hook` is the post-commit
hook. Formats and decisions: reference/project/README.md.

Names are imported lazily: `reference/schema_steps.py` imports
`reference.project.schema` while the package initialises, which must not pull in the store.
"""
from __future__ import annotations

from reference.lazy_exports import lazy_getattr

_EXPORTS = {
    "CommitInfo": "reference.project.commit",
    "check_branch": "reference.project.commit",
    "check_sha": "reference.project.commit",
    "commit_text": "reference.project.commit",
    "parse_message": "reference.project.commit",
    "read_dataset": "reference.project.dataset",
    "doc_hash": "reference.project.doc_hash",
    "normalise": "reference.project.doc_hash",
    "DatasetError": "reference.project.errors",
    "GitError": "reference.project.errors",
    "HookError": "reference.project.errors",
    "ProjectError": "reference.project.errors",
    "read_repository": "reference.project.gitrepo",
    "BranchInfo": "reference.project.history",
    "History": "reference.project.history",
    "IngestResult": "reference.project.ingest",
    "ingest_history": "reference.project.ingest",
    "GcResult": "reference.project.layer",
    "ProjectMemory": "reference.project.layer",
    "WriteResult": "reference.project.layer",
    "locate_files": "reference.project.locate",
    "index_snapshot": "reference.project.snapshot",
}
__all__ = sorted(_EXPORTS)


__getattr__ = lazy_getattr('reference.project', _EXPORTS, globals())
