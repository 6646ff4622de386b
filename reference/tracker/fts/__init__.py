"""Reading SQLite FTS5 itself: its bookkeeping, its tokens, its ranked matches.

- `records.py`: row count, token totals and per-row sizes from FTS5's shadow tables;
- `tokens.py`: FTS5's own tokens for a text outside the index (a private in-memory FTS5 table);
- `topk.py`: the best FTS5 matches among allowed memories, in one ranked query.
"""
