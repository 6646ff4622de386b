"""The store's manifest and the size checks of files that carry their own (issue 25); see README.md."""
from __future__ import annotations

from reference.manifest.lmdb_meta import lmdb_problem
from reference.manifest.manifest import NAME, Manifest, ManifestError, regions_of
from reference.manifest.sqlite_header import sqlite_problem

__all__ = ["NAME", "Manifest", "ManifestError", "lmdb_problem", "regions_of", "sqlite_problem"]
