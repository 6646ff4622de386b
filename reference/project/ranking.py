"""Ranking inside seed 002's branch filter: the code-aware lexical ranking plus what the branch itself says.

The store's semantic ranking alone (what `search` gave before) ignores two
facts every commit memory carries: when it was written and on which branch.
Inside the filter (the default branch OR the asked one) every memory scores

    lexical pipeline (reference/lexical: BM25 + cosine, expansion through shared files, recency prior)
    + b * [on the asked branch]

the first part being `ranking.hybrid_scores` under `BRANCH_PARAMS` (the
parts every ranker uses, with this task's own weights), the last term 1 for
a memory of the asked branch when that branch is not the default one (a query
on a feature branch is first about that branch's own work). Every memory of
the filter is scored (the index scores all rows at once), so the asked
branch's recent work ranks even when its text shares no word with the query.
Ties go by id. `BRANCH_PARAMS` and `BRANCH_WEIGHT` are fitted on the
calibration split (`python3 -m bench.calibration.lane --project`, which prints
the grid and the choice).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from reference.lexical.layer import LexicalLayer
from reference.lexical.params import TUNED, LexicalParams
from reference.lexical.ranking import hybrid_scores, top_rows
from reference.memories.record import SearchHit

# fitted by `python3 -m bench.calibration.lane --project` on the branches calibration split, with the prior
# added (the form those weights were fitted in; only bench/calibration/lexical.py fits the form)
BRANCH_PARAMS = TUNED.with_(expand_weight=1.5, recency_weight=1.2, recency_scale=25.0, recency_form="add")
BRANCH_WEIGHT = 4.0


class BranchRanking:
    """Ranks a project's memories inside a branch filter (see the module docstring)."""

    def __init__(self, store: Any, params: LexicalParams | None = None, branch_weight: float | None = None) -> None:
        self.store = store
        self.params = params or BRANCH_PARAMS
        self.branch_weight = BRANCH_WEIGHT if branch_weight is None else branch_weight
        self.lexical = LexicalLayer.for_store(store)

    def parts(self, query: str, cands: np.ndarray, own: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """(lexical pipeline score by row, -inf outside `cands`; bool by row: a memory of `own`), both over the
        index's rows; `cands` and `own` are sorted key hashes."""
        vector = self.lexical.vector(query, cands) if self.params.vector_weight > 0.0 else None
        allowed = self.lexical.allowed_rows(cands)
        mine = self.lexical.allowed_rows(own) if own is not None else None
        scores = hybrid_scores(self.lexical.index, query, self.params, vector, allowed)
        n = scores.size
        on_branch = np.zeros(n, dtype=bool)
        if mine is not None:
            on_branch[: min(n, mine.size)] = mine[:n]
        return scores, on_branch

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
            scores, own = self.parts(query, cands, labels[allowed.index(asked)] if asked is not None else None)
            scores = scores + self.branch_weight * own
            ranked = top_rows(scores, top_k, self.lexical.index.ids, positive=False)
            ids = [self.lexical.index.ids[r] for r, _ in ranked]
            entries = store.tracker.memories.get_many(conn, [store.tracker.hash_fn(m) for m in ids])
            by_id = {e.id: e for e in entries.values()}
            hits = [SearchHit(m, "memory", s, by_id[m]) for m, (_, s) in zip(ids, ranked) if m in by_id]
            ev.extra["results"] = len(hits)
            return hits
