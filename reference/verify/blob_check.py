"""Check every frame of `blob.dat` read-only: magic, length and checksum, resyncing past damage."""
from __future__ import annotations

import mmap
from pathlib import Path

from reference.blob.frames import HEADER, HEADER_SIZE, MAGIC, frame_ok, next_valid_frame


def check_blob(path: Path, report) -> None:
    if not path.exists():
        return
    size = path.stat().st_size
    count = 0
    if size == 0:
        report.checked[str(path)] = 0
        return
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        pos = 0
        while pos < size:
            why = _frame_problem(mm, pos, size)
            if why is None:
                count += 1
                pos += HEADER_SIZE + HEADER.unpack_from(mm, pos)[1]
                continue
            nxt = next_valid_frame(mm, pos, size)
            end = size if nxt is None else nxt
            report.add(path, f"record at offset {pos + HEADER_SIZE} (bytes [{pos}, {end}))", why)
            pos = end
    report.checked[str(path)] = count


def _frame_problem(mm: mmap.mmap, pos: int, size: int) -> str | None:
    if size - pos < HEADER_SIZE:
        return f"{size - pos} bytes of a header cut short (torn tail)"
    magic, length, _ = HEADER.unpack_from(mm, pos)
    if magic != MAGIC:
        return "bad magic"
    if pos + HEADER_SIZE + length > size:
        return f"frame length {length} runs past end of file"
    if not frame_ok(mm, pos):
        return "checksum mismatch"
    return None
