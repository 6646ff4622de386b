"""Synthetic memory records for the scale and ingest benchmarks: same vocabulary, same shape.

Words follow a Zipf-like mix of domain words and 3,000 filler terms, so full-text search sees common
and rare terms as in real notes; every record carries a task, contexts, a tag and a branch.
"""
from __future__ import annotations

import random

WORDS = ("auth token refresh race billing invoice decimal cache redis queue worker retry timeout deploy docker "
         "schema migration index query latency frontend button modal css api endpoint session cookie webhook "
         "stripe rounding tax locale font grid layout hydration ssr bundle lint flaky test fixture mock").split()
VOCAB = [f"term{i}" for i in range(3000)]
VOCAB_WEIGHTS = [1.0 / (r + 1) for r in range(len(VOCAB))]
TASKS = ["task:debug", "task:refactor", "task:optimize", "task:implement_feature", None]
CONTEXTS = ["context:auth", "context:billing", "context:api", "context:frontend", "context:data"]


def record(rng: random.Random, i: int) -> dict:
    """The `i`-th record drawn from `rng`: `write_memory` arguments by name."""
    words = rng.choices(WORDS, k=6) + rng.choices(VOCAB, weights=VOCAB_WEIGHTS, k=14)
    return dict(text=" ".join(words) + f" item{i}", task=rng.choice(TASKS),
                context=rng.sample(CONTEXTS, rng.randint(0, 2)), tags=rng.sample(["p1", "p2", "p3", "p4"], 1),
                metadata={"branch": rng.choice(["main", "dev", "feature-x"])})


def query_texts(rng: random.Random, n: int) -> list[str]:
    """`n` search texts drawn from `rng`: three domain words and two filler terms each."""
    return [" ".join(rng.choices(WORDS, k=3) + rng.choices(VOCAB, weights=VOCAB_WEIGHTS, k=2)) for _ in range(n)]
