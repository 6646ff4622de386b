"""Embedding cost: the numpy "hashing-v1" against scikit-learn's "sklearn-hashing-v1" and all-MiniLM-L6-v2
("minilm", when installed: `codemem-bench models install minilm`), same texts, same run.

    python -m pytest bench/benchmarks/bench_embed.py --benchmark-only

The texts are the memory texts of the sqlite-utils-history scenario (real commit
messages). Compare the two rows' means: their ratio is the figure to quote.
"minilm-32-texts" is MiniLM run in chunks of 32 texts whatever their length (its chunking before the
256-token budget; the same rows): the batch group's ratio minilm-32-texts / minilm is what the budget saves.
The embedders are built from the registry, never through the opt-in row cache.
"""
import json

import pytest

from bench.scenario.suites import scenarios_dir
from reference.embed import get_embedder
from reference.embed.protocol import EmbedderUnavailable

NAMES = ["hashing-v1", "sklearn-hashing-v1", "minilm", "minilm-32-texts"]
OPTIONS = {"minilm-32-texts": ("minilm", {"batch_tokens": 1 << 30})}   # only the 32-text limit left


def _embedder(name):
    base, kwargs = OPTIONS.get(name, (name, {}))
    try:
        return get_embedder(base, **kwargs)
    except EmbedderUnavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def texts():
    lines = (scenarios_dir() / "sqlite-utils-history.jsonl").read_text().splitlines()[1:]
    steps = [json.loads(x) for x in lines]
    return [s["args"]["text"] for s in steps if s.get("tool") == "memory_write_structured"][:300]


@pytest.mark.parametrize("name", NAMES)
def test_embed_one_at_a_time(benchmark, texts, name):
    """One text per call, as a store write does."""
    e = _embedder(name)
    benchmark.group = "embed 300 texts, one per call"
    benchmark(lambda: [e.embed([t]) for t in texts])


@pytest.mark.parametrize("name", NAMES)
def test_embed_batch(benchmark, texts, name):
    """All texts in one call, as a bulk ingest could do."""
    e = _embedder(name)
    benchmark.group = "embed 300 texts, one batch"
    benchmark(lambda: e.embed(texts))
