"""`graph-scale` (scenarios/generators/graph_scale.py) at a small size: deterministic, sized as asked,
answered exactly by the reference, and its checks catch a wrong answer. The full size (50k / 500k) is built
by `--suite large` (bench/scenario/large_graph.py); `CODEMEM_BENCH_GRAPH_SCALE=full` runs it here too."""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest

from bench.run import run_suite
from bench.scenario import load_scenario
from bench.scenario import large_graph

ROOT = Path(__file__).resolve().parents[2]
SMALL = {"nodes": 400, "edges": 4000, "batch": 500}


def _generator():
    spec = importlib.util.spec_from_file_location("graph_scale_gen", ROOT / "scenarios/generators/graph_scale.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _generator()


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    sizes = SMALL if os.environ.get("CODEMEM_BENCH_GRAPH_SCALE") != "full" else {}
    return gen.write(gen.load_spec(name="graph-scale-small", **sizes), tmp_path_factory.mktemp("gs"))


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_same_spec_gives_the_same_bytes(small, tmp_path):
    again = gen.write(gen.load_spec(name="graph-scale-small", **SMALL), tmp_path)
    assert again.read_bytes() == small.read_bytes()


def test_the_graph_ends_with_the_asked_sizes_and_every_kind_of_step(small):
    spec = gen.load_spec(**SMALL)
    lines = _lines(small)
    tools = [x.get("tool") for x in lines[1:]]
    nodes = {n[0] for x in lines if x.get("tool") == "graph_put_nodes" for n in x["args"]["nodes"]}
    live: set[tuple] = set()
    for x in lines:
        if x.get("tool") == "graph_put_edges":
            live |= {tuple(e) for e in x["args"]["edges"]}
        elif x.get("tool") == "graph_delete_edges":
            live -= {tuple(e) for e in x["args"]["edges"]}
    assert len(nodes) == spec["nodes"] and len(live) == spec["edges"]
    assert max(len(x["args"].get("edges", ())) for x in lines[1:] if "args" in x) <= spec["batch"]
    for name in ("graph_put_nodes", "graph_put_edges", "graph_delete_edges", "graph_get_out", "graph_get_in",
                 "graph_get_node", "graph_traverse", "graph_export_snapshot", "snapshot_get_out"):
        assert name in tools, name
    assert any("at" in x.get("args", {}) for x in lines[1:]), "some reads are in the past"
    assert any(x.get("tool") == "graph_traverse" and len(x["expect"]["equals"]) > 10 for x in lines[1:])


def test_reference_answers_every_check(small, tmp_path):
    s = run_suite("reference", [load_scenario(small)], tmp_path).scenarios["graph-scale-small"]
    assert s["checks"]["total"] > 500
    assert s["checks"]["passed"] == s["checks"]["total"], s["problems"][:3]
    assert s["steps"]["error"] == 0 and s["targets"][0]["met"] is True


def test_a_wrong_traversal_answer_is_caught(small, tmp_path):
    lines = small.read_text().splitlines()
    i = next(n for n, x in enumerate(lines) if '"graph_traverse"' in x and '"equals":["' in x)
    obj = json.loads(lines[i])
    obj["expect"]["equals"] = obj["expect"]["equals"][1:]
    lines[i] = json.dumps(obj)
    path = tmp_path / "graph-scale-small.jsonl"
    path.write_text("\n".join(lines) + "\n")
    s = run_suite("reference", [load_scenario(path)], tmp_path / "out").scenarios["graph-scale-small"]
    assert s["checks"]["total"] - s["checks"]["passed"] == 1
    assert s["problems"][0]["line"] == i + 1 and s["problems"][0]["step"] == "graph_traverse"


def test_large_tier_builds_once_and_rebuilds_when_the_spec_changes(tmp_path):
    root = tmp_path / "root"
    for rel in ("scenarios/generators/graph_scale.py", "scenarios/spec/graph_scale.toml"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, root / rel)
    spec = root / "scenarios/spec/graph_scale.toml"
    text = spec.read_text().replace("nodes = 50_000", "nodes = 300").replace("edges = 500_000", "edges = 2000")
    spec.write_text(text.replace("batch = 5_000", "batch = 400"))
    cache = tmp_path / "cache"
    assert large_graph.path_for("not-a-graph", root, cache) is None
    path = large_graph.path_for("graph-scale", root, cache)
    first = path.read_bytes()
    assert _lines(path)[0]["scenario"] == "graph-scale"
    path.write_text("stale but stamped\n")          # reused while the stamp matches
    assert large_graph.path_for("graph-scale", root, cache).read_text() == "stale but stamped\n"
    spec.write_text(spec.read_text().replace("seed = 1515", "seed = 1516"))
    rebuilt = large_graph.path_for("graph-scale", root, cache).read_bytes()
    assert rebuilt != first and rebuilt.startswith(b"{")


def test_the_large_suite_names_the_graph_scenario():
    suites = json.loads((ROOT / "scenarios/suites.json").read_text())
    assert "graph-scale" in suites["large"]
