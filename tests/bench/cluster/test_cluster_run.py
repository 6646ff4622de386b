"""A run spread over a local Dask cluster gives the serial run's quality figures and says who measured what."""
from __future__ import annotations

import json

import pytest

from bench.run import run_suite
from bench.scenario.suites import resolve

pytest.importorskip("distributed")

from bench.cluster import open_client, run_suite_cluster  # noqa: E402

QUALITY = ("quality", "quality_by_category", "per_query", "checks", "steps", "census", "targets", "problems")


def _quality(report):
    out = {}
    for name, s in report.scenarios.items():
        out[name] = {k: s[k] for k in QUALITY if k in s}
        # a latency target's value is a timing; only its presence and metric name are deterministic
        out[name]["targets"] = [(t["metric"], t.get("value") if "latency" not in t["metric"] else None)
                                for t in s.get("targets", [])]
    return out


def test_local_cluster_matches_serial(tmp_path):
    scenarios = resolve(["smoke"], "default")
    serial = run_suite("reference", scenarios, tmp_path / "serial", repeat=2)
    with open_client(workers=2) as client:
        spread = run_suite_cluster(client, "reference", scenarios, tmp_path / "cluster", repeat=2)
        workers = set(client.scheduler_info()["workers"])
    assert _quality(spread) == _quality(serial)
    assert spread.scenarios["smoke"]["quality"]["ndcg@10"] > 0
    cells = json.loads((tmp_path / "cluster" / "cluster.json").read_text())["cells"]
    assert sorted((c["scenario"], c["repetition"]) for c in cells) == [("smoke", 1), ("smoke", 2)]
    assert all(c["worker"] in workers for c in cells)
    assert len(spread.scenarios["smoke"]["latency_repetitions"]) == 2


def test_workers_must_be_positive():
    with pytest.raises(ValueError, match="--workers"):
        open_client(workers=0)


def test_compare_on_a_cluster_matches_serial(tmp_path):
    from bench.cluster import run_backends_cluster
    from bench.compare import run_backends
    from bench.compare.runner import slug
    scenarios = resolve(["smoke"], "default")
    specs = ["reference", "reference:rrf"]
    serial = run_backends(specs, scenarios, tmp_path / "serial")
    with open_client(workers=2) as client:
        spread = run_backends_cluster(client, specs, scenarios, tmp_path / "cluster")
    for s in specs:
        assert _quality(spread[s]) == _quality(serial[s]), s
        assert (tmp_path / "cluster" / slug(s) / "report.json").exists()
    cells = json.loads((tmp_path / "cluster" / "cluster.json").read_text())["cells"]
    assert sorted(c["backend"] for c in cells) == sorted(specs)
