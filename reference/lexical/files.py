"""Which files a task will touch: code-aware BM25 over file paths plus the scores of the memories that touched them.

    files = FileIndex()                      # kept beside a LexicalIndex: `note(row, files)` per memory
    ranked = file_scores(index, files, "add --csv to insert", memory_scores, FILES_TUNED)

A file's score (`FileParams`, fitted on the files task's calibration split):
- history: the `top` best memories under the lexical pipeline (`memory_scores`,
  e.g. `ranking.hybrid_scores`) each pass their score ** `history_power`
  (above 1: the best memories count more than many middling ones), divided
  by their file count ** `history_norm`, to every file they touched (a commit
  touching many files says less about each); divided by the best;
- path: + `path_weight` x BM25 of the query over the file's path terms
  (`sqlite_utils/cli.py` -> `sqlite_utils/cli.py`, `sqlit`, `util`, `cli`, `py`), divided by the best;
- recency: + `recency_weight` x exp(-write moments since the file was last touched / `recency_scale`).
Only files with history or path evidence are ranked; ties by path.
"""
from __future__ import annotations

import math

import numpy as np

from reference.lexical.index import LexicalIndex
from reference.lexical.params import FileParams
from reference.lexical.ranking import top_rows


class FileIndex:
    """The files the indexed memories touched: a BM25 index over their paths, and the row that last touched each."""

    def __init__(self) -> None:
        self.paths = LexicalIndex()
        self.last: dict[str, int] = {}

    def note(self, row: int, files: tuple[str, ...] | list[str]) -> None:
        """Memory `row` touched `files` (rows in write order, as the LexicalIndex numbers them)."""
        for f in files:
            if f not in self.paths.row_of:
                self.paths.add(f, f)
            self.last[f] = max(row, self.last.get(f, row))


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
    if p.recency_weight > 0.0 and p.recency_scale > 0.0 and index.rows:
        ticks = index.ticks()           # ages in write moments, as recency.py counts them
        now = int(ticks[-1])
        for f in score:
            if f in files.last:
                score[f] += p.recency_weight * math.exp(-(now - int(ticks[files.last[f]])) / p.recency_scale)
    return sorted(score.items(), key=lambda fs: (-fs[1], fs[0]))
