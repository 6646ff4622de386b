"""Memory Lane's first stage: the candidates a ranker-mode search re-ranks, with their evidence.

Seed 004 §4.3 ranks a candidate set "by semantic similarity"; with the default
hashing embedder that alone is the weakest ranking on real history (it misses
what a keyword match finds, issue 27). The first stage therefore gathers two
lists, the store's keyword ranking (FTS5 bm25 over text and tags, the same
numbers `memory.keyword_search` gives) and its cosine ranking, each cut at
`depth`, and reports for their union both scores: a candidate only one list
found gets the other list's score read directly (cosine) or 0 (bm25 below the
cut: it matched no query word well enough to be in the list).

The stage is an object with one method, so another lexical index (a
code-aware one) can replace it without touching the rest of the lane:
`LaneSearch(..., first_stage=...)`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from reference.tracker import fts_match
from reference.tracker.fts_topk import ranked_matches
from reference.vectors.search import KIND_TAGS

_EMPTY_KEYS = np.zeros(0, dtype=np.uint64)


@dataclass(frozen=True)
class Evidence:
    """Candidates (key hashes, unique) and, aligned with them, their bm25 (>= 0) and cosine scores."""

    keys: np.ndarray
    lexical: np.ndarray
    cosine: np.ndarray

    @staticmethod
    def empty() -> "Evidence":
        return Evidence(_EMPTY_KEYS, np.zeros(0), np.zeros(0))


class FirstStage(Protocol):
    """Finds the candidates of a query among `allowed` key hashes (None: every memory)."""

    name: str

    def gather(self, query: str, qvec: np.ndarray, allowed: np.ndarray | None, depth: int) -> Evidence:
        ...

    def cosines(self, qvec: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """Cosine of the query with each key (0 where a key has no vector)."""
        ...


class StoreHybridStage:
    """The store's bm25 top `depth` and cosine top `depth`, merged (see the module docstring)."""

    name = "store-bm25+cosine"

    def __init__(self, store: Any) -> None:
        self.store = store

    def gather(self, query: str, qvec: np.ndarray, allowed: np.ndarray | None, depth: int) -> Evidence:
        memories = self.store.memories
        if depth <= 0 or (allowed is not None and allowed.size == 0):
            return Evidence.empty()
        kw: list[tuple[int, float]] = []
        match = fts_match(query)
        if match is not None:
            kw = ranked_matches(self.store.tracker.conn(), match, depth, allowed, memories.keyword_index)
        tags = None if allowed is not None else [KIND_TAGS["memory"]]
        vec = memories.vectors.topk(qvec, depth, allowed, tags=tags)
        kw_keys = np.fromiter((h for h, _ in kw), dtype=np.uint64, count=len(kw))
        kw_scores = np.fromiter((s for _, s in kw), dtype=np.float64, count=len(kw))
        vec_keys = np.fromiter((h for h, _ in vec), dtype=np.uint64, count=len(vec))
        vec_scores = np.fromiter((s for _, s in vec), dtype=np.float64, count=len(vec))
        keys = np.union1d(kw_keys, vec_keys)   # sorted, unique (each list names a key once)
        lexical, cosine = np.zeros(keys.size), np.zeros(keys.size)
        lexical[np.searchsorted(keys, kw_keys)] = np.maximum(kw_scores, 0.0)
        missing = np.ones(keys.size, dtype=bool)
        pos = np.searchsorted(keys, vec_keys)
        cosine[pos], missing[pos] = vec_scores, False
        if missing.any():
            cosine[missing] = self.cosines(qvec, keys[missing])
        return Evidence(keys, lexical, cosine)

    def cosines(self, qvec: np.ndarray, keys: np.ndarray) -> np.ndarray:
        if keys.size == 0:
            return np.zeros(0)
        c = self.store.memories.vectors.scores(qvec, keys).astype(np.float64)
        return np.nan_to_num(c, nan=0.0)
