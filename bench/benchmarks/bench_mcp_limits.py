"""Issue 11's bounded-work goals, timed over in-process MCP: hostile sizes, and calls right at each limit.

Run:  python -m pytest bench/benchmarks/bench_mcp_limits.py --benchmark-only

The goal: `oracle_learn` with 100,000 concepts, a 10 MB query and a 10 MB text each return a clear error or
an answer within 2 s. `refused_*` time the refusals (the limits check the raw JSON before any work);
`at_limit_*` time calls of the largest accepted size on a store that already holds one such text (knowledge
extraction compares a new text with stored ones, so the second write is the slow one). Each benchmark's
extra_info says whether the call was refused.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from reference.mcp_server import limits

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.reference.mcp_server.conftest import open_server  # noqa: E402

BIG = "x" * 10_000_000
WORDS = "auth token refresh cache decided postgres src/auth.py feature billing project shop we will use".split()


def text_of(n: int, seed: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choices(WORDS, k=n // 5))[:n]


@pytest.fixture
def mcp(tmp_path):
    ctx, client = open_server(tmp_path / "data", root=tmp_path)
    yield client
    client.close()
    ctx.close()


CASES = {
    "refused_learn_100k_concepts": ("oracle_learn", {"pattern": "a lesson", "concepts": [f"c{i}" for i in range(100_000)]}),
    "refused_lane_find_10mb_query": ("memory-lane_find", {"query": BIG}),
    "refused_write_10mb_text": ("memory_write_structured", {"text": BIG}),
    "at_limit_lane_find_query": ("memory-lane_find", {"query": text_of(limits.MAX_QUERY, 1)}),
    "at_limit_write_text": ("memory_write_structured", {"text": text_of(limits.MAX_TEXT, 2)}),
    "at_limit_learn_concepts": ("oracle_learn", {"pattern": "a lesson", "concepts": [f"c{i}" for i in range(100)]}),
    "at_limit_lane_store_text": ("memory-lane_store", {"information": text_of(limits.MAX_TEXT, 3)}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bounded_call(benchmark, mcp, case):
    tool, args = CASES[case]
    mcp.raw("memory_write_structured", {"text": text_of(limits.MAX_TEXT, 9)})   # a stored text to compare with
    result = benchmark.pedantic(mcp.raw, args=(tool, args), rounds=1, iterations=1)
    benchmark.extra_info["refused"] = bool(result.is_error)
    assert result.is_error == case.startswith("refused"), result.content
