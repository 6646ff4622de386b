"""The `sqlite-vec` backend: SQLite with a sqlite-vec `vec0` table and FTS5 (optional extra `sqlite-vec`)."""
