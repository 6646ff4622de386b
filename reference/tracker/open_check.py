"""The check `Tracker` runs when it opens `tracker.db` (issue 11).

A per-read row checksum proves that a returned row is the one written, but a
damaged row or index entry can also make a row silently *not* returned: a
flipped `task` no longer matches its filter, a flipped index key hides the
row from lookups through that index. So on open the tracker runs SQLite's
`PRAGMA integrity_check(table)` on its own tables (b-tree structure, and
every index entry against its table row) and checks the checksum of every
memory row (the table that is filtered on unindexed columns: context,
insights, tags, metadata; the code tables are read by indexed columns only).
A damaged b-tree or index raises `CorruptData` naming the file and the first
problems (`codemem-bench verify` gives the full list): no filter could be
trusted. Rows whose own checksum fails are returned instead (issue 25: degrade,
don't disappear): the store opens, serves every other memory, and every read
that could involve a damaged row says so (`Tracker.damaged`, memories_table.py).

Cost is linear in the rows of these tables (measured in reference/README.md);
the layers' tables and the FTS indexes are left to `verify`.
"""
from __future__ import annotations

import sqlite3
from typing import NamedTuple

from reference.errors import CorruptData, corrupt
from reference.tracker.rowsum import TABLES, check_row

CHECKED = ("keys", *TABLES)
_SHOW = 3


def check_on_open(conn: sqlite3.Connection, path: str) -> tuple[DamagedRow, ...]:
    """Raise `CorruptData` if the tracker's own tables or their indexes are damaged; return the memory rows
    whose checksum fails (each one's record and key hash)."""
    problems: list[str] = []
    for table in CHECKED:
        lines = [r[0] for r in conn.execute(f"PRAGMA integrity_check({table})")]
        if lines != ["ok"]:
            problems += [f"{table}: {line}" for line in lines[:_SHOW]]
    if problems:
        raise corrupt(path, None, "damaged on disk (" + "; ".join(problems[:_SHOW]) + "); run "
                      "`codemem-bench verify --data <folder>` for every damaged record")
    cols = TABLES["memories"][0]
    at = cols.index("key_hash")
    damaged: list[DamagedRow] = []
    for row in conn.execute(f"SELECT {', '.join(cols)}, row_sum FROM memories"):
        try:
            check_row(path, "memories", row)
        except CorruptData as exc:
            damaged.append(DamagedRow(str(exc), row[at] if isinstance(row[at], int) else None))
    return tuple(damaged)


class DamagedRow(NamedTuple):
    """A memory row whose checksum failed on open: the store's error about it, and its key hash as stored."""

    error: str
    key_hash: int | None
