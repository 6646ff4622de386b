"""Query-time expansion through shared entities (seed 001's `relates_to`, used when a query is answered).

    extra = expand(index, first_stage, top=8)

Take the `top` best rows of the first-stage scores; give each entity
(a file, or a function or class: `terms.entity_terms`) of those rows the
weight sum(score of each such row / its entity count ** `norm`) * idf(entity);
every row then gets the sum of the weights of the entities it holds. With
`norm` 1 a hit that touched one file passes its whole score to that file, a
hit that touched twenty a twentieth to each (a sweeping change says less
about any one file). A commit that touched the
files of the best keyword hits is likely to be related work even when its
message shares no word with the query; idf keeps a file that half the
history touched from counting like a rarely-touched one.

The weights are divided by the best one, so the result lies in [0, 1] and
its weight in a fusion is comparable to the normalised first stage's; then
multiplied by the seeds' lead: the best score among the rows that hold an
entity over the best score of all `top` rows (1 when the best hit has files,
as every commit has). Without it a store whose strong hits are notes without
files handed the whole expansion to the files of a row with a trace of
evidence (a cosine of .007 in a store of two notes took the first place from
the note the query names); with it such a row passes on only as much as it has.

`named_files(index, query, top)` is the second way in: the files whose path
terms the query itself names ("the cli's --csv option" names
`sqlite_utils/cli.py`), by BM25 of the query over the files' paths
(`LexicalIndex.entity_paths`; FTS5's k1 1.2 and b 0.75, as the files task's
path part), the `top` best each weighted by its score divided by the best;
`spread` then gives every memory the summed weights of the files it touched,
as for the hits' files.
"""
from __future__ import annotations

import numpy as np

from reference.lexical.index import LexicalIndex


def entity_seeds(index: LexicalIndex, scores: np.ndarray, top: int, allowed: np.ndarray | None = None,
                 norm: float = 0.0) -> tuple[dict[str, float], float]:
    """(weights, the seeds' lead). Weights: entity term -> sum over the `top` best rows holding it of (row score /
    the row's entity count ** `norm`) x the entity's idf. The lead: the best score among the `top` rows that hold
    an entity over the best of the `top` rows (module docstring); 1.0 when no entity has weight.

    Only rows with a positive score count; `allowed` (bool by row) restricts which rows may be seeds.
    """
    if top <= 0 or scores.size == 0 or not index.entity_postings:   # no row holds an entity: nothing to weigh
        return {}, 1.0
    pos = np.flatnonzero(scores > 0.0)              # the few rows that matched, not every row
    if allowed is not None:
        pos = pos[allowed[pos]]
    if pos.size > top:
        pos = pos[np.argpartition(-scores[pos], top - 1)[:top]]
    weights: dict[str, float] = {}
    best = seeding = 0.0
    for row in pos.tolist():
        s = float(scores[row])
        best = max(best, s)
        ents = index.entities[row]
        if ents:
            seeding = max(seeding, s)
        share = s / len(ents) ** norm if ents else 0.0
        for ent in ents:
            weights[ent] = weights.get(ent, 0.0) + share * index.idf(ent, entity=True)
    return weights, (seeding / best if weights and seeding < best else 1.0)


def expand(index: LexicalIndex, scores: np.ndarray, top: int, allowed: np.ndarray | None = None,
           norm: float = 0.0) -> np.ndarray:
    """Per row (same length as `scores`), the summed weights of its entities, divided by the best (0 if none),
    times the seeds' lead."""
    weights, lead = entity_seeds(index, scores, top, allowed, norm)
    return spread(index, weights, scores.size, lead)


PATH_K1, PATH_B = 1.2, 0.75   # BM25 over file paths: FTS5's values (a path is a handful of terms)


def named_files(index: LexicalIndex, query: str, top: int) -> dict[str, float]:
    """Entity (file) -> the query's BM25 over its path terms divided by the best, for the `top` best files
    that some live row touched (module docstring); {} when the query names none."""
    paths = index.entity_paths
    if top <= 0 or paths is None or not paths.live:
        return {}
    ps = paths.bm25(query, PATH_K1, PATH_B)
    pos = np.flatnonzero(ps > 0.0)
    pos = pos[[index.entity_postings[paths.ids[r]].live > 0 for r in pos.tolist()]] if pos.size else pos
    if pos.size > top:
        pos = pos[np.lexsort((pos, -ps[pos]))[:top]]
    best = ps[pos].max(initial=0.0)
    return {paths.ids[r]: float(ps[r]) / best for r in pos.tolist()} if best > 0.0 else {}


def spread(index: LexicalIndex, weights: dict[str, float], n: int, lead: float = 1.0) -> np.ndarray:
    """Per row 0..n-1, the summed weights of the entities it holds, divided by the best (0 if none), times
    `lead` (the seeds' lead of `entity_seeds`; 1.0 for the files a query names)."""
    out = np.zeros(n, dtype=np.float64)
    if not weights:
        return out
    for ent, w in weights.items():
        if w <= 0.0:
            continue
        rows = index.entity_postings[ent].rows()
        rows = rows[rows < n]
        out[rows] += w
    best = out.max(initial=0.0)
    if best > 0.0:
        out /= best
    if lead < 1.0:   # 1.0 leaves every float as it was
        out *= lead
    return out
