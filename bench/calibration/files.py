"""Fit the files task's constants (reference/lexical/params.py `FILES_TUNED`) on the calibration split.

    python3 -m bench.calibration.files [--data DIR]   # with the committed TUNED (as `lexical --files-only`)

Run by `python3 -m bench.calibration.lexical` after the lexical fit, whose parameters the files ranking uses
for its commit scores: each `<data>-files-calibration` scenario is replayed as `project_locate_files`
answers it (the commits recorded before each query, `reference.lexical.files.file_scores`), and
`FileParams` is fitted by stages over small fixed grids, ties going to the smallest values; the file documents
(`text_weight`), then the memory scores' cosine part (`vector_weight`, the query's hashing-v1 cosine with the
100 nearest commits, as the store's vector cache gives them) last, so the stages before them are those fitted
before they existed.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean

import numpy as np

from bench.calibration import scenarios
from bench.calibration.scenarios import DATASETS

FILE_TOP_GRID, FILE_PATH_GRID, FILE_RECENCY_GRID = (10, 20, 50, 100), (0.0, 0.25, 0.5, 1.0), (0.0, 0.1, 0.3, 0.5)
FILE_NORM_GRID, FILE_POWER_GRID = (0.5, 1.0), (1.0, 2.0)
FILE_SCALE_GRID = (20.0, 50.0, 100.0, 200.0)   # the file recency prior's scale, in commits
FILE_TEXT_GRID = (0.0, 0.1, 0.25, 0.5, 1.0)     # the file documents' BM25 weight (0: the part left out)
FILE_VECTOR_GRID = (0.0, 0.1, 0.2, 0.3, 0.5, 1.0)   # the memory scores' cosine weight (hashing-v1, top 100)


@dataclass
class FileStream:
    """A files scenario: its commits (message and files) and `project_locate_files` queries, in order."""

    name: str
    events: list[tuple] = field(default_factory=list)   # ("commit", id, text, files, time) | ("query", text, grades)
    vectors: np.ndarray | None = None    # hashing-v1 embedding of each commit event's text, in event order
    qvectors: np.ndarray | None = None   # of each query event's text, in event order


def load_file_stream(path: Path, oracle_root: Path | None = None) -> FileStream:
    """The commits and judged file queries of one files scenario, embedded (judgements from `oracle_root`,
    by default the `oracle_data/` beside the file)."""
    sc = scenarios.load(path, oracle_root)
    st = FileStream(sc.name)
    # a commit memory is written at its commit's time: the commit moves the clock
    for kind, step, now in scenarios.writes_and_queries(sc, "commit", "project_locate_files", write_moves_clock=True):
        a = step.raw_args
        if kind == "query":
            st.events.append(("query", a["query"], step.expect.grades()))
        else:
            files = list(a.get("files") or [])
            st.events.append(("commit", step.alias, f"{a['message']}\n\nFiles changed: {', '.join(files)}", files, now))
    from reference.embed import HashingEmbedder
    emb = HashingEmbedder()
    st.vectors = emb.embed([e[2] for e in st.events if e[0] == "commit"])
    st.qvectors = emb.embed([e[1] for e in st.events if e[0] == "query"])
    return st


def evaluate_files(st: FileStream, params, fparams, moment: float | None = None) -> float:
    """Mean nDCG@10 of the stream's file queries: `files.file_scores` over the commits recorded before each."""
    from bench.metrics import ndcg
    from reference.lexical.files import FileIndex, file_scores
    from reference.lexical.index import LexicalIndex
    from reference.lexical.ranking import hybrid_scores
    from reference.lexical.layer import VECTOR_POOL
    index = LexicalIndex() if moment is None else LexicalIndex(moment=moment)
    files, touched, out, rowvec, ci, qi = FileIndex(), [], [], [], -1, -1
    for ev in st.events:
        if ev[0] == "commit":
            ci += 1
            if ev[1] in index.row_of:
                continue
            row = index.add(ev[1], ev[2], ev[4], commit=bool(ev[3]))   # the store's rule: it records its files
            touched.append(ev[3])
            rowvec.append(ci)
            files.note(row, ev[3], index.terms(row))
        else:
            qi += 1
            vector = None
            if fparams.vector_weight > 0.0 and rowvec:   # the store's vector cache: the VECTOR_POOL nearest
                cos = st.vectors[rowvec] @ st.qvectors[qi]
                near = np.argsort(-cos, kind="stable")[:VECTOR_POOL]
                vector = (near, cos[near])
            scores = hybrid_scores(index, ev[1], params.with_(vector_weight=fparams.vector_weight), vector)
            ranked = file_scores(index, files, ev[1], scores, fparams, lambda r: touched[r])
            out.append(ndcg([f"file:{f}" for f, _ in ranked[:10]], ev[2], 10))
    return fmean(out) if out else 0.0


def fit_files(streams: list[FileStream], params, out=sys.stdout, moment: float | None = None):
    """`FileParams` by stages (history depth x path weight; history share x power; file recency weight x scale;
    the file documents' weight; the memory scores' cosine weight); printed. Ties go to the smallest values
    (sqrt share and power 1 first: the values before the stage; no file documents; no cosine part)."""
    from reference.lexical.params import FileParams
    tie = 1.0 / sum(sum(1 for e in st.events if e[0] == "query") for st in streams)
    fp = FileParams(recency_weight=0.0)
    for title, cands in (("files: history depth x path weight", [{"top": t, "path_weight": w} for t in FILE_TOP_GRID
                                                                  for w in FILE_PATH_GRID]),
                         ("files: history share per file x score power",
                          [{"history_norm": n, "history_power": pw} for n in FILE_NORM_GRID for pw in FILE_POWER_GRID]),
                         ("files: recency weight x scale", [{"recency_weight": w, "recency_scale": s}
                                                            for w in FILE_RECENCY_GRID for s in FILE_SCALE_GRID]),
                         ("files: file documents' BM25 weight", [{"text_weight": w} for w in FILE_TEXT_GRID]),
                         ("files: the memory scores' cosine weight (hashing-v1, the 100 nearest)",
                          [{"vector_weight": w} for w in FILE_VECTOR_GRID])):
        print(f"\n## {title}\n| setting | mean nDCG@10 | " + " | ".join(st.name for st in streams) + " |\n"
              + "|---" * (2 + len(streams)) + "|", file=out)
        scored = []
        for c in cands:
            per = [evaluate_files(st, params, fp.with_(**c), moment) for st in streams]
            scored.append((fmean(per), c))
            print(f"| {c} | {fmean(per):.4f} | " + " | ".join(f"{x:.3f}" for x in per) + " |", file=out)
        top = max(m for m, _ in scored)
        m, c = min(((m, c) for m, c in scored if top - m <= tie), key=lambda mc: tuple(mc[1].values()))
        print(f"chosen: {c} ({m:.4f}; best {top:.4f}; ties go to the smallest values)", file=out)
        fp = fp.with_(**c)
    print(f"\nchosen (reference/lexical/params.py FILES_TUNED): {fp}", file=out)
    return fp


def streams_from(folder: Path) -> list[FileStream]:
    return [load_file_stream(folder / f"{d}-files-calibration.jsonl") for d in DATASETS]


def fit_committed(folder: Path, out=sys.stdout):
    """`fit_files` on the files calibration scenarios in `folder`, with the committed TUNED and MOMENT."""
    from reference.lexical.params import TUNED
    return fit_files(streams_from(folder), TUNED, out)


def main(argv: list[str] | None = None) -> int:
    return scenarios.stage_main(argv, "bench.calibration.files", __doc__, fit_committed)


if __name__ == "__main__":
    sys.exit(main())
