"""Check an LMDB `data.mdb` against its own meta pages before LMDB maps it (issue 25).

LMDB memory-maps the file and trusts it: a file cut below the pages its meta
page says are in use made the reading process die of SIGBUS, with no error.
Its two meta pages (pages 0 and 1, the newer one by transaction id wins) record
the page size and the last page in use, so the file must hold at least
`(last_pgno + 1) * page_size` bytes. Layout (LMDB 0.9, 64-bit): a 16-byte page
header, then `MDB_meta`: magic u32 0xBEEFC0DE, version u32, address u64, map
size u64, two `MDB_db` of 48 bytes (the first's leading u32 holds the page size),
last page u64 (byte 136), transaction id u64 (byte 144).
"""
from __future__ import annotations

import os
import struct
from pathlib import Path

MAGIC = 0xBEEFC0DE
_META = struct.Struct("<II")            # magic, version at byte 16
_PSIZE = struct.Struct("<I")            # at byte 40: mm_dbs[0].md_pad, the page size
_TAIL = struct.Struct("<QQ")            # at byte 136: last page, txnid
MIN_PAGE = 512


def lmdb_problem(path: str | Path) -> str | None:
    """Why `path` cannot be a whole LMDB data file (cut short, no meta page), or None if its size is sound."""
    path = Path(path)
    try:
        size = os.stat(path).st_size
        with open(path, "rb") as fh:
            head = fh.read(2 * 65536)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    best: tuple[int, int, int] | None = None        # (txnid, last page, page size)
    psize = _meta_psize(head, 0)
    for page in (0, 1):
        at = page * (psize or 0)
        meta = _meta(head, at) if psize else None
        if meta is not None and (best is None or meta[0] > best[0]):
            best = meta
    if best is None:
        return (f"has no valid LMDB meta page ({size:,} bytes; the file is cut short or not an LMDB file)")
    _txn, last, psize = best
    need = (last + 1) * psize
    if size < need:
        return (f"is {size:,} bytes, shorter than the {need:,} its meta page records ({last + 1:,} pages of "
                f"{psize:,} bytes): the file was cut")
    if size % psize:       # LMDB writes whole pages only (pages past the meta's last are a crashed commit's)
        return f"is {size:,} bytes, not a whole number of {psize:,}-byte pages: bytes were added or cut"
    return None


def _meta_psize(head: bytes, at: int) -> int | None:
    if len(head) < at + 48:
        return None
    magic, _version = _META.unpack_from(head, at + 16)
    psize = _PSIZE.unpack_from(head, at + 40)[0]
    if magic != MAGIC or psize < MIN_PAGE or psize & (psize - 1):
        return None
    return psize


def _meta(head: bytes, at: int) -> tuple[int, int, int] | None:
    psize = _meta_psize(head, at)
    if psize is None or len(head) < at + 152:
        return None
    last, txnid = _TAIL.unpack_from(head, at + 136)
    return txnid, last, psize
