"""The memory store's files as wholes: checked before they are opened, recorded when the store closes (issue 25).

    check_store_files(data_dir)                       # CorruptData naming the first cut or deleted core file
    record_store_files(data_dir, blob_end, rows, dim) # manifest.json, at close and at checkpoints
    vector_damage(sizes, dim, recorded_rows)          # which vector file is cut or extended, if any

Core files (`tracker.db`, `blob.dat`, `vectors.*`) are checked when the store
opens, before the blob and vector files run their torn-tail repair (which
would otherwise cut the other files down to a damaged one and lose rows).
Snapshots and `graph/data.mdb` are listed too but checked where they are read
(`SnapshotReader`, `GraphStore.open`) and by `verify`: a damaged snapshot must
not stop the memory store from opening.
"""
from __future__ import annotations

import os
from pathlib import Path

from reference.errors import CorruptData
from reference.manifest.manifest import NAME, Manifest, ManifestError
from reference.manifest.sqlite_header import sqlite_problem

HEADER_SIZE = 64                                   # vectors.f32's header (reference/README.md)
VECTOR_FILES = ("vectors.f32", "vectors.tags", "vectors.keys", "vectors.sums")
CORE = ("tracker.db", "blob.dat", *VECTOR_FILES)
_WIDTH = {"vectors.tags": 1, "vectors.keys": 8, "vectors.sums": 4}


def check_store_files(data_dir: str | Path) -> None:
    """Raise `CorruptData` naming a core file that is missing, cut, or (tracker.db) not whole pages."""
    root = Path(data_dir)
    try:
        manifest = Manifest.read(root)
    except ManifestError as exc:
        raise CorruptData(str(exc), file=str(root / NAME)) from None
    db = root / "tracker.db"
    if manifest is not None:
        core = [(f, why) for f, why in manifest.problems(root) if Path(f).name in CORE and Path(f).parent == root]
        if core:
            more = f" (also: {', '.join(Path(f).name for f, _ in core[1:])})" if len(core) > 1 else ""
            raise CorruptData(f"{core[0][0]}: {core[0][1]}{more}", file=core[0][0])
    elif not db.exists() and _size(root / "blob.dat") + _size(root / "vectors.keys") > 0:
        raise CorruptData(f"{db}: missing while {root / 'blob.dat'} and the vector files hold the store's data: "
                          "tracker.db was deleted; restore it from a copy (a fresh store is not created over "
                          "existing data)", file=str(db))
    if db.exists():
        why = sqlite_problem(db)
        if why is not None:
            raise CorruptData(f"{db}: {why}", file=str(db))


def recorded_rows(data_dir: str | Path, dim: int) -> int | None:
    """Vector rows the manifest vouches for (from `vectors.keys`' length), None without a manifest entry."""
    try:
        manifest = Manifest.read(data_dir)
    except ManifestError:
        return None
    entry = manifest.files.get("vectors.keys") if manifest is not None else None
    return None if entry is None or entry.length is None else entry.length // 8


def vector_lengths(rows: int, dim: int) -> dict[str, int]:
    """Each vector file's length when it holds `rows` whole rows of `dim` dimensions."""
    return {"vectors.f32": HEADER_SIZE + rows * dim * 4, **{n: rows * w for n, w in _WIDTH.items()}}


def record_store_files(data_dir: str | Path, blob_end: int, vector_rows: int, dim: int) -> None:
    """Write `manifest.json` for the lengths this process vouches for (whole records it read or wrote)."""
    root = Path(data_dir)
    lengths: dict[str, int | None] = {"tracker.db": None}
    if (root / "blob.dat").exists():
        lengths["blob.dat"] = blob_end
    if (root / "vectors.f32").exists():
        lengths.update(vector_lengths(vector_rows, dim))
    if (root / "graph" / "data.mdb").exists():
        lengths["graph/data.mdb"] = None
    for snap in sorted((root / "snapshots").glob("*.snap")) if (root / "snapshots").is_dir() else []:
        if not snap.is_symlink():
            lengths[f"snapshots/{snap.name}"] = snap.stat().st_size
    Manifest.record(root, lengths)


def vector_damage(sizes: dict[str, int], dim: int, recorded: int | None) -> tuple[str, str] | None:
    """(file name, why) when the four vector files' sizes cannot come from whole appends plus one torn one.

    An append writes rows, then tags, then sums, then keys, so a torn one leaves `vectors.keys` with
    the fewest whole rows. Damage, then: a file holding fewer rows than the manifest recorded
    (cut), `vectors.keys` holding more whole rows than another file (extended, or that file cut),
    told apart by the recorded count when there is one."""
    rows = {"vectors.f32": max(0, sizes["vectors.f32"] - HEADER_SIZE) // (dim * 4),
            **{n: sizes[n] // w for n, w in _WIDTH.items()}}
    if recorded is not None:
        for name in VECTOR_FILES:
            if rows[name] < recorded:
                return name, (f"holds {rows[name]:,} whole rows, fewer than the {recorded:,} recorded in {NAME}: "
                              f"the file was cut")
    keys = rows["vectors.keys"]
    short = [n for n in ("vectors.f32", "vectors.tags", "vectors.sums") if rows[n] < keys]
    if not short:
        return None
    if recorded is not None and keys > recorded and all(rows[n] >= recorded for n in short):
        return "vectors.keys", (f"holds {keys:,} keys, more than the rows of {', '.join(short)} "
                                f"({min(rows[n] for n in short):,}): bytes were added to it")
    return short[0], (f"holds {rows[short[0]]:,} whole rows, fewer than the {keys:,} keys of vectors.keys "
                      f"(keys are written last): the file was cut")


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0
