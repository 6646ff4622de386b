"""Speed of the file documents' BM25 (`FileIndex.text_scores`, the text part of `project_locate_files`) at scale.

Run:  python -m pytest bench/benchmarks/bench_files.py --benchmark-only -s
Scale: CODEMEM_BENCH_SCALE=small (2,000 memories, default, CI), medium (10,000), full (100,000), or a number
of memories (as bench_scale.py).

The index is a `LexicalIndex` with its `FileIndex` alone (no store): memories of 12 words from a 3,000-word
vocabulary plus "fix files changed" and 1-3 of 2,000 file paths each (`synthetic_files`); 30 queries of 12
terms (`file_queries`). Three cases, CPU time (`time.thread_time`) p50 / p95 of 90 calls each, in
`extra_info` and printed: every row visible each call (the kept document lengths), one write before each call
(the lengths moved by the new row), and two partial masks alternating (a branch filter switched each call:
the lengths moved by every row whose visibility changed).
"""
from __future__ import annotations

import os
import random
import statistics
import time

import numpy as np
import pytest

from bench.benchmarks.scale_figures import pct
from reference.lexical.files import FileIndex
from reference.lexical.index import LexicalIndex

SCALES = {"small": 2_000, "medium": 10_000, "full": 100_000}
SCALE = os.environ.get("CODEMEM_BENCH_SCALE", "small")
N = SCALES[SCALE] if SCALE in SCALES else int(SCALE)


def _words(count: int, seed: int = 0) -> list[str]:
    """`count` distinct made-up words of three syllables: one term each (`w123` would also give `w` and `123`)."""
    rng, syllables, out = random.Random(seed), [c + v for c in "bcfgklmnprtvz" for v in "aeiou"], set()
    while len(out) < count:
        out.add("".join(rng.choices(syllables, k=3)))
    return sorted(out)


WORDS = _words(3_000)
PATHS = [f"pkg{i}/mod{j}.py" for i in range(50) for j in range(40)]     # 2,000 files
K1, B = 1.2, 0.75


def synthetic_files(n: int, seed: int = 1):
    """(text, files) of `n` memories: 12 vocabulary words, "fix files changed" and 1-3 of the 2,000 paths."""
    rng = random.Random(seed)
    for _ in range(n):
        files = rng.sample(PATHS, rng.choice((1, 1, 2, 3)))
        yield " ".join(rng.choices(WORDS, k=12)) + " fix files changed " + ", ".join(files), files


def file_queries(count: int = 30, seed: int = 2) -> list[str]:
    """`count` queries of 12 terms: 10 vocabulary words, "fix" (in every memory) and "docs" (in none)."""
    rng = random.Random(seed)
    return [" ".join(rng.sample(WORDS, 10)) + " fix docs" for _ in range(count)]


def build(n: int, indexes=(FileIndex,)) -> tuple[LexicalIndex, list]:
    """A LexicalIndex of `n` synthetic memories and one of each `indexes` class noting their files."""
    index, files = LexicalIndex(), [cls() for cls in indexes]
    for i, (text, touched) in enumerate(synthetic_files(n)):
        row = index.add(f"m{i}", text)
        for f in files:
            f.note(row, touched, index.terms(row))
    return index, files


@pytest.fixture(scope="module")
def built():
    index, (files,) = build(N)
    return index, files


def _cpu_ms(fn) -> float:
    c0 = time.thread_time()
    fn()
    return (time.thread_time() - c0) * 1e3


@pytest.mark.parametrize("case", ["same-mask", "write-each", "two-masks"])
def test_text_scores_latency(benchmark, built, case):
    index, files = built
    queries = file_queries()
    rng = np.random.default_rng(0)
    masks = [rng.random(index.rows) < 0.8, rng.random(index.rows) < 0.8]
    state = {"i": 0}

    def one() -> dict[str, float]:
        i = state["i"]
        state["i"] += 1
        if case == "write-each":
            row = index.add(f"w{case}{i}", "fix files changed pkg1/mod1.py")
            files.note(row, ["pkg1/mod1.py"], index.terms(row))
        visible = masks[i % 2][: index.rows] if case == "two-masks" else np.ones(index.rows, dtype=bool)
        return files.text_scores(index, queries[i % len(queries)], visible, K1, B)

    for _ in queries:       # warm: the entry arrays, the postings' arrays
        one()
    cpu = [_cpu_ms(one) for _ in range(3 * len(queries))]
    assert one(), "the queries reach no file"
    benchmark.pedantic(one, rounds=len(queries), iterations=1)
    c50, c95 = statistics.median(cpu), pct(cpu, .95)
    benchmark.extra_info.update(n=N, files=len(files.paths.ids), cpu_p50_ms=round(c50, 3), cpu_p95_ms=round(c95, 3))
    print(f"\ntext_scores at {N:,} memories, {len(files.paths.ids):,} files, {case}: "
          f"CPU p50 / p95 {c50:.2f} / {c95:.2f} ms (load {os.getloadavg()[0]:.1f})")
