"""The keyword index: FTS5's bm25 over `memories_fts`, recomputed in numpy from mirrored postings.

- `index.py`: `KeywordIndex`, the ranking (the same scores as `ORDER BY bm25(memories_fts)`);
- `postings.py`: the postings and row bookkeeping it keeps in step with writes;
- `rows.py`: FTS rowid (a memory's key hash) -> the index's dense internal row;
- `bm25.py`: the arithmetic, in FTS5's own order of floating-point operations.
"""
