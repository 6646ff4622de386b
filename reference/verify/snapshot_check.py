"""Check every graph snapshot (`*.snap`) under the data folder: header and section CRCs."""
from __future__ import annotations

from pathlib import Path

from reference.errors import StoreError
from reference.graph.snapshot_reader import SnapshotReader


def check_snapshots(root: Path, report) -> None:
    for path in sorted(root.rglob("*.snap")):
        try:
            with SnapshotReader.open(path) as snap:
                report.checked[str(path)] = snap.n_keys
        except (StoreError, OSError, ValueError) as exc:
            report.add(path, "snapshot", str(exc)[:300])
