"""Check every graph snapshot under the data folder (any file starting with the snapshot magic)."""
from __future__ import annotations

from pathlib import Path

from reference.errors import StoreError
from reference.graph.snapshot.layout import MAGIC
from reference.graph.snapshot.reader import SnapshotReader

_STORE_FILES = {"tracker.db", "tracker.db-wal", "tracker.db-shm", "blob.dat", "blob.dat.corrupt", "data.mdb",
                "lock.mdb"}


def check_snapshots(root: Path, report) -> None:
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.name not in _STORE_FILES
                       and not p.name.startswith("vectors.")):
        with open(path, "rb") as fh:
            if fh.read(len(MAGIC)) != MAGIC and path.suffix != ".snap":
                continue
        try:
            with SnapshotReader.open(path) as snap:
                report.checked[str(path)] = snap.n_keys
        except (StoreError, OSError, ValueError) as exc:
            report.add(path, "snapshot", str(exc)[:300])
