"""Graph steps: the reference store answers the generated point-in-time scenario exactly."""
import json

import pytest

from bench.run import run_suite
from bench.scenario import load_scenario
from bench.scenario.suites import resolve


@pytest.fixture(scope="module")
def graph_pit():
    (sc,) = resolve(["graph-pit"])
    return sc


def test_reference_answers_every_point_in_time_read(graph_pit, tmp_path):
    s = run_suite("reference", [graph_pit], tmp_path).scenarios["graph-pit"]
    assert s["checks"]["total"] > 400
    assert s["checks"]["passed"] == s["checks"]["total"], s["problems"][:3]
    assert s["steps"]["error"] == 0 and s["targets"][0]["met"] is True


def test_a_wrong_expectation_is_caught(graph_pit, tmp_path):
    """Flip one expected value in the scenario file: the check must fail on that line only."""
    lines = graph_pit.path.read_text().splitlines()
    i = next(n for n, x in enumerate(lines) if '"graph_get_out"' in x and '"equals": [[' in x)
    obj = json.loads(lines[i])
    obj["expect"]["equals"] = obj["expect"]["equals"][1:] + [["calls", "file:src/nowhere.py"]]
    lines[i] = json.dumps(obj)
    path = tmp_path / "graph-pit.jsonl"
    path.write_text("\n".join(lines) + "\n")
    s = run_suite("reference", [load_scenario(path)], tmp_path / "out").scenarios["graph-pit"]
    assert s["checks"]["total"] - s["checks"]["passed"] == 1
    assert s["problems"][0]["line"] == i + 1 and s["problems"][0]["step"] == "graph_get_out"


def test_backend_without_graph_reports_unsupported(graph_pit, tmp_path):
    s = run_suite("fts-baseline", [graph_pit], tmp_path).scenarios["graph-pit"]
    assert s["steps"]["unsupported"] == sum(1 for st in graph_pit.steps if st.kind == "tool")
    assert s["checks"]["passed"] == 0 and s["steps"]["error"] == 0


def test_session_ids_reach_graph_records(tmp_path):
    """A `session` directive's run and task ids are recorded on graph writes (seed 003 §4.3)."""
    from bench.backends.registry import create_backend
    from reference.clock import LogicalClock
    from reference.telemetry import NullSink
    backend = create_backend("reference")
    backend.open(tmp_path, LogicalClock(), NullSink())
    try:
        backend.set_context("repo:x", "run-9", "task-1", None)
        backend.graph_put_node("file:a.py", "file", {})
        node = backend.graph.get_node("file:a.py")
        assert (node.run_id, node.task_id) == ("run-9", "task-1")
    finally:
        backend.close()
