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
- recency: + `recency_weight` x exp(-write moments since the file was last touched / `recency_scale`).
Only files with history, path or text evidence are ranked; ties by path. Paths, last touches and file
documents hold every memory noted (a removed memory or a branch filter does not take its words back out;
`history` alone follows the memory scores, which do).
"""
from __future__ import annotations

import math

import numpy as np

from reference.lexical.index import LexicalIndex
from reference.lexical.params import FileParams
from reference.lexical.ranking import top_rows
from reference.lexical.terms import index_terms


class FileIndex:
    """The files the indexed memories touched: a BM25 index over their paths, the row that last touched each,
    and each file's document (the terms of the memories that touched it)."""

    def __init__(self) -> None:
        self.paths = LexicalIndex()
        self.last: dict[str, int] = {}
        self.postings: dict[str, dict[str, int]] = {}   # term -> {file: memories touching it that hold the term}
        self.length: dict[str, int] = {}                 # file -> its document's length (terms summed)
        self._total = 0

    def note(self, row: int, files: tuple[str, ...] | list[str], terms: tuple[str, ...] = ()) -> None:
        """Memory `row` touched `files` (rows in write order, as the LexicalIndex numbers them); `terms`: its
        distinct terms (`LexicalIndex.terms(row)`), added to each file's document."""
        for f in files:
            if f not in self.paths.row_of:
                self.paths.add(f, f)
            self.last[f] = max(row, self.last.get(f, row))
            if terms:
                self.length[f] = self.length.get(f, 0) + len(terms)
                self._total += len(terms)
                for t in terms:
                    docs = self.postings.setdefault(t, {})
                    docs[f] = docs.get(f, 0) + 1

    def text_scores(self, query: str, k1: float, b: float) -> dict[str, float]:
        """File -> BM25 (Lucene's idf, as `LexicalIndex.bm25`) of `query` over the file documents; files the
        query's terms miss are left out."""
        n = len(self.length)
        out: dict[str, float] = {}
        if n == 0:
            return out
        avg = self._total / n
        for t in dict.fromkeys(index_terms(query)):
            docs = self.postings.get(t)
            if not docs:
                continue
            idf = math.log(1.0 + (n - len(docs) + 0.5) / (len(docs) + 0.5))
            for f, tf in docs.items():
                out[f] = out.get(f, 0.0) + idf * tf * (k1 + 1.0) / (tf + k1 * (1.0 - b + b * self.length[f] / avg))
        return out


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
        ts = files.text_scores(query, p.k1, p.b)
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
