"""Check the vector files read-only: header, sizes agreeing on a row count, every row checksum."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from reference.vectors.files import HEADER, HEADER_SIZE, MAGIC, VERSION, row_sums

_NAMES = ("vectors.f32", "vectors.tags", "vectors.keys", "vectors.sums")


def check_vectors(root: Path, report) -> None:
    rows_p, tags_p, keys_p, sums_p = (root / n for n in _NAMES)
    if not rows_p.exists():
        return
    head = rows_p.read_bytes()[:HEADER_SIZE]
    if len(head) < HEADER_SIZE:
        report.add(rows_p, "header", f"cut short ({len(head)} of {HEADER_SIZE} bytes)")
        return
    magic, version, dim, _ = HEADER.unpack(head)
    if magic != MAGIC or version != VERSION or not 0 < dim <= 65536:
        report.add(rows_p, "header", f"magic {magic!r}, version {version}, dim {dim} are not a vector file's")
        return
    keys = np.fromfile(keys_p, dtype="<u8") if keys_p.exists() else np.zeros(0, "<u8")
    n = len(keys)
    tags = np.fromfile(tags_p, dtype=np.uint8) if tags_p.exists() else np.zeros(0, np.uint8)
    rows = np.fromfile(rows_p, dtype="<u4", offset=HEADER_SIZE)
    if not sums_p.exists():
        report.add(sums_p, "file", "missing: row checksums cannot be checked (open the store once to create it)")
        return
    sums = np.fromfile(sums_p, dtype="<u4")
    sizes = {tags_p: len(tags), sums_p: len(sums), rows_p: len(rows) // dim}
    for p, have in sizes.items():
        if have < n:
            report.add(p, f"rows {have}..{n - 1}", f"holds {have} rows but vectors.keys holds {n}")
    n = min([n, *sizes.values()])
    got = row_sums(keys[:n], rows[: n * dim].reshape(n, dim), tags[:n])
    for i in np.flatnonzero(got != sums[:n]).tolist():
        report.add(f"{root}/{{{', '.join(_NAMES)}}}", f"row {i} (key {int(keys[i]):#018x})",
                   "row checksum mismatch (its vector, tag, key or checksum was damaged)")
    for p in (rows_p, tags_p, keys_p, sums_p):
        report.checked[str(p)] = n
