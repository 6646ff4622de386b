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
its weight in a fusion is comparable to the normalised first stage's.
"""
from __future__ import annotations

import numpy as np

from reference.lexical.index import LexicalIndex


def entity_weights(index: LexicalIndex, scores: np.ndarray, top: int,
                   allowed: np.ndarray | None = None, norm: float = 0.0) -> dict[str, float]:
    """Entity term -> sum over the `top` best rows holding it of (row score / the row's entity count ** `norm`)
    x the entity's idf.

    Only rows with a positive score count; `allowed` (bool by row) restricts which rows may be seeds.
    """
    if top <= 0 or scores.size == 0 or not index.entity_postings:   # no row holds an entity: nothing to weigh
        return {}
    pos = np.flatnonzero(scores > 0.0)              # the few rows that matched, not every row
    if allowed is not None:
        pos = pos[allowed[pos]]
    if pos.size > top:
        pos = pos[np.argpartition(-scores[pos], top - 1)[:top]]
    weights: dict[str, float] = {}
    for row in pos.tolist():
        s = float(scores[row])
        ents = index.entities[row]
        share = s / len(ents) ** norm if ents else 0.0
        for ent in ents:
            weights[ent] = weights.get(ent, 0.0) + share * index.idf(ent, entity=True)
    return weights


def expand(index: LexicalIndex, scores: np.ndarray, top: int, allowed: np.ndarray | None = None,
           norm: float = 0.0) -> np.ndarray:
    """Per row (same length as `scores`), the summed weights of its entities, divided by the best (0 if none)."""
    weights = entity_weights(index, scores, top, allowed, norm)
    out = np.zeros(scores.size, dtype=np.float64)
    if not weights:
        return out
    for ent, w in weights.items():
        if w <= 0.0:
            continue
        rows = index.entity_postings[ent].rows()
        rows = rows[rows < out.size]
        out[rows] += w
    best = out.max(initial=0.0)
    if best > 0.0:
        out /= best
    return out
