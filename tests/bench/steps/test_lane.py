"""Memory Lane steps: the generated scenario on the reference backend, unsupported elsewhere, metric arithmetic."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from reference.telemetry import NullSink

from bench.backends.capabilities import Capability as C
from bench.backends.interface import Backend
from bench.backends.ops.lane import LaneOps
from bench.replay import replay
from bench.run import run_suite
from bench.scenario.loader import load_scenario
from bench.scenario.suites import resolve

ROOT = Path(__file__).resolve().parents[3]


def test_memory_lane_scenario_on_reference(tmp_path):
    (sc,) = resolve(["memory-lane"])
    s = run_suite("reference:memory-lane", [sc], tmp_path).scenarios["memory-lane"]
    assert s["steps"]["error"] == 0 and s["steps"]["unsupported"] == 0
    assert s["checks"]["rate"] == 1.0, s["problems"]
    m = s["metrics"]
    assert m["lane_duplicate_injections_per_session"] == 0.0 and m["lane_injected_memories"] > 0
    assert m["lane_clarification_accuracy"] == 1.0 and m["lane_floor_accuracy"] == 1.0
    assert m["lane_intent_boost_accuracy"] == 1.0 and m["lane_feedback_accuracy"] == 1.0
    assert m["lane_intent_boost_measured"] == 1.15
    assert s["quality"]["queries"] == 24 and s["quality"]["unsupported_queries"] == 0


def test_answering_nothing_earns_nothing_from_the_floor_and_clarification_pairs(tmp_path):
    # every lane find answers at once with no result and no question; it used to score 0.6 on both
    from bench.backends.registry import register_backend, unregister_backend
    from tests.bench.planted.backends import EmptyReads
    (sc,) = resolve(["memory-lane"])
    register_backend(EmptyReads.name, EmptyReads)
    try:
        m = run_suite(EmptyReads.name, [sc], tmp_path).scenarios["memory-lane"]["metrics"]
    finally:
        unregister_backend(EmptyReads.name)
    assert m["lane_floor_accuracy"] == 0.0 and m["lane_clarification_accuracy"] == 0.0


def test_lane_steps_are_unsupported_without_the_capability(tmp_path):
    (sc,) = resolve(["memory-lane"])
    s = run_suite("fts-baseline", [sc], tmp_path).scenarios["memory-lane"]
    lane_steps = sum(1 for st in sc.steps if st.name.startswith("memory-lane_"))  # directives are not steps
    assert s["steps"]["unsupported"] == lane_steps > 0 and s["steps"]["error"] == 0
    assert s["quality"]["unsupported_queries"] == 0 and s["quality"]["ndcg@10"] > 0   # plain searches still run
    assert not any(k.startswith("lane_") for k in s["metrics"])
    assert all(t["value"] is None for t in s["targets"])


class ScriptedLane(LaneOps, Backend):
    """Answers lane calls from a script, so the harness's metric arithmetic can be checked by hand."""

    name = "scripted-lane"
    capabilities = frozenset({C.MEMORY_LANE})

    def open(self, data_dir, clock, telemetry):
        self.n, self.calls = 0, {}

    def close(self):
        pass

    def storage_bytes(self):
        return 0

    def lane_store(self, information, memory_type=None, entities=None, paths=None, tags=None, confidence_score=None):
        self.n += 1
        return f"m{self.n}"

    def lane_inject(self, query, session_id, limit=3):
        ids = {"q1": ["m1", "m2"], "q2": ["m2", "m3"], "q3": ["m1"]}[query]
        return {"memory_ids": ids, "block": "", "clarification_required": False, "candidates": {}}

    def lane_find(self, query, entities=None, limit=10):
        n = self.calls[query] = self.calls.get(query, 0) + 1
        ranked = {"fa": ["m1", "m2"] if n == 1 else ["m2", "m1"], "fb": ["m3"], "fc": []}[query]
        return {"results": [{"id": i, "score": 1.0} for i in ranked], "clarification_required": query == "fc"}


def _scenario(tmp_path: Path, lines: list[dict]) -> Path:
    path = tmp_path / "lane-script.jsonl"
    header = {"scenario": "lane-script", "format": 1}
    path.write_text("".join(json.dumps(x) + "\n" for x in [header, *lines]))
    return path


def test_metric_arithmetic_by_hand(tmp_path):
    stores = [{"tool": "memory-lane_store", "args": {"information": t}, "as": t} for t in ("a", "b", "c")]
    inject = [{"tool": "memory-lane_inject", "args": {"query": q, "session_id": s}}
              for s, q in (("s1", "q1"), ("s1", "q2"), ("s2", "q3"), ("s2", "q3"))]
    finds = [{"tool": "memory-lane_find", "args": {"query": q}} for q in ("fa", "fb", "fc", "fa")]
    score = {"directive": "score_memory_lane",
             "intent": [{"query": "fb", "first": "c"}, {"query": "fa", "first": "a"}, {"query": "never", "first": "a"}],
             "feedback": [{"query": "fa", "before": "a", "after": "b"}, {"query": "fb", "before": "c", "after": "c"}],
             # fc asks and finds nothing, its control fb finds without asking: 1; fb does not ask: 0
             "clarification": [{"query": "fc", "control": "fb"}, {"query": "fb", "control": "fa"}]}
    sc = load_scenario(_scenario(tmp_path, stores + inject + finds + [score]))
    result = replay(sc, ScriptedLane(), tmp_path / "w", NullSink())
    assert all(st.status == "ok" for st in result.steps), result.steps
    # s1: q1 then q2 repeats m2 (1); s2: q3 twice repeats m1 (1) -> 2 duplicates over 2 sessions
    # intent: fb -> c hit, fa's last call -> b miss, never asked -> miss; feedback: fa a->b hit, fb called once miss
    assert result.extra_metrics == {"lane_duplicate_injections_per_session": 1.0, "lane_injected_memories": 4,
                                    "lane_intent_hit_rate": round(1 / 3, 6), "lane_feedback_effect": 0.5,
                                    "lane_clarification_accuracy": 0.5}


class RatioLane(ScriptedLane):
    """Scores from a script: memories m1/m2 share a text; feedback and intent change them as scripted."""

    def open(self, data_dir, clock, telemetry):
        super().open(data_dir, clock, telemetry)
        self.signal = None

    def lane_feedback(self, memory_id, signal):
        self.signal = signal
        return {"state": signal}

    def lane_find(self, query, entities=None, limit=10):
        scores = {"neutral": (0.8, 0.4), "intent": (0.9 * 1.15, 0.45), "additive": (0.3 + 0.15, 0.15),
                  "fb": (0.6 * (1.1 if self.signal else 1.0), 0.6), "far": None}[query]
        if scores is None:
            return {"results": [], "clarification_required": False}
        return {"results": [{"id": "m1", "score": scores[0]}, {"id": "m2", "score": scores[1]}],
                "clarification_required": False}


def test_ratio_probes_measure_only_the_stated_effect(tmp_path):
    stores = [{"tool": "memory-lane_store", "args": {"information": "same"}, "as": t} for t in ("a", "b")]
    finds = [{"tool": "memory-lane_find", "args": {"query": q}} for q in ("neutral", "intent", "additive", "fb")]
    finds += [{"tool": "memory-lane_feedback", "args": {"memory_id": "$a", "signal": "helpful"}},
              {"tool": "memory-lane_find", "args": {"query": "fb"}}, {"tool": "memory-lane_find", "args": {"query": "far"}},
              {"tool": "memory-lane_find", "args": {"query": "neutral"}}]
    score = {"directive": "score_memory_lane",
             "boost": [{"query": "intent", "neutral": "neutral", "a": "a", "b": "b", "ratio": 1.15},
                       {"query": "additive", "neutral": "neutral", "a": "a", "b": "b", "ratio": 1.15}],
             "feedback_ratio": [{"query": "fb", "target": "a", "twin": "b", "ratio": 1.1},
                                {"query": "fb", "target": "a", "twin": "b", "ratio": 0.5}],
             # far is empty and its control neutral is not: 1; neutral is not empty: 0
             "floor": [{"query": "far", "control": "neutral"}, {"query": "neutral", "control": "far"}]}
    sc = load_scenario(_scenario(tmp_path, stores + finds + [score]))
    result = replay(sc, RatioLane(), tmp_path / "w", NullSink())
    assert all(st.status == "ok" for st in result.steps), result.steps
    m = result.extra_metrics
    # multiplicative boost measured 1.15 (hit); +0.15 added to a lower score measures (0.45/0.15)/2 = 1.5 (miss)
    assert m["lane_intent_boost_accuracy"] == 0.5
    assert m["lane_feedback_accuracy"] == 0.5 and m["lane_feedback_helpful_measured"] == 1.1
    assert m["lane_floor_accuracy"] == 0.5


def test_generator_is_deterministic_and_matches_the_committed_file():
    spec = importlib.util.spec_from_file_location("memory_lane_gen", ROOT / "scenarios/generators/memory_lane.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    lines = gen.generate()
    assert lines == gen.generate()
    committed = [json.loads(x) for x in (ROOT / "scenarios/memory-lane.jsonl").read_text().splitlines()]
    assert lines == committed
