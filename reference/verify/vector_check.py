"""Check the vector files read-only: header, sizes agreeing on a row count, every row checksum."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from reference.manifest import Manifest, ManifestError
from reference.manifest.store_files import recorded_rows, vector_damage
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
    on_disk = {p.name: p.stat().st_size if p.exists() else 0 for p in (rows_p, tags_p, keys_p, sums_p)}
    damage = vector_damage(on_disk, dim, recorded_rows(root, dim))
    if damage is not None:                         # the one file that was cut or extended (see store_files)
        report.add(root / damage[0], "file", damage[1])
    else:
        whole = {rows_p: HEADER_SIZE + n * dim * 4, tags_p: n, sums_p: n * 4, keys_p: n * 8}
        for p, size in whole.items():
            if on_disk[p.name] > size:             # what an open would cut: a torn append, or bytes added
                report.add(p, "tail", f"{on_disk[p.name] - size:,} bytes past the last row vectors.keys names "
                                      f"(a torn append or added bytes; the next open cuts them)")
    n = min([n, *sizes.values()])
    got = row_sums(keys[:n], rows[: n * dim].reshape(n, dim), tags[:n])
    bad = np.flatnonzero(got != sums[:n])
    if len(bad):
        culprit = _culprits(root, bad, n)
        for i in bad.tolist():
            report.add(culprit.get(i, f"{root}/{{{', '.join(_NAMES)}}}"), f"row {i} (key {int(keys[i]):#018x})",
                       "row checksum mismatch (its vector, tag, key or checksum was damaged)")
    for p in (rows_p, tags_p, keys_p, sums_p):
        report.checked[str(p)] = n


def _culprits(root: Path, bad: np.ndarray, n: int) -> dict[int, str]:
    """Row -> the one vector file whose bytes of that row differ from what `manifest.json` recorded.

    A row's checksum covers four files; the manifest's per-region CRC-32s say which of them changed
    in the region holding the row. Rows whose damage no single file's regions explain stay unnamed
    (the caller names the group)."""
    try:
        manifest = Manifest.read(root)
    except ManifestError:
        return {}
    if manifest is None:
        return {}
    changed: dict[str, set[int]] = {}
    for file, record, _why in manifest.region_problems(root):
        name = Path(file).name
        if name in _NAMES:
            start, end = (int(x.replace(",", "")) for x in record.split()[1].split(".."))
            changed.setdefault(name, set()).update(range(start // manifest.region_bytes,
                                                         (end - 1) // manifest.region_bytes + 1))
    dim_bytes = {}
    head = (root / "vectors.f32").read_bytes()[:HEADER_SIZE]
    dim = HEADER.unpack(head)[2]
    dim_bytes = {"vectors.f32": (HEADER_SIZE, dim * 4), "vectors.tags": (0, 1), "vectors.keys": (0, 8),
                 "vectors.sums": (0, 4)}
    out: dict[int, str] = {}
    for i in bad.tolist():
        names = [name for name, regions in changed.items()
                 if _region_of(i, *dim_bytes[name], manifest.region_bytes) & regions]
        if len(names) == 1:
            out[i] = str(root / names[0])
    return out


def _region_of(row: int, offset: int, width: int, region: int) -> set[int]:
    start = offset + row * width
    return set(range(start // region, (start + width - 1) // region + 1))
