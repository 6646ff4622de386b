"""`verify_store(data_dir)`: check every file of a store without changing any byte (issue 11).

Checks, file by file (each in its own module):

- `tracker.db` (tracker_check.py): `PRAGMA integrity_check` (b-trees, and
  that every index matches its table), the FTS5 `integrity-check` of both
  full-text indexes, every row checksum, every `keys` row against its hash,
  and every memory row against its blob record;
- `blob.dat` (blob_check.py): every frame's magic, length and checksum;
- `vectors.*` (vector_check.py): header, file sizes and every row checksum;
- `graph/data.mdb` (graph_check.py): every value's frame (its CRC covers the
  LMDB key, so a flipped key byte shows too), key order, the revision log, and
  that every node and adjacency entry the log and the lists promise exists;
- snapshots (`*.snap` anywhere under the data folder): header and section CRCs;
- the files as a whole (manifest_check.py): every file `manifest.json` lists is
  there and no shorter than recorded, every recorded region's CRC-32, and
  `tracker.db`'s size against its own header (reference/manifest/README.md).

A file that is absent is skipped (a store need not have a graph). Nothing is
repaired: the report names each damaged file and record; see reference/README.md
for what to do next.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    """One damaged record: the file, the record or key inside it, and what failed."""

    file: str
    record: str
    why: str

    def __str__(self) -> str:
        return f"{self.file}: {self.record}: {self.why}"


@dataclass
class VerifyReport:
    """What was checked (file -> records checked) and every problem found."""

    data_dir: str
    checked: dict[str, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, file: str | Path, record: str, why: str) -> None:
        self.problems.append(Problem(str(file), record[:120], why[:300]))

    def damaged_files(self) -> list[str]:
        return sorted({p.file for p in self.problems})

    def summary(self) -> str:
        records = sum(self.checked.values())
        if self.ok:
            return f"ok: {len(self.checked)} files, {records} records checked in {self.data_dir}, no damage"
        return (f"DAMAGED: {len(self.problems)} problem(s) in {len(self.damaged_files())} file(s) "
                f"({', '.join(self.damaged_files())}); {records} records checked in {self.data_dir}")


def verify_store(data_dir: str | Path) -> VerifyReport:
    """Check every store file under `data_dir`; never writes."""
    from reference.verify.blob_check import check_blob
    from reference.verify.graph_check import check_graph
    from reference.verify.manifest_check import check_manifest
    from reference.verify.snapshot_check import check_snapshots
    from reference.verify.tracker_check import check_tracker
    from reference.verify.vector_check import check_vectors

    root = Path(data_dir)
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such data folder")
    report = VerifyReport(str(root))
    check_manifest(root, report)
    check_blob(root / "blob.dat", report)
    check_tracker(root / "tracker.db", root / "blob.dat", report)
    check_vectors(root, report)
    check_graph(root / "graph", report)
    check_snapshots(root, report)
    return report


__all__ = ["Problem", "VerifyReport", "verify_store"]
