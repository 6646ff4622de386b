"""Vector neighbours of newly written memories for the relationship rules, a whole batch at once.

`live_neighbours(store, entries, k, threshold)` gives, for each entry, its `k` nearest
memories with cosine above `threshold` (best first, ties by id), among the memories
stored before it: the store before the batch and the entries before it in the batch,
as if they had been written one by one. Only neighbours above `RELATE_THRESHOLD`
change what the rules decide, so none below it are returned.

The answer does not depend on how the writes were batched. Approximate float32 scores
(`VectorCache.scan_products`: faiss's SIMD kernel for one query, one single-threaded
BLAS product per chunk of a batch, read through the cache's kept mapping, never a fresh
`np.memmap`) only choose candidates, with a margin (`MARGIN`) far wider than float32's
rounding error on a 256-term dot product of unit vectors (about 1.5e-5; under 1e-7
measured), so which kernel ran, and on which machine, cannot change the candidates that
matter; the candidates are then re-scored as float64 sums of the float32 rows, rounded to
float32, and selected from those. Two float64 summation orders round to different float32
values only when a sum falls within about 1e-16 of a float32 rounding midpoint.

Above the vector cache's index threshold (`vector_index.INDEX_MIN_ROWS`) the candidates
come from its quantized index instead (`VectorCache.candidate_rows_many`: the
`neighbour_candidates(k)` best by 4-bit PQ codes, 500 for the top 10, in one scan for the
whole batch with every batch row left out, plus the batch entries before each entry), scored
in place (`VectorCache.products_at`) and re-scored the same way: the rule holds among those
candidates, and a true neighbour outside them is missed (recall measured in
bench/benchmarks/bench_scale.py; 0.9999 at 100k, see `neighbour_candidates`). No product with
every stored row. Not taken, measured at 100k (bench/benchmarks/SCALE_NOTES.md, neighbour
pass): the scan itself costs ~240 us a query for a top 10, so no candidate count reaches a
150 us lookup; 300 candidates fell to 0.9987 recall; OPQ, float lookup tables, IVF lists (up to
1,024, nprobe up to a quarter) and fewer sub-quantizers all rank true neighbours as deep or
deeper; faiss's other fast-scan kernels (`implem` 10-15) and range search were slower.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from reference.vectors import kernel as vector_kernel
from reference.memories.record import MemoryEntry
from reference.vectors.index import neighbour_candidates
from reference.vectors.search import KIND_TAGS

MARGIN = 1e-4
# queries per BLAS product (62 ms per 1,024 queries x 10k rows here, 87 ms in chunks of 64);
# bounds the score block to CHUNK x store rows (20 MB below the index threshold)
CHUNK = 256
BLOCK = 8 << 20   # at most this many float32 scores (32 MB) in one block: fewer queries a chunk in a huge store


def live_neighbours(store: Any, entries: list[MemoryEntry], k: int, threshold: float
                    ) -> list[list[tuple[int, float]]]:
    """Per entry, (key hash, cosine) of up to `k` earlier memories above `threshold` (see the module doc)."""
    vc = store.vectors
    out: list[list[tuple[int, float]]] = [[] for _ in entries]
    brow = vc.rows_of([e.key_hash for e in entries])
    todo = [i for i in range(len(entries)) if brow[i] >= 0]
    if not todo:
        return out
    units = _units(vc.rows_at(brow[todo]))   # every entry's unit query, gathered once for either path
    if _from_index(vc, brow, todo, units, k, threshold, out):
        return out
    tags = [KIND_TAGS["memory"]]
    chunk = max(1, min(CHUNK, BLOCK // max(1, vc.row_count())))
    for start in range(0, len(todo), chunk):
        part = todo[start: start + chunk]
        queries = units[start: start + chunk]
        scores = vc.scan_products(queries)   # one row of scores per query, a column per row
        n = scores.shape[1]
        cut = threshold - MARGIN
        if len(part) == 1:   # one entry: live, a memory, not itself: checked on the first cut's hits, not every row
            hits = np.flatnonzero(scores[0] > cut)
            later = brow[part[0]:]
            short = [_shortlisted(scores[0], hits[vc.live_tagged(hits, tags) & _outside(hits, later[later >= 0])], k)]
        else:   # a batch: masking whole columns once costs less than per-hit bookkeeping on its many hits
            scores[:, ~vc.live_tagged(None, tags)[:n]] = -np.inf
            for t, i in enumerate(part):   # an entry sees the batch entries before it, not itself or later ones
                later = brow[i:]
                scores[t, later[later >= 0]] = -np.inf
            hits = np.flatnonzero(scores > cut)   # row-major: query t's hits lie in [t * n, (t + 1) * n)
            bounds = np.searchsorted(hits, np.arange(len(part) + 1) * n)
            short = [_shortlisted(scores[t], hits[bounds[t]: bounds[t + 1]] - t * n, k) for t in range(len(part))]
        every = np.concatenate(short)
        vecs, keys = vc.rows_at(every), vc.keys_at(every)   # one gather for the chunk's shortlists
        at = 0
        for t, i in enumerate(part):
            m = short[t].size
            if m:
                out[i] = _rescored(vecs[at: at + m], np.arange(m), keys[at: at + m], queries[t], threshold)
            at += m
    return out


def _outside(rows: np.ndarray, excluded: np.ndarray) -> np.ndarray:
    """Per row: not one of `excluded` (a single write excludes only its own row)."""
    if excluded.size == 1:
        return rows != excluded[0]
    return ~np.isin(rows, excluded)


def _shortlisted(s: np.ndarray, cand: np.ndarray, k: int) -> np.ndarray:
    """`_shortlist`'s answer given the positions `cand` of `s` already above its first cut."""
    if cand.size > k:
        sc = s[cand]
        kth = np.partition(sc, sc.size - k)[sc.size - k]
        cand = cand[sc >= kth - 2 * MARGIN]
    return cand


def _shortlist(s: np.ndarray, k: int, threshold: float) -> np.ndarray:
    """Positions in the float32 scores `s` that can be among the top `k` above `threshold`
    once re-scored exactly (the margins of the module doc)."""
    return _shortlisted(s, np.flatnonzero(s > threshold - MARGIN), k)


def _rescored(mat: np.ndarray, at: np.ndarray, at_keys: np.ndarray, query: np.ndarray, threshold: float
              ) -> list[tuple[int, float]]:
    """(key, cosine) of the rows `at` above `threshold`, cosines as float64 sums rounded to float32."""
    exact = (np.asarray(mat[at], dtype=np.float64) @ query.astype(np.float64)).astype(np.float32)
    keep = exact > threshold
    return [(int(h), float(x)) for h, x in zip(at_keys[keep], exact[keep])]


def _from_index(vc: Any, brow: np.ndarray, todo: list[int], units: np.ndarray, k: int, threshold: float,
                out: list[list[tuple[int, float]]]) -> bool:
    """`live_neighbours` with candidates from the cache's quantized index (`units`: the entries'
    unit queries); False (and `out` left empty) when the cache does not use its index at this size.

    One scan of the index for the whole batch, every batch row left out, gives each entry its
    candidates among the memories stored before the batch; the batch entries before it whose
    approximate score passes the first cut of `_shortlist` are added (products of the batch's
    vectors with each other, in blocks of at most `BLOCK` scores). An entry's candidates therefore include those a scan leaving out only
    it and the later entries would give (removing rows from a top list never pushes another row out
    of it), so a batch finds every neighbour the same writes one by one find, and misses one only
    where they miss it too."""
    batch_rows = brow[todo]
    tags = [KIND_TAGS["memory"]]
    for start in range(0, len(todo), CHUNK):   # bounded blocks: index answers, in-batch products
        queries = units[start: start + CHUNK]
        found = vc.candidate_rows_many(queries, neighbour_candidates(k), tags=tags, hidden=batch_rows)
        if found is None:   # the index is not in use (the same for every chunk of one call)
            out[:] = [[] for _ in out]
            return False
        near = _earlier_hits(vc, batch_rows, start, queries, threshold - MARGIN)
        for t, i in enumerate(todo[start: start + CHUNK]):
            cand = np.concatenate([found[t], near[t]]) if near[t].size else found[t]   # disjoint: batch hidden
            short = cand[_shortlist(vc.products_at(queries[t], cand), k, threshold)]
            if short.size:
                out[i] = _rescored(vc.rows_at(short), np.arange(short.size), vc.keys_at(short), queries[t],
                                   threshold)
    return True


def _earlier_hits(vc: Any, batch_rows: np.ndarray, start: int, queries: np.ndarray, cut: float) -> list[np.ndarray]:
    """For the batch entries `start`, `start + 1`, ... (their unit `queries`), the rows of the batch
    entries before each whose approximate score passes `cut`, in column blocks of bounded size."""
    hits: list[list[np.ndarray]] = [[] for _ in range(len(queries))]
    stop = start + len(queries)
    width = max(1, BLOCK // len(queries))
    for b0 in range(0, stop - 1, width):
        b1 = min(b0 + width, stop - 1)
        block = vector_kernel.products(queries, [vc.rows_at(batch_rows[b0:b1])])
        for t in range(len(queries)):
            m = min(b1, start + t) - b0   # entries before this one only
            if m > 0:
                sel = np.flatnonzero(block[t, :m] > cut)
                if sel.size:
                    hits[t].append(batch_rows[b0 + sel])
    return [np.concatenate(h) if h else np.zeros(0, dtype=np.int64) for h in hits]


def _units(rows: np.ndarray) -> np.ndarray:
    """Each row as `_unit` makes it, one (rows, dim) float32 array."""
    out = np.empty_like(rows)
    for i, v in enumerate(rows):
        out[i] = _unit(v)
    return out


def _unit(v: np.ndarray) -> np.ndarray:
    """The query as `VectorCache` normalises one (float32 division by its norm)."""
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v
