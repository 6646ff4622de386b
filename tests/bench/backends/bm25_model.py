"""An independent plain-Python model of SQLite FTS5's bm25() (k1 = 1.2, b = 0.75).

From the FTS5 documentation and fts5_aux.c: for each query phrase, idf =
ln((N - n + 0.5) / (n + 0.5)), floored at 1e-6; a row scores the sum over
phrases of idf * f * (k1 + 1) / (f + k1 * (1 - b + b * D / avgdl)), where f
is the phrase's count in the row, D the row's token count and avgdl the mean
token count; FTS5 returns the negative, the backends return it positive.
Words are lowercase runs of letters and digits; choose corpora whose words
porter stemming does not merge.
"""
from __future__ import annotations

import math
import re

K1, B = 1.2, 0.75


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def bm25_scores(docs: dict[str, str], terms: list[str]) -> dict[str, float]:
    """Positive bm25 of every doc containing at least one of `terms`."""
    toks = {d: tokens(t) for d, t in docs.items()}
    n_rows = len(docs)
    avgdl = sum(len(t) for t in toks.values()) / n_rows
    out: dict[str, float] = {}
    for term in dict.fromkeys(terms):
        hits = [d for d, t in toks.items() if term in t]
        idf = max(math.log((n_rows - len(hits) + 0.5) / (len(hits) + 0.5)), 1e-6)
        for d in hits:
            f, dl = toks[d].count(term), len(toks[d])
            out[d] = out.get(d, 0.0) + idf * f * (K1 + 1) / (f + K1 * (1 - B + B * dl / avgdl))
    return out
