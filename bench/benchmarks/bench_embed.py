"""Embedding cost: the numpy "hashing-v1" against scikit-learn's "sklearn-hashing-v1" and all-MiniLM-L6-v2
("minilm", when installed: `codemem-bench models install minilm`), same texts, same run.

    python -m pytest bench/benchmarks/bench_embed.py --benchmark-only

The texts are the memory texts of the sqlite-utils-history scenario (real commit
messages). Compare the two rows' means: their ratio is the figure to quote.
"""
import json

import pytest

from bench.scenario.suites import scenarios_dir
from reference.embed import get_embedder
from reference.embed.protocol import EmbedderUnavailable

NAMES = ["hashing-v1", "sklearn-hashing-v1", "minilm"]


def _embedder(name):
    try:
        return get_embedder(name)
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
