"""Searches over indexed code: semantic chunk/file search, symbol search, chunk keywords.

- `code_search`: cosine over chunk and file vectors.
- `symbol_search`: cosine over symbol vectors plus a name bonus: +1.0 when the
  query equals the symbol's name or qualified name (case-insensitive), +0.5
  when it is a substring of the qualified name. Every symbol is scored, so a
  name match is found even when its vector ranks low.
- `code_keyword_search`: FTS5 bm25 over chunk text (score = -bm25).
Ties are broken by id (canonical key) ascending.
"""
from __future__ import annotations

import numpy as np

from reference.memories.record import SearchHit
from reference.tracker import Tracker, fts_match
from reference.vectors.search import topk_hits
from reference.vectors import VectorCache

EXACT_NAME_BONUS = 1.0
SUBSTRING_NAME_BONUS = 0.5


def code_search(tracker: Tracker, vectors: VectorCache, qvec: np.ndarray, top_k: int) -> list[SearchHit]:
    return topk_hits(tracker, vectors, qvec, top_k, ("chunk", "file"))


def name_bonus(query: str, name: str, qualname: str) -> float:
    q = query.strip().lower()
    if not q:
        return 0.0
    if q in (name.lower(), qualname.lower()):
        return EXACT_NAME_BONUS
    return SUBSTRING_NAME_BONUS if q in qualname.lower() else 0.0


def symbol_search(tracker: Tracker, vectors: VectorCache, query: str, qvec: np.ndarray,
                  top_k: int) -> list[SearchHit]:
    if top_k <= 0:
        return []
    rows = tracker.code.all_symbols(tracker.conn())
    if not rows:
        return []
    sem = vectors.scores(qvec, [r.key_hash for r in rows])
    hits = []
    for r, s in zip(rows, sem):
        semantic = 0.0 if np.isnan(s) else float(s)
        bonus = name_bonus(query, r.name.rsplit(".", 1)[-1], r.name)
        meta = {"path": r.path, "name": r.name, "symbol_kind": r.kind, "start_line": r.start_line,
                "end_line": r.end_line, "semantic": semantic, "name_bonus": bonus}
        hits.append(SearchHit(r.key, "symbol", semantic + bonus, None, meta))
    hits.sort(key=lambda h: (-h.score, h.id))
    return hits[:top_k]


def code_keyword_search(tracker: Tracker, query: str, top_k: int) -> list[SearchHit]:
    match = fts_match(query)
    if match is None or top_k <= 0:
        return []
    return [SearchHit(c.key, "chunk", s, None, {"path": c.path, "start_line": c.start_line, "end_line": c.end_line})
            for c, s in tracker.code.fts_chunks(tracker.conn(), match, top_k)]
