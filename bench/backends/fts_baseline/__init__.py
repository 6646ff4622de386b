"""The `fts-baseline` backend: SQLite FTS5 ranked by bm25 alone, and the memory table and records
that the other alternative backends (sqlite-vec, chroma, jsonl-graph) share."""
