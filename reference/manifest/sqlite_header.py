"""Check a SQLite database file's size against its own header (issue 25).

A SQLite file is whole pages; its 100-byte header records the page size (bytes
16-17, 1 meaning 65536) and the page count at the last commit to the file
itself (bytes 28-31, valid when the change counter at 24 equals the
"version-valid-for" number at 92). In WAL mode new pages live in the `-wal` file
until a checkpoint copies them back, so the main file holds at least the pages
its header counts: a file that is not whole pages, or holds fewer than the
header's count, was cut. SQLite itself notices only when a query reaches a
missing page.
"""
from __future__ import annotations

import os
from pathlib import Path

MAGIC = b"SQLite format 3\x00"


def sqlite_problem(path: str | Path) -> str | None:
    """Why `path` is not a whole SQLite file (cut short, bad header), or None if its size is sound."""
    path = Path(path)
    try:
        size = os.stat(path).st_size
        with open(path, "rb") as fh:
            head = fh.read(100)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if size == 0:
        return None                               # created, nothing committed to the file yet
    if len(head) < 100 or head[:16] != MAGIC:
        return f"does not start with a SQLite header ({size:,} bytes)"
    psize = int.from_bytes(head[16:18], "big")
    psize = 65536 if psize == 1 else psize
    if psize < 512 or psize & (psize - 1):
        return f"has a damaged header (page size {psize})"
    if size % psize:
        return f"is {size:,} bytes, not a whole number of {psize:,}-byte pages: the file was cut or extended"
    pages = int.from_bytes(head[28:32], "big")
    valid = head[24:28] == head[92:96]
    if valid and size < pages * psize:
        return (f"is {size:,} bytes, shorter than the {pages:,} pages of {psize:,} bytes its header counts: "
                f"the file was cut")
    return None
