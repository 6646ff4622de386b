"""FTS5's own tokens for texts outside the index, from a private in-memory FTS5 table.

The keyword index (`reference/tracker/keyword/index.py`) must see exactly the tokens FTS5 sees:
porter stemming, unicode61 folding and diacritics removal. Rather than
re-implement them, text is put through an in-memory FTS5 table with the same
tokenizer as `memories_fts` and read back through `fts5vocab(..., instance)`.
Nothing here touches the store's database.
"""
from __future__ import annotations

import sqlite3
import threading

import numpy as np

from reference.tracker.migrations import FTS_TOKENIZER

# a position packs the column (0 text, 1 tags) above the token offset within that column
COL_SHIFT = 28
_MAX_CACHED_PHRASES = 1 << 16


class FtsTokens:
    """Tokenizes documents (text, tags) and query phrases as `memories_fts` does."""

    def __init__(self, tokenizer: str = FTS_TOKENIZER) -> None:
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self._conn.execute(f"CREATE VIRTUAL TABLE mirror USING fts5(text, tags, content='', tokenize='{tokenizer}')")
        self._conn.execute("CREATE VIRTUAL TABLE mirror_vi USING fts5vocab(mirror, instance)")
        self._phrases: dict[str, tuple[str, ...]] = {}

    def documents(self, docs: list[tuple[str, str]]) -> tuple[list[str], np.ndarray, np.ndarray]:
        """Every token instance of the documents: (terms, document index, packed position).

        Instances come grouped by term; `docs[i]` is (text, tags) as inserted into `memories_fts`.
        """
        if not docs:
            return [], np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN")
            try:
                conn.executemany("INSERT INTO mirror(rowid, text, tags) VALUES (?, ?, ?)",
                                 [(i, t, g) for i, (t, g) in enumerate(docs)])
                rows = conn.execute(f"SELECT term, doc, (col = 'tags') << {COL_SHIFT} | offset FROM mirror_vi"
                                    ).fetchall()
                conn.execute("INSERT INTO mirror(mirror) VALUES ('delete-all')")
            finally:
                conn.execute("COMMIT")
        terms = [r[0] for r in rows]
        nums = np.array([(r[1], r[2]) for r in rows], dtype=np.int64).reshape(-1, 2)
        return terms, nums[:, 0], nums[:, 1]

    def phrase(self, words: str) -> tuple[str, ...]:
        """The tokens of one quoted query phrase, in order (FTS5 matches them as consecutive tokens)."""
        hit = self._phrases.get(words)
        if hit is not None:
            return hit
        terms, _, pos = self.documents([(words, "")])
        out = tuple(terms[i] for i in np.argsort(pos, kind="stable"))
        if len(self._phrases) >= _MAX_CACHED_PHRASES:
            self._phrases.clear()
        self._phrases[words] = out
        return out

    def close(self) -> None:
        with self._lock:
            self._conn.close()
