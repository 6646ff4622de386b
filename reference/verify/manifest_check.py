"""Check the store's files as wholes: the manifest's list, lengths and region CRCs, and tracker.db's header."""
from __future__ import annotations

from pathlib import Path

from reference.manifest import NAME, Manifest, ManifestError, sqlite_problem


def check_manifest(root: Path, report) -> None:
    db = root / "tracker.db"
    if db.exists():
        why = sqlite_problem(db)
        if why is not None:
            report.add(db, "file", why)
    try:
        manifest = Manifest.read(root)
    except ManifestError as exc:
        report.add(root / NAME, "file", str(exc))
        return
    if manifest is None:
        if db.exists():   # written at every close since issue 25: an older store gets it when next closed
            report.add(root / NAME, "file", "missing: file lengths cannot be checked (open and close the store "
                                            "once to write it)")
        return
    for file, why in manifest.problems(root):
        report.add(file, "file", why)
    for file, record, why in manifest.region_problems(root):
        report.add(file, record, why)
    report.checked[str(root / NAME)] = len(manifest.files)
