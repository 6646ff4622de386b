"""bench.ranker_table: the table it prints from reports, the runs it asks for, its argument checks."""
from __future__ import annotations

import json

import pytest

from bench.ranker_table.__main__ import parse
from bench.ranker_table.render import cost_table, table
from bench.ranker_table.runs import SCENARIOS, covers, run_command


def _report(scores: dict[str, float], base=(0.2, 0.3), cats=None) -> dict:
    out = {}
    for name, v in scores.items():
        out[name] = {"quality": {"ndcg@10": v},
                     "baselines": {"recency": {"ndcg@10": base[0]}, "bm25": {"ndcg@10": base[1]},
                                   "by_category": {c: {"recency": {"ndcg@10": 0.9}, "bm25": {"ndcg@10": 0.4}}
                                                   for c in (cats or {})}},
                     "quality_by_category": {c: {"ndcg@10": x} for c, x in (cats or {}).items()}}
    return {"scenarios": out}


def test_every_cell_baselines_branch_categories_and_the_mean_of_the_six():
    six = [f"{d}-{t}" for t in ("blame", "history") for d in ("sqlite-utils", "httpx", "attrs")]
    reports = {
        ("hashing-v1", "rrf"): _report({**{s: 0.1 * (i + 1) for i, s in enumerate(six)}, "httpx-branches": 0.25},
                                       cats={"on-branch": 0.5}),
        ("minilm", "rrf"): _report({s: 0.5 for s in six}),
    }
    text = table(reports, ["hashing-v1", "minilm"], ["rrf"], default="rrf")
    lines = text.splitlines()
    assert lines[0] == "| task | data | rrf (default) · hashing-v1 | rrf (default) · minilm | recency | BM25 |"
    assert "| blame | httpx | 0.200 | 0.500 | 0.200 | 0.300 |" in lines
    assert "| branches, all | httpx | 0.250 | - | 0.200 | 0.300 |" in lines
    assert "| branches, on-branch | httpx | 0.500 | - | 0.900 | 0.400 |" in lines
    assert "| files | attrs | - | - | - | - |" in lines
    assert lines[-1] == "| mean of the six blame + history |  | 0.350 | 0.500 | 0.200 | 0.300 |"


def test_the_mean_is_not_given_when_a_scenario_is_missing():
    reports = {("hashing-v1", "rrf"): _report({"sqlite-utils-blame": 0.4})}
    assert table(reports, ["hashing-v1"], ["rrf"], default="x").splitlines()[-1].count("| - |") >= 1


def test_cost_table_rows():
    text = cost_table([{"embedder": "minilm-l6-v2-int8", "memories": 200,
                        "one_by_one": {"wall_median_ms": 61.04, "wall_mean_ms": 70.0, "cpu_mean_ms": 55.5},
                        "batch": {"wall_mean_ms": 58.0, "cpu_mean_ms": 54.0}}])
    assert "| minilm-l6-v2-int8 | 200 | 61.0 / 70.0 / 55.5 | 58.0 / 54.0 |" in text


def test_each_run_skips_the_seed_defaults_replay_and_names_the_ranker(tmp_path):
    cmd = run_command("memory-lane", ["attrs-blame"], tmp_path)
    assert cmd[-7:] == ["attrs-blame", "--backend", "reference:memory-lane", "--no-seed-defaults", "--out",
                        str(tmp_path), "--quiet"]
    assert len(SCENARIOS) == 12 and "httpx-files" in SCENARIOS


def test_covers_needs_every_scenario(tmp_path):
    assert not covers(tmp_path, ["a"])
    (tmp_path / "report.json").write_text(json.dumps({"scenarios": {"a": {}}}))
    assert covers(tmp_path, ["a"]) and not covers(tmp_path, ["a", "b"])


def test_unknown_ranker_is_a_clear_error(capsys):
    with pytest.raises(SystemExit):
        parse(["--rankers", "galaxybrain,nope"])
    assert "unknown ranker(s) nope" in capsys.readouterr().err
    assert parse([]).cache is None   # the row cache is opt-in
