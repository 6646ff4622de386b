"""Ranking inside seed 002's branch filter: relevance plus what the branch itself says.

The store's semantic ranking alone (what `search` gave before) ignores two
facts every commit memory carries: when it was written and on which branch.
Inside the filter (the default branch OR the asked one) a memory scores

    bm25 + s * cosine + e * shared files + r * exp(-ago / h) + b * [on the asked branch]

with the parts scaled to [0, 1] over the candidates, as Memory Lane's ranker
mode computes them (reference/lane/hybrid.py: the same first stage, expansion
through the files of the best hits, write-order recency), and the last term
1 for a memory of the asked branch when that branch is not the default one
(a query on a feature branch is first about that branch's own work). Ties go
by id. `BRANCH_FUSION` and `BRANCH_WEIGHT` are fitted on the calibration split
(`python3 -m bench.calibrate_lane --project`, which prints the grid and the choice).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from reference.lane.hybrid import Features, Fusion, LaneHybrid
from reference.memories.record import SearchHit

BRANCH_FUSION = Fusion(recency=2.0, half_life=50.0)   # Memory Lane's fitted parts; recency, half-life: --project
BRANCH_WEIGHT = 4.0


class BranchRanking:
    """Ranks a project's memories inside a branch filter (see the module docstring)."""

    def __init__(self, store: Any, fusion: Fusion | None = None, branch_weight: float | None = None) -> None:
        self.store = store
        self.fusion = fusion or BRANCH_FUSION
        self.branch_weight = BRANCH_WEIGHT if branch_weight is None else branch_weight
        self.hybrid = LaneHybrid(store, engine=None, fusion=self.fusion)

    def features(self, query: str, cands: np.ndarray, own: np.ndarray | None) -> Features:
        """The candidates among `cands` and their relevance parts; `entity` marks the asked branch's
        memories (`own`), which are searched on their own too, so that all of them are weighed."""
        return self.hybrid.features(query, None, (), self.fusion, allowed=cands, near=own)

    def search(self, query: str, top_k: int, allowed: list[str], asked: str | None) -> list[SearchHit]:
        """The best `top_k` memories of the `allowed` branches; `asked` (not the default) gets the branch prior."""
        store = self.store
        conn = store.tracker.conn()
        with store.telemetry.measure("query", "memory", mode="branch_ranked") as ev:
            labels = store.memories.filter_index.labelled_many(conn, [("meta", "branch", ("s", b)) for b in allowed])
            nonempty = [a for a in labels if a.size]
            if not nonempty or top_k <= 0:
                return []
            cands = np.unique(np.concatenate(nonempty))
            ft = self.features(query, cands, labels[allowed.index(asked)] if asked is not None else None)
            if ft.keys.size == 0:
                return []
            score = ft.relevance(self.fusion) + self.branch_weight * ft.entity
            order = np.argsort(-score, kind="stable")
            cut = order[:top_k]
            if order.size > top_k:   # every memory tied with the k-th (ties go by id, which needs the rows)
                cut = np.union1d(cut, order[score[order] == score[order[top_k - 1]]])
            entries = store.tracker.memories.get_many(conn, [int(ft.keys[i]) for i in cut])
            hits = [SearchHit(entries[int(ft.keys[i])].id, "memory", float(score[i]), entries[int(ft.keys[i])])
                    for i in cut if int(ft.keys[i]) in entries]
            hits.sort(key=lambda h: (-h.score, h.id))
            ev.extra["results"] = min(len(hits), top_k)
            return hits[:top_k]
