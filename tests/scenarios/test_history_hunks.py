"""Hunk granularity (scenarios/generators/history/hunks.py) and the large tier's cache (bench/scenario/large.py)."""
from __future__ import annotations

import json
import shutil

import pytest

from bench.scenario import large
from bench.scenario.loader import load_scenario
from bench.scenario.history_generator import history_generator

GEN = history_generator()
DataError, generate, load, hunks = GEN.DataError, GEN.generate, GEN.load, GEN.hunks.hunks

from .history_fixture import make_history


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return make_history(tmp_path_factory.mktemp("h") / "toolkit")


@pytest.fixture(scope="module")
def ds(folder):
    return load(folder)


def test_each_commit_memory_is_followed_by_its_hunks_and_truth_is_unchanged(ds):
    commit_lines, commit_qrels = generate(ds, "blame")
    lines, qrels = generate(ds, "blame", granularity="hunk")
    assert qrels == commit_qrels
    assert [s for s in lines[1:] if "-h" not in s.get("as", "")] == commit_lines[1:]
    writes = [s for s in lines[1:] if s.get("tool") == "memory_write_structured"]
    by_sha = {c["sha"]: c for c in ds.work}
    for i, w in enumerate(writes):
        if "-h" in w["as"]:
            continue
        c = by_sha[w["args"]["metadata"]["commit_sha"]]
        expected = [f"{w['as']}-h{n}" for n in range(1, len(hunks(c["patch"])) + 1)]
        assert [x["as"] for x in writes[i + 1:i + 1 + len(expected)]] == expected
        if expected:
            first = writes[i + 1]["args"]
            path = hunks(c["patch"])[0][0]
            assert first["metadata"]["files_changed"] == [path] and path in first["text"]
    assert sum("-h" in w["as"] for w in writes) == sum(len(hunks(c["patch"])) for c in ds.work) > 0
    assert lines[0]["scenario"].endswith("-blame-hunks")


def test_hunk_granularity_is_deterministic_on_a_slice(ds):
    a, _ = generate(ds, "history", granularity="hunk")
    b, _ = generate(ds, "history", granularity="hunk")
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_tasks_without_commit_memories_refuse_hunk_granularity(ds):
    with pytest.raises(DataError, match="no hunk granularity"):
        generate(ds, "files", granularity="hunk")
    with pytest.raises(DataError, match="unknown granularity"):
        generate(ds, "blame", granularity="line")


def test_large_scenarios_are_built_into_the_cache_once_and_load(folder, tmp_path, monkeypatch):
    root = tmp_path / "root"
    shutil.copytree(folder, root / "scenarios" / "data" / "httpx")   # a small stand-in under a known name
    monkeypatch.setenv("CODEMEM_BENCH_CACHE", str(tmp_path / "cache"))
    assert large.path_for("httpx-blame", root) is None and large.path_for("httpx-files-hunks", root) is None
    path = large.path_for("httpx-blame-hunks", root)
    assert path == tmp_path / "cache" / "scenarios" / "httpx-blame-hunks.jsonl"
    first = path.read_bytes()
    mtime = path.stat().st_mtime_ns
    assert large.path_for("httpx-blame-hunks", root) == path and path.stat().st_mtime_ns == mtime   # cached
    (path.parent / "httpx-blame-hunks.stamp").write_text("stale\n")
    assert large.path_for("httpx-blame-hunks", root).read_bytes() == first                        # rebuilt, same
    sc = load_scenario(path, path.parent / "oracle_data")
    assert any(s.expect is not None and s.expect.relevant for s in sc.steps)
