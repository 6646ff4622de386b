"""Recency and BM25 baselines: correct scores, the scenario's own timeline, branch filters, report hooks."""
import json
import math

import pytest

from bench.baselines import attach_baselines, scenario_baselines
from bench.baselines.bm25 import B, K1, BM25Index, tokens
from bench.baselines.corpus import ranked_queries
from bench.baselines.recency import most_recent
from bench.report.baselines_view import baseline_columns, baseline_markdown
from bench.scenario import load_scenario


def scenario(tmp_path, *steps, oracle=None):
    p = tmp_path / "t.jsonl"
    p.write_text("\n".join(json.dumps(x) for x in [{"scenario": "t", "format": 1}, *steps]) + "\n")
    return load_scenario(p)


def write(alias, text):
    return {"tool": "memory_write_structured", "args": {"text": text}, "as": alias}


def search(qid, query, relevant):
    return {"tool": "memory_search_structured", "args": {"query": query}, "id": qid, "expect": {"relevant": relevant}}


def test_bm25_matches_the_formula_by_hand():
    idx = BM25Index()
    idx.add("a", "retry backoff retry")
    idx.add("b", "cache layer")
    idx.add("c", "retry cache")
    n, avg = 3, 7 / 3
    idf = math.log(1 + (n - 2 + 0.5) / (2 + 0.5))
    tf_a = idf * 2 * (K1 + 1) / (2 + K1 * (1 - B + B * 3 / avg))
    assert idx.scores("retry")["a"] == pytest.approx(tf_a)
    assert idx.search("retry", 10) == ["a", "c"]          # b has no query term: not returned
    idx.remove("a")
    assert idx.search("retry", 10) == ["c"] and idx.total == 4


def test_tokens_split_identifiers():
    assert tokens("Fix sqlite_utils.Table insert_all (#12)") == ["fix", "sqlite", "utils", "table", "insert", "all", "12"]


def test_recency_ranks_latest_first_within_a_filter():
    order = {"a": 1, "b": 3, "c": 2}
    assert most_recent(order, 2) == ["b", "c"]
    assert most_recent(order, 5, lambda d: d != "b") == ["c", "a"]


def test_a_query_only_sees_earlier_writes(tmp_path):
    sc = scenario(tmp_path, write("old", "token refresh race"), search("q", "token refresh", ["old"]),
                  write("new", "token refresh race again"))
    (q,) = ranked_queries(sc)
    assert q.runs == {"recency": ["old"], "bm25": ["old"]}
    base = scenario_baselines(sc)
    assert base["bm25"]["ndcg@10"] == 1.0 and base["recency"]["queries"] == 1


def test_bm25_and_recency_disagree_where_they_should(tmp_path):
    sc = scenario(tmp_path, write("match", "parser crash on empty input"), write("noise1", "release 1.2"),
                  write("noise2", "docs typo"), search("q", "parser crash", ["match"]))
    base = scenario_baselines(sc)
    assert base["bm25"]["mrr@10"] == 1.0 and base["recency"]["mrr@10"] == pytest.approx(1 / 3)


def test_project_search_respects_branches_and_gc(tmp_path):
    sha = lambda n: f"{n:040x}"  # noqa: E731
    steps = [{"directive": "branch", "name": "main", "default": True},
             {"directive": "commit", "sha": sha(1), "message": "retry on main", "files": ["a.py"], "as": "m1"},
             {"directive": "branch", "name": "feat", "base": sha(1)},
             {"directive": "commit", "sha": sha(2), "message": "retry on feat", "files": ["b.py"], "as": "f1"},
             {"directive": "branch", "name": "other", "base": sha(1)},
             {"directive": "commit", "sha": sha(3), "message": "retry elsewhere", "files": ["c.py"], "as": "o1"},
             {"directive": "branch", "name": "feat"},
             {"tool": "project_memory_search", "args": {"query": "retry"}, "id": "q1", "expect": {"relevant": ["f1"]}},
             {"tool": "project_locate_files", "args": {"query": "retry feat"}, "id": "q2",
              "expect": {"relevant": ["file:b.py"]}},
             {"tool": "project_gc", "args": {"live_branches": ["main"]}},
             {"tool": "project_memory_search", "args": {"query": "retry", "filtered": False}, "id": "q3",
              "expect": {"relevant": ["m1"]}}]
    q1, q2, q3 = ranked_queries(scenario(tmp_path, *steps))
    assert sorted(q1.runs["recency"]) == ["f1", "m1"] and q1.runs["bm25"][0] == "f1"
    assert q2.runs["bm25"][0] == "file:b.py" and q2.runs["recency"] == ["file:c.py", "file:b.py", "file:a.py"]
    assert q3.runs["recency"] == ["m1"]


def test_attach_and_show(tmp_path):
    sc = scenario(tmp_path, write("a", "parser crash"), search("q", "parser", ["a"]))
    summary = {"quality": {"ndcg@10": 0.5, "recall@10": 1.0, "mrr@10": 0.5, "queries": 1},
               "targets": [{"metric": "ndcg@10", "op": ">=", "target": 0.85}]}
    attach_baselines(summary, sc)
    assert summary["baselines"]["lift_over_bm25"]["ndcg@10"] == -0.5
    assert baseline_columns(summary) == {"bm25": 1.0, "recency": 1.0}
    md = "\n".join(baseline_markdown(summary, "x"))
    assert "baseline: bm25" in md and "lift over BM25: -0.500" in md and "asks for a lift of -0.150" in md


def test_no_rankable_query_means_no_baselines(tmp_path):
    summary = {"quality": {}}
    attach_baselines(summary, scenario(tmp_path, write("a", "x")))
    assert "baselines" not in summary and baseline_columns(summary) == {"bm25": None, "recency": None}


def test_table_shows_every_backend_the_baselines_and_the_spread():
    from bench.baselines.table import table
    base = {"recency": {"ndcg@10": 0.1}, "bm25": {"ndcg@10": 0.3}}
    reports = [{"backend": "a", "scenarios": {"s": {"quality": {"ndcg@10": 0.5}, "baselines": base}}},
               {"backend": "b", "scenarios": {"s": {"quality": {"ndcg@10": 0.2}, "baselines": base}}}]
    assert table(reports).splitlines()[-1] == "| s | 0.500 | 0.200 | 0.100 | 0.300 | 0.300 |"


def test_baselines_and_table_break_down_by_category(tmp_path):
    from bench.baselines.table import table
    steps = [write("match", "parser crash on empty input"), write("noise", "release 1.2"),
             {**search("q1", "parser crash", ["match"]), "category": "text"},
             {**search("q2", "what came last", ["noise"]), "category": "latest"}]
    base = scenario_baselines(scenario(tmp_path, *steps))
    cats = base["by_category"]
    assert cats["text"]["bm25"]["ndcg@10"] == 1.0 and cats["text"]["recency"]["mrr@10"] == 0.5
    assert cats["latest"]["recency"]["ndcg@10"] == 1.0 and cats["latest"]["bm25"]["queries"] == 1
    assert base["bm25"]["queries"] == 2
    by_cat = {"text": {"ndcg@10": 0.9}, "latest": {"ndcg@10": 0.4}}
    reports = [{"backend": "a", "scenarios": {"s": {"quality": {"ndcg@10": 0.65}, "quality_by_category": by_cat,
                                                    "baselines": base}}}]
    rows = table(reports).splitlines()[2:]
    assert rows[1] == "| s [text] | 0.900 | 0.631 | 1.000 | 0.000 |"
    assert rows[2] == "| s [latest] | 0.400 | 1.000 | 0.000 | 0.000 |"


def test_one_category_gives_no_breakdown(tmp_path):
    base = scenario_baselines(scenario(tmp_path, write("a", "parser crash"), search("q", "parser", ["a"])))
    assert "by_category" not in base


_SCORES_IN_A_PROCESS = """
import hashlib, sys
from bench.baselines.bm25 import BM25Index
idx, words = BM25Index(), [f"w{i}" for i in range(40)]
for d in range(300):   # documents matching many query terms at varied tf and length: the sum's order shows
    idx.add(f"d{d}", " ".join(words[(d * 7 + j) % 40] for j in range(1 + d % 23)) + " " + " ".join(words[:d % 5]))
q = " ".join(words[::3])
sys.stdout.write(hashlib.sha256(idx._scores_array(q).tobytes()).hexdigest() + " " +
                 hashlib.sha256(repr(sorted(idx.scores(q).items())).encode()).hexdigest())
"""


def test_bm25_scores_are_the_same_bytes_whatever_the_hash_seed():
    # the per-document sums run over the query's terms; in a set's order they followed PYTHONHASHSEED, and the
    # last bits that changed reordered near-ties (a baseline figure of a real history moved by .0003 between runs)
    import subprocess
    import sys
    runs = {subprocess.run([sys.executable, "-c", _SCORES_IN_A_PROCESS], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": seed, "PATH": ""}).stdout for seed in ("0", "1", "2", "3")}
    assert len(runs) == 1
