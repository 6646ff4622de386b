"""The fast baseline paths give exactly the answers of the plain ones (bench/baselines, issue 15 item 4)."""
from __future__ import annotations

import random

from bench.baselines.bm25 import BM25Index
from bench.baselines.recency import most_recent, most_recent_ordered

WORDS = "retry token cache race queue worker fix the a of timeout refresh table insert".split()


def _plain_search(idx: BM25Index, query: str, k: int, allowed, order: dict[str, int]) -> list[str]:
    hits = [(s, order.get(d, 0), d) for d, s in idx.scores(query).items() if s > 0 and allowed(d)]
    hits.sort(key=lambda h: (-h[0], -h[1], h[2]))
    return [d for _, _, d in hits[:k]]


def test_bm25_search_matches_the_plain_ranking_through_adds_appends_and_removes():
    rng = random.Random(15)
    idx, order, checked = BM25Index(), {}, 0
    for n in range(600):
        doc = f"d{rng.randrange(250)}"          # some ids come back: text is appended to them
        idx.add(doc, " ".join(rng.choices(WORDS, k=rng.randint(1, 12))))
        order[doc] = n // 3                      # ties in order, as commits naming several files give
        if n % 50 == 49:
            gone = rng.choice(sorted(idx.length))
            idx.remove(gone)
            order.pop(gone, None)
        if n % 7 == 0:
            query = " ".join(rng.choices(WORDS, k=rng.randint(1, 4)))
            allowed = (lambda d: True) if n % 2 else (lambda d: int(d[1:]) % 3 != 0)
            k = rng.choice([1, 3, 10])
            got = idx.search(query, k, allowed, order)
            assert got == _plain_search(idx, query, k, allowed, order), (n, query)
            checked += bool(got)
    assert checked > 40


def test_most_recent_ordered_matches_most_recent_on_an_ascending_pool():
    rng = random.Random(4)
    order: dict[str, int] = {}
    for n in range(400):
        doc = f"f{rng.randrange(120)}"
        order.pop(doc, None)                     # as corpus.Pool keeps it: a re-added doc moves to the end
        order[doc] = n // 4
        for k in (1, 5, 10):
            allowed = (lambda d: True) if n % 2 else (lambda d: d.endswith(("1", "4", "7")))
            assert most_recent_ordered(order, k, allowed) == most_recent(order, k, allowed)
