"""`score_patterns` scoring: offset overlap of any detector's matches with planted spans."""
from __future__ import annotations

import pytest

from bench.steps.patterns import memory_metrics, span_metrics

FILES = {"1": {"set": "pat:s", "spans": [{"kind": "eval", "start": 10, "end": 20},
                                          {"kind": "pickle", "start": 40, "end": 50}]},
         "2": {"set": "pat:s", "spans": []}}


def test_overlap_not_equality_decides_a_hit():
    # a detector that flags only part of a planted statement, with its own pattern index, still scores
    m = span_metrics({("pat:s", "1"): [[7, 15, 18], [3, 45, 60]], ("pat:s", "2"): []}, FILES)
    assert m["patterns.span_precision"] == 1.0 and m["patterns.span_recall"] == 1.0


def test_matches_outside_spans_and_misses_count():
    m = span_metrics({("pat:s", "1"): [[0, 20, 30]], ("pat:s", "2"): [[0, 0, 5]]}, FILES)
    assert m["patterns.span_precision"] == 0.0        # [20, 30) touches [10, 20) only at its end
    assert m["patterns.span_recall"] == 0.0
    assert m["patterns.span_recall.eval"] == 0.0


def test_an_unscanned_file_misses_its_spans():
    m = span_metrics({("pat:s", "1"): [[0, 12, 14]]}, FILES | {"3": {"set": "pat:s", "spans": [
        {"kind": "eval", "start": 0, "end": 4}]}})
    assert m["patterns.span_recall"] == pytest.approx(1 / 3, abs=1e-6) and m["patterns.span_recall.eval"] == 0.5


def test_memory_scans_respect_filters_and_treat_secret_only_memories_as_neutral():
    mems = {"a": {"task": "task:debug", "context": ["context:api"], "smells": ["eval"], "secrets": []},
            "b": {"task": "task:refactor", "context": ["context:data"], "smells": ["eval"], "secrets": []},
            "c": {"task": "task:debug", "context": ["context:api"], "smells": [], "secrets": [{"kind": "jwt"}]},
            "d": {"task": "task:debug", "context": ["context:api"], "smells": [], "secrets": []}}
    scans = [("pat:s", "task:debug", None, {"a", "c"}), ("pat:s", None, ["context:data"], {"b", "d"}),
             ("pat:other", None, None, {"d"})]
    m = memory_metrics(scans, mems, "pat:s")
    assert m["patterns.memory_recall"] == 1.0
    assert m["patterns.memory_precision"] == pytest.approx(2 / 3, abs=1e-6)   # d is a false positive, c is neutral
