"""The check `Tracker` runs when it opens `tracker.db` (issue 11).

A per-read row checksum proves that a returned row is the one written, but a
damaged row or index entry can also make a row silently *not* returned: a
flipped `task` no longer matches its filter, a flipped index key hides the
row from lookups through that index. So on open the tracker runs SQLite's
`PRAGMA integrity_check(table)` on its own tables (b-tree structure, and
every index entry against its table row) and checks the checksum of every
memory row (the table that is filtered on unindexed columns: context,
insights, tags, metadata; the code tables are read by indexed columns only).
Either failing raises `CorruptData` naming the file and the first problems;
`codemem-bench verify` gives the full list.

Cost is linear in the rows of these tables (measured in reference/README.md);
the layers' tables and the FTS indexes are left to `verify`.
"""
from __future__ import annotations

import sqlite3

from reference.errors import CorruptData, corrupt
from reference.tracker.rowsum import TABLES, check_row

CHECKED = ("keys", *TABLES)
_SHOW = 3


def check_on_open(conn: sqlite3.Connection, path: str) -> None:
    """Raise `CorruptData` if the tracker's own tables, their indexes or any row checksum are damaged."""
    problems: list[str] = []
    for table in CHECKED:
        lines = [r[0] for r in conn.execute(f"PRAGMA integrity_check({table})")]
        if lines != ["ok"]:
            problems += [f"{table}: {line}" for line in lines[:_SHOW]]
    cols = TABLES["memories"][0]
    for row in conn.execute(f"SELECT {', '.join(cols)}, row_sum FROM memories"):
        try:
            check_row(path, "memories", row)
        except CorruptData as exc:
            problems.append(f"{exc.record}: row checksum mismatch")
            break
    if problems:
        raise corrupt(path, None, "damaged on disk (" + "; ".join(problems[:_SHOW]) + "); run "
                      "`codemem-bench verify --data <folder>` for every damaged record")
