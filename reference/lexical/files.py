"""Which files a task will touch: code-aware BM25 over file paths plus the scores of the memories that touched them.

    files = FileIndex()                      # kept beside a LexicalIndex: `note(row, files, index.terms(row))`
    ranked = file_scores(index, files, "add --csv to insert", memory_scores, FILES_TUNED)

A file's score (`FileParams`, fitted on the files task's calibration split):
- history: the `top` best memories under the lexical pipeline (`memory_scores`,
  e.g. `ranking.hybrid_scores`) each pass their score ** `history_power`
  (above 1: the best memories count more than many middling ones), divided
  by their file count ** `history_norm`, to every file they touched (a commit
  touching many files says less about each); divided by the best;
- path: + `path_weight` x BM25 of the query over the file's path terms
  (`sqlite_utils/cli.py` -> `sqlite_utils/cli.py`, `sqlit`, `util`, `cli`, `py`), divided by the best;
- text: + `text_weight` x BM25 of the query over each file's document, divided by the best: the distinct
  terms of every memory that touched the file, a term counted once a memory (the file as the sum of its
  history, as the BM25 baseline ranks files; unlike `history`, every past memory counts, not the `top`);
  only the memories `memory_scores` allows (finite: a removed memory or one a branch filter leaves out is
  -inf there) make the documents;
- recency: + `recency_weight` x exp(-write moments since the file was last touched / `recency_scale`).
Only files with history, path or text evidence are ranked; ties by path. The path index and the last
touches hold every memory noted (a removed memory or one a branch filter leaves out still counts there), each
with the files it was last noted with (`FileIndex.refile`).
"""
from __future__ import annotations

import math

import numpy as np

from reference.lexical.index import LexicalIndex, lucene_idf
from reference.lexical.params import FileParams
from reference.lexical.ranking import top_rows
from reference.lexical.terms import index_terms


class FileIndex:
    """The files the indexed memories touched: a BM25 index over their paths, the row that last touched each,
    and each row's files and distinct term count (the file documents' BM25 reads the memories' postings)."""

    def __init__(self) -> None:
        self.paths = LexicalIndex()
        self.last: dict[str, int] = {}
        # a file's id is its row in `paths` (paths are added once, in first-seen order, and never removed);
        # one entry per (row, file touched), appended in row order, so a row's entries are one slice
        self._flat: list[int] = []             # entry -> file id
        self._ptr: list[int] = [0]             # row -> its first entry; row + 1 -> one past its last
        self._nterms: list[int] = []           # row -> its distinct terms (the length it adds to each file)
        self._arrays = (np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(0))   # the lists so far
        # for the rows `_vis` marks: each file's document length (its rows' summed term counts, whole numbers
        # in float64, so any order of sums gives the same floats) and entry count; `text_scores` moves them to
        # its `visible` by the rows whose visibility changed
        self._vis = np.zeros(0, dtype=bool)
        self._length = np.zeros(0)
        self._count = np.zeros(0, dtype=np.int64)

    def note(self, row: int, files: tuple[str, ...] | list[str], terms: tuple[str, ...] = ()) -> None:
        """Memory `row` touched `files` (rows in write order, as the LexicalIndex numbers them; a row never
        noted touched none); `terms`: its distinct terms (`LexicalIndex.terms(row)`), the length it adds to
        each file's document."""
        while len(self._nterms) < row:          # rows never noted: no files
            self._nterms.append(0)
            self._ptr.append(len(self._flat))
        self._touch(row, files)
        if row == len(self._nterms):
            self._flat.extend(self.paths.row_of[f] for f in files)
            self._nterms.append(len(terms))
            self._ptr.append(len(self._flat))

    def _touch(self, row: int, files: tuple[str, ...] | list[str]) -> None:
        """Each of `files` in the path index (added once, in first-seen order) and touched last by `row` if no
        later row touched it."""
        for f in files:
            if f not in self.paths.row_of:
                self.paths.add(f, f)
            self.last[f] = max(row, self.last.get(f, row))

    def refile(self, row: int, files: tuple[str, ...] | list[str]) -> None:
        """Memory `row` (noted) touches `files` now instead of what it was noted with (its metadata changed: a
        note bound to the commit that landed records the commit's files): its entries replaced, and the index
        left as if the row had been noted with `files` from the start: a file no noted row touches any more
        leaves the path index, and each dropped file's last touch is the last other row that touches it.

        Costs a pass over every entry (the later rows' entry offsets move, the kept arrays are rebuilt on the
        next search): metadata updates are rare beside searches."""
        if not 0 <= row < len(self._nterms):
            raise IndexError(f"file index: row {row} was never noted ({len(self._nterms)} rows)")
        start, end = self._ptr[row], self._ptr[row + 1]
        old = set(self._flat[start:end])
        self._touch(row, files)
        new = [self.paths.row_of[f] for f in files]
        self._flat[start:end] = new
        if len(new) != end - start:
            shift = len(new) - (end - start)
            self._ptr[row + 1:] = [p + shift for p in self._ptr[row + 1:]]
        # the kept arrays and documents describe the old entries: rebuilt from the lists on the next call
        self._arrays = (np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(0))
        self._vis, self._length, self._count = np.zeros(0, dtype=bool), np.zeros(0), np.zeros(0, dtype=np.int64)
        dropped = old - set(new)
        if dropped:
            flat, ptr = np.asarray(self._flat, dtype=np.int64), np.asarray(self._ptr, dtype=np.int64)
            for fid in sorted(dropped):
                name = self.paths.ids[fid]
                at = np.flatnonzero(flat == fid)
                if at.size:     # the row holding its last entry (rows in order, so entries too)
                    self.last[name] = int(np.searchsorted(ptr, at[-1], side="right")) - 1
                else:
                    self.paths.remove(name)
                    del self.last[name]

    def _csr(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(file id of every entry, each row's first entry and one past the last row's, each row's term count)
        as arrays: only what was noted since the last call is converted (a search after one write at 100k
        memories copies the arrays, ~0.1 ms, not the lists)."""
        flat, ptr, nterms = self._arrays
        if flat.size < len(self._flat) or nterms.size < len(self._nterms):
            self._arrays = (np.concatenate([flat, np.asarray(self._flat[flat.size:], dtype=np.int64)]),
                            np.concatenate([ptr, np.asarray(self._ptr[ptr.size:], dtype=np.int64)]),
                            np.concatenate([nterms, np.asarray(self._nterms[nterms.size:], dtype=np.float64)]))
        return self._arrays

    def _entries(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(the entries of `rows` (row numbers, any order), each row's slice in order; each row's entry count)."""
        _, ptr, _ = self._arrays
        start = ptr[rows]
        count = ptr[rows + 1] - start
        # entry j of the gather is its row's first entry plus j minus the entries gathered before that row
        return np.repeat(start - (np.cumsum(count) - count), count) + np.arange(int(count.sum())), count

    def _documents(self, vis: np.ndarray, files: int) -> tuple[np.ndarray, np.ndarray]:
        """(file id -> document length, file id -> entry count) of the rows where `vis` (bool by row, every row)
        holds, read-only: the kept ones moved by the rows whose visibility changed since the last call (a write
        adds its own rows; the same mask again costs a comparison of the masks)."""
        flat, _, nterms = self._arrays
        old = self._vis
        length = np.concatenate([self._length, np.zeros(files - self._length.size)])   # new arrays
        count = np.concatenate([self._count, np.zeros(files - self._count.size, dtype=np.int64)])
        changed = np.concatenate([np.flatnonzero(vis[:old.size] != old), old.size + np.flatnonzero(vis[old.size:])])
        for rows, sign in ((changed[vis[changed]], 1), (changed[~vis[changed]], -1)):
            if rows.size:
                at, per_row = self._entries(rows)
                length += sign * np.bincount(flat[at], weights=np.repeat(nterms[rows], per_row), minlength=files)
                count += sign * np.bincount(flat[at], minlength=files)
        length.flags.writeable = count.flags.writeable = False
        self._vis, self._length, self._count = vis, length, count
        return length, count

    def text_scores(self, index: LexicalIndex, query: str, visible: np.ndarray, k1: float,
                    b: float) -> dict[str, float]:
        """File -> BM25 of `query` over the file documents built from the rows where `visible` (bool by row)
        holds: a file's document is the distinct terms of every visible memory that touched it (a term counted
        once a memory), its length their sum; N and df count files; Lucene's idf as `LexicalIndex.bm25`. Files
        the query's terms miss are left out.

        Cost: a query term's file counts gather the entries of its visible rows (a row's entries are one
        slice), or, when it is in most visible rows, of the visible rows without it, taken from every visible
        entry's count; the documents' lengths and entry counts are kept between calls (`_documents`)."""
        flat, _, nterms = self._csr()
        rows = nterms.size
        n = min(rows, visible.size)
        names = self.paths.ids
        if n == 0 or not names:
            return {}
        vis = np.zeros(rows, dtype=bool)
        vis[:n] = visible[:n]
        length, count = self._documents(vis, len(names))
        docs = int(np.count_nonzero(length))
        if docs == 0:
            return {}
        shown = int(np.count_nonzero(vis))
        norm = k1 * (1.0 - b + b * length / (length.sum() / docs))
        acc = np.zeros(len(names))
        for t in dict.fromkeys(index_terms(query)):
            post = index.postings.get(t)
            if post is None or not post.live:
                continue
            r = post.rows()                     # ascending
            r = r[: np.searchsorted(r, n)]
            if 2 * r.size <= shown:
                tf = np.bincount(flat[self._entries(r[vis[r]])[0]], minlength=len(names))
            else:                               # whole counts: the same tf either way
                rest = vis.copy()
                rest[r] = False                 # the visible rows without the term
                tf = count - np.bincount(flat[self._entries(np.flatnonzero(rest))[0]], minlength=len(names))
            hit = np.flatnonzero(tf)
            if hit.size:
                idf = lucene_idf(docs, hit.size)
                acc[hit] += idf * tf[hit] * (k1 + 1.0) / (tf[hit] + norm[hit])
        hit = np.flatnonzero(acc > 0.0)
        return dict(zip([names[i] for i in hit.tolist()], acc[hit].tolist()))


def file_scores(index: LexicalIndex, files: FileIndex, query: str, memory_scores: np.ndarray, p: FileParams,
                files_of=None) -> list[tuple[str, float]]:
    """(path, score) of every file with evidence, best first, ties by path (module docstring).

    `files_of(row)` gives a memory's files (default: the files its text names, `index.entities[row]`).
    """
    files_of = files_of or (lambda row: index.entities[row])
    history: dict[str, float] = {}
    for row, s in top_rows(memory_scores, p.top, index.ids):
        touched = files_of(row)
        share = s ** p.history_power / len(touched) ** p.history_norm if touched else 0.0
        for f in touched:
            history[f] = history.get(f, 0.0) + share
    best = max(history.values(), default=0.0)
    score = {f: v / best for f, v in history.items()} if best > 0 else dict.fromkeys(history, 0.0)
    if p.path_weight > 0.0 and files.paths.live:
        ps = files.paths.bm25(query, p.k1, p.b)
        top = ps.max(initial=0.0)
        if top > 0.0:
            for r in np.flatnonzero(ps > 0.0).tolist():
                f = files.paths.ids[r]
                score[f] = score.get(f, 0.0) + p.path_weight * float(ps[r]) / top
    if p.text_weight > 0.0:
        ts = files.text_scores(index, query, np.isfinite(memory_scores), p.k1, p.b)
        top = max(ts.values(), default=0.0)
        if top > 0.0:
            for f, v in ts.items():
                score[f] = score.get(f, 0.0) + p.text_weight * v / top
    if p.recency_weight > 0.0 and p.recency_scale > 0.0 and index.rows:
        ticks = index.ticks()           # ages in write moments, as recency.py counts them
        now = int(ticks[-1])
        for f in score:
            if f in files.last:
                score[f] += p.recency_weight * math.exp(-(now - int(ticks[files.last[f]])) / p.recency_scale)
    return sorted(score.items(), key=lambda fs: (-fs[1], fs[0]))
