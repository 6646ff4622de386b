"""On-disk cache of compiled Hyperscan databases, named by content hash.

Layout (documented in README.md): `<data_dir>/patterns/<digest>.hsdb`, where
`digest` is the SHA-256 of the canonical JSON of the patterns, their
Hyperscan flags, the scan mode and the bindings' version. A file is

    8 bytes   magic b"CMHSDB1\\n"
    32 bytes  SHA-256 of the payload
    n bytes   payload: `hyperscan.dumpb(database)`

A file whose magic or checksum is wrong, or that Hyperscan refuses to
deserialise (another version or CPU), reads as a miss, and the caller
recompiles and overwrites it. Writes go to a temporary file that is renamed
into place, so a crash never leaves a half-written file under the final name.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import hyperscan

MAGIC = b"CMHSDB1\n"
FORMAT = 1


def database_digest(patterns: list[str], hs_flags: list[int]) -> str:
    """SHA-256 hex of what determines the compiled bytes."""
    doc = {"format": FORMAT, "engine": f"hyperscan-py-{hyperscan.__version__}", "mode": "block",
           "patterns": patterns, "flags": hs_flags}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


class DatabaseCache:
    """Reads and writes framed `.hsdb` files in one folder (None: no caching)."""

    def __init__(self, folder: str | Path | None) -> None:
        self.folder = Path(folder) if folder is not None else None

    def path(self, digest: str) -> Path | None:
        return self.folder / f"{digest}.hsdb" if self.folder is not None else None

    def exists(self, digest: str) -> bool:
        path = self.path(digest)
        return path is not None and path.exists()

    def get(self, digest: str) -> bytes | None:
        """The payload if a sound file exists, else None (missing, torn or corrupt)."""
        path = self.path(digest)
        if path is None:
            return None
        try:
            # O_NOFOLLOW: a symlink planted under the cache's name is a miss, never read (issue 25);
            # `put` then replaces the link itself, not its target
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return None
        with os.fdopen(fd, "rb") as fh:
            raw = fh.read()
        head, check, payload = raw[:8], raw[8:40], raw[40:]
        if head != MAGIC or hashlib.sha256(payload).digest() != check:
            return None
        return payload

    def put(self, digest: str, payload: bytes) -> None:
        """Store `payload` atomically under `digest`."""
        path = self.path(digest)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_bytes(MAGIC + hashlib.sha256(payload).digest() + payload)
        os.replace(tmp, path)
