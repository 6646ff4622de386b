"""`sqlite-vec`: one SQLite file with a `vec0` vector table beside FTS5, as several local memory tools keep.

The memories table, its FTS5 index, filters, writes and deletes are those of
fts-baseline (this class extends it); vectors come from the reference's
`HashingEmbedder`, the same ones the reference store and chroma get. Search:
- `sqlite-vec` (default): exact vector KNN by cosine similarity (vec0 scans
  every stored vector); score = 1 - cosine distance, ties by id.
- `sqlite-vec:rrf`: the KNN list and the FTS5 bm25 list, each cut at
  max(top_k, 100), fused by reciprocal rank fusion: score = sum over the
  lists holding the memory of 1 / (60 + rank), rank from 1.
A filtered KNN searches only the filtered rows (`rowid IN (subquery)`); as in
fts-baseline, filtered memories that no list ranks follow at score 0.0.

apsw and sqlite-vec are the optional extra `sqlite-vec`: without them,
importing this module raises ImportError naming the extra.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from reference.embed import HashingEmbedder
from reference.tracker import MemoryFilter, fts_match

from bench.backends.fts_baseline.backend import FtsBaselineBackend
from bench.backends.fts_baseline.records import MemoryInput, is_empty
from bench.backends.sqlite_vec.vec_table import VecTable, connect, require_extra

require_extra()

RRF_K = 60
RRF_DEPTH = 100


def rrf(lists: list[list[str]], k: int = RRF_K) -> list[tuple[str, float]]:
    """Reciprocal rank fusion of ranked id lists: (id, sum of 1/(k + rank)), best first, ties by id."""
    scores: dict[str, float] = {}
    for ids in lists:
        for rank, mid in enumerate(ids, start=1):
            scores[mid] = scores.get(mid, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


class SqliteVecBackend(FtsBaselineBackend):
    """SQLite + sqlite-vec (vec0 KNN) + FTS5, through apsw."""

    name = "sqlite-vec"
    options = ("rrf",)
    db_name = "sqlite_vec.db"

    def _connect(self, path: Path) -> tuple[Any, tuple[type[BaseException], ...]]:
        import apsw

        return connect(path), (apsw.Error,)

    def _opened(self, path: Path) -> None:
        self.embedder = HashingEmbedder()
        self.vectors = VecTable(self.conn, self.embedder.name, self.embedder.dim, str(path))

    def _inserted(self, seq: int, inp: MemoryInput) -> None:
        self.vectors.put(seq, self.embedder.embed([inp.text])[0])

    def _deleted(self, seq: int) -> None:
        self.vectors.delete(seq)

    def _rank(self, query: str, flt: MemoryFilter, top_k: int) -> list[tuple[str, float]]:
        if self.option != "rrf":
            return self._knn(query, flt, top_k)
        depth = max(top_k, RRF_DEPTH)
        match = fts_match(query)
        keyword = [mid for mid, _ in self.table.fts(match, flt, depth)] if match else []
        return rrf([[mid for mid, _ in self._knn(query, flt, depth)], keyword])

    def _knn(self, query: str, flt: MemoryFilter, k: int) -> list[tuple[str, float]]:
        allowed = None if is_empty(flt) else self.table.seq_filter(flt)
        pairs = self.vectors.knn(self.embedder.embed([query])[0], k, allowed)
        ids = self.table.ids_of([seq for seq, _ in pairs])
        return sorted(((ids[seq], s) for seq, s in pairs if seq in ids), key=lambda p: (-p[1], p[0]))
