"""Okapi BM25 over a corpus that grows (and shrinks) as a scenario replays.

Scores are the classic Robertson/Sparck Jones form with Lucene's idf:
idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)); each distinct query term adds
idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avglen)), k1 = 1.2,
b = 0.75. Tokens: lowercase runs of letters and digits (so `snake_case` and
`a.b` split into words). The statistics are those of the documents present
when the query is asked, as a live index would have them.
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable

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

    def add(self, doc: str, text: str) -> None:
        counts = Counter(tokens(text))
        for term, n in counts.items():
            post = self.postings[term]
            post[doc] = post.get(doc, 0) + n
        added = sum(counts.values())
        self.length[doc] = self.length.get(doc, 0) + added
        self.total += added

    def remove(self, doc: str) -> None:
        if doc not in self.length:
            return
        for post in self.postings.values():
            post.pop(doc, None)
        self.total -= self.length.pop(doc)

    def scores(self, query: str) -> dict[str, float]:
        n = len(self.length)
        if n == 0:
            return {}
        avg = max(self.total / n, 1e-9)
        out: dict[str, float] = defaultdict(float)
        for term in set(tokens(query)):
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
        hits = [(s, order.get(d, 0), d) for d, s in self.scores(query).items() if s > 0 and allowed(d)]
        hits.sort(key=lambda h: (-h[0], -h[1], h[2]))
        return [d for _, _, d in hits[:k]]
