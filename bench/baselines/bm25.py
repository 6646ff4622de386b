"""Okapi BM25 over a corpus that grows (and shrinks) as a scenario replays.

Scores are the classic Robertson/Sparck Jones form with Lucene's idf:
idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)); each distinct query term adds
idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avglen)), k1 = 1.2,
b = 0.75. Tokens: lowercase runs of letters and digits (so `snake_case` and
`a.b` split into words). The statistics are those of the documents present
when the query is asked, as a live index would have them.

`search` scores with numpy over the query terms' postings (the same float
operations in the same order as `scores`, so the same numbers) and sorts only
the top of the hits: a query costs C-speed work in its postings, not a Python
loop over every matching document. A document's terms are summed in the order
they first appear in the query: a set's order follows PYTHONHASHSEED, and the
last bits it changed reordered near-ties between runs.
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable

import numpy as np

K1, B = 1.2, 0.75
_TOKEN = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


class BM25Index:
    """Documents keyed by id; `add` appends text to a document (creating it), `remove` drops it."""

    def __init__(self) -> None:
        self.postings: dict[str, dict[str, int]] = defaultdict(dict)   # term -> {doc: tf}
        self.length: dict[str, int] = {}
        self.total = 0
        self._num: dict[str, int] = {}          # doc -> row in the arrays below (never reused)
        self._names: list[str] = []
        self._ipost: dict[str, dict[int, int]] = defaultdict(dict)    # term -> {row: tf}
        self._len = np.zeros(64)

    def add(self, doc: str, text: str) -> None:
        counts = Counter(tokens(text))
        row = self._num.get(doc)
        if row is None:
            row = self._num[doc] = len(self._names)
            self._names.append(doc)
            if row >= len(self._len):
                self._len = np.concatenate([self._len, np.zeros(len(self._len))])
        for term, n in counts.items():
            post = self.postings[term]
            post[doc] = post.get(doc, 0) + n
            ipost = self._ipost[term]
            ipost[row] = ipost.get(row, 0) + n
        added = sum(counts.values())
        self.length[doc] = self.length.get(doc, 0) + added
        self._len[row] = self.length[doc]
        self.total += added

    def remove(self, doc: str) -> None:
        if doc not in self.length:
            return
        for post in self.postings.values():
            post.pop(doc, None)
        row = self._num.pop(doc)
        for ipost in self._ipost.values():
            ipost.pop(row, None)
        self._len[row] = 0.0
        self.total -= self.length.pop(doc)

    def scores(self, query: str) -> dict[str, float]:
        n = len(self.length)
        if n == 0:
            return {}
        avg = max(self.total / n, 1e-9)
        out: dict[str, float] = defaultdict(float)
        for term in dict.fromkeys(tokens(query)):   # in the query's order (module docstring)
            post = self.postings.get(term)
            if not post:
                continue
            idf = math.log(1 + (n - len(post) + 0.5) / (len(post) + 0.5))
            for doc, tf in post.items():
                norm = K1 * (1 - B + B * self.length[doc] / avg)
                out[doc] += idf * tf * (K1 + 1) / (tf + norm)
        return out

    def search(self, query: str, k: int, allowed: Callable[[str], bool] = lambda d: True,
               order: dict[str, int] | None = None) -> list[str]:
        """Top k documents with a positive score; ties go to the later-written (`order`), then the id."""
        order = order or {}
        acc = self._scores_array(query)
        if acc is None:
            return []
        rows = np.flatnonzero(acc > 0)
        rows = rows[np.argsort(-acc[rows], kind="stable")]
        hits: list[tuple[float, int, str]] = []
        for row in rows.tolist():   # best first; stop past the k-th allowed score (ties kept, sorted below)
            s = float(acc[row])
            if len(hits) >= k and s < hits[k - 1][0]:
                break
            d = self._names[row]
            if allowed(d):
                hits.append((s, order.get(d, 0), d))
        hits.sort(key=lambda h: (-h[0], -h[1], h[2]))
        return [d for _, _, d in hits[:k]]

    def _scores_array(self, query: str) -> np.ndarray | None:
        """`scores` as an array by row (0 for unmatched or removed rows); None on an empty index."""
        n = len(self.length)
        if n == 0:
            return None
        avg = max(self.total / n, 1e-9)
        acc = np.zeros(len(self._names))
        for term in dict.fromkeys(tokens(query)):   # in the query's order (module docstring)
            post = self._ipost.get(term)
            if not post:
                continue
            idf = math.log(1 + (n - len(post) + 0.5) / (len(post) + 0.5))
            rows = np.fromiter(post.keys(), dtype=np.int64, count=len(post))
            tf = np.fromiter(post.values(), dtype=np.float64, count=len(post))
            norm = K1 * (1 - B + B * self._len[rows] / avg)
            acc[rows] += idf * tf * (K1 + 1) / (tf + norm)
        return acc
