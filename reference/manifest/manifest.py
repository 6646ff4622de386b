"""`manifest.json`: which store files exist, how long each was at the last checkpoint, per-region CRC-32s.

    m = Manifest.read(data_dir)                         # None if the store has none yet
    m.problems(data_dir)                                # [(file, why)]: missing or cut files (cheap: stat)
    m.region_problems(data_dir)                         # [(file, record, why)]: also every region's CRC (verify)
    Manifest.record(data_dir, {"blob.dat": 1234, ...})  # at close / checkpoint: lengths the store vouches for

In the spirit of SQLite's WAL header and LMDB's meta pages, which record what the
files they describe must hold: the append-only files (`blob.dat`, `vectors.*`)
only grow, so a file shorter than the length recorded at the last checkpoint,
or missing, was damaged, whatever its own framing says (a cut at a record
boundary looks like a clean shorter file). Lengths are what the store itself
read or wrote as whole records (never a torn tail another process is writing),
so the next open's torn-tail repair never cuts below them.

Regions: each file's first `length` bytes in `REGION` (1 MiB) pieces, one
CRC-32 each (`zlib.crc32`, as hex); the last may be partial. Append-only files
never change below their length, so a region recorded whole is reused by the
next record without reading it again: a checkpoint reads only the bytes
appended since the last one plus one region. `verify` re-reads them all.

Files changed in place (`tracker.db`, `graph/data.mdb`) are listed with their
presence only (`"length": null`); their own headers say how long they must be
(`sqlite_header`, `lmdb_meta`). Written to a temporary name, then renamed. The
file is plain JSON, keys sorted:

    {"format": 1, "region_bytes": 1048576,
     "files": {"blob.dat": {"length": 5120, "regions": ["1c291ca3"]}, "tracker.db": {"length": null}}}
"""
from __future__ import annotations

import json
import os
import threading
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NAME = "manifest.json"
FORMAT = 1
REGION = 1 << 20
WRITE_ONCE = ("snapshots/",)      # files written whole, once: longer than recorded is damage too
_LOCK = threading.Lock()


class ManifestError(ValueError):
    """`manifest.json` itself is unreadable; the message names it."""


@dataclass
class FileEntry:
    """One file: its length at the last checkpoint (None: changed in place) and its regions' CRC-32s."""

    length: int | None
    regions: list[str] = field(default_factory=list)


@dataclass
class Manifest:
    files: dict[str, FileEntry]
    region_bytes: int = REGION

    # -- reading ----------------------------------------------------------------------------------
    @classmethod
    def read(cls, data_dir: str | Path) -> Manifest | None:
        """The folder's manifest, None if it has none; `ManifestError` naming it if it cannot be read."""
        path = Path(data_dir) / NAME
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise ManifestError(f"{path}: cannot be read ({exc.strerror})") from None
        with os.fdopen(fd, "rb") as fh:
            raw = fh.read(16 << 20)
        try:
            doc = json.loads(raw)
            if doc.get("format") != FORMAT:
                raise ValueError(f"format {doc.get('format')!r}, this code reads {FORMAT}")
            files = {str(name): FileEntry(None if e["length"] is None else int(e["length"]),
                                          [str(r) for r in e.get("regions", [])])
                     for name, e in doc["files"].items()}
            manifest = cls(files, int(doc.get("region_bytes", REGION)))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ManifestError(f"{path}: not a store manifest ({str(exc)[:120]})") from None
        if raw != manifest._bytes():    # the writer's exact bytes: a cut or added byte is seen, even a newline
            raise ManifestError(f"{path}: not as the store wrote it ({len(raw):,} bytes; cut, extended or edited)")
        return manifest

    def problems(self, data_dir: str | Path) -> list[tuple[str, str]]:
        """(file, why) for each listed file that is missing or shorter than recorded (one `stat` each)."""
        root, out = Path(data_dir), []
        for name, entry in sorted(self.files.items()):
            path = root / name
            try:
                size = os.stat(path).st_size
            except FileNotFoundError:
                out.append((str(path), f"missing: {NAME} lists it (the store wrote it; restore it from a copy)"))
                continue
            if entry.length is not None and size < entry.length:
                out.append((str(path), f"is {size:,} bytes, shorter than the {entry.length:,} recorded in {NAME} "
                                       f"at the last checkpoint: the file was cut"))
            elif entry.length is not None and size > entry.length and name.startswith(WRITE_ONCE):
                out.append((str(path), f"is {size:,} bytes, longer than the {entry.length:,} recorded in {NAME}; "
                                       f"it is written once, never appended to"))
        return out

    def region_problems(self, data_dir: str | Path) -> list[tuple[str, str, str]]:
        """(file, record, why) for every region whose CRC-32 differs from the recorded one (reads the files)."""
        root, out = Path(data_dir), []
        for name, entry in sorted(self.files.items()):
            if entry.length is None or not entry.regions:
                continue
            path = root / name
            try:
                got = regions_of(path, entry.length, self.region_bytes)
            except OSError:
                continue                       # missing or cut: `problems` says so
            for i, (want, have) in enumerate(zip(entry.regions, got)):
                if want != have:
                    start = i * self.region_bytes
                    end = min(start + self.region_bytes, entry.length)
                    out.append((str(path), f"bytes {start:,}..{end:,}",
                                f"region checksum mismatch (CRC-32 {have}, {NAME} recorded {want})"))
        return out

    # -- writing ----------------------------------------------------------------------------------
    @classmethod
    def record(cls, data_dir: str | Path, lengths: dict[str, int | None]) -> Manifest:
        """Write the manifest for `lengths` (file -> whole-record length, None for in-place files).

        A file recorded before keeps the regions it had wholly below its new length (they cannot
        have changed in an append-only file); only the rest is read."""
        root = Path(data_dir)
        with _LOCK:
            try:
                old = cls.read(root)
            except ManifestError:
                old = None
            files: dict[str, FileEntry] = {}
            for name, length in sorted(lengths.items()):
                if length is None:
                    files[name] = FileEntry(None)
                    continue
                prev = old.files.get(name) if old is not None and old.region_bytes == REGION else None
                if name.startswith(WRITE_ONCE):
                    prev = None                 # replaced whole (a re-export), never appended to: read it all
                keep = 0
                if prev is not None and prev.length is not None and prev.length <= length:
                    keep = min(len(prev.regions), prev.length // REGION)   # whole regions only
                regions = list(prev.regions[:keep]) if prev is not None else []
                regions += regions_of(root / name, length, REGION, start_region=keep)
                files[name] = FileEntry(length, regions)
            manifest = cls(files)
            manifest._write(root)
            return manifest

    def _bytes(self) -> bytes:
        doc: dict[str, Any] = {"format": FORMAT, "region_bytes": self.region_bytes,
                               "files": {name: ({"length": e.length, "regions": e.regions}
                                                if e.length is not None else {"length": None})
                                         for name, e in sorted(self.files.items())}}
        return (json.dumps(doc, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")

    def _write(self, root: Path) -> None:
        target = root / NAME
        if target.is_symlink():
            raise ManifestError(f"{target}: is a symlink; it is not replaced")
        tmp = root / f".{NAME}.{os.getpid()}.{threading.get_ident()}.tmp"
        tmp.write_bytes(self._bytes())
        os.replace(tmp, target)


def regions_of(path: Path, length: int, region: int = REGION, start_region: int = 0) -> list[str]:
    """CRC-32 hex of each `region`-byte piece of `path`'s first `length` bytes, from `start_region` on."""
    out = []
    with open(path, "rb") as fh:
        fh.seek(start_region * region)
        pos = start_region * region
        while pos < length:
            chunk = fh.read(min(region, length - pos))
            if not chunk:
                raise OSError(f"{path}: shorter than {length} bytes")
            out.append(f"{zlib.crc32(chunk):08x}")
            pos += len(chunk)
    return out
