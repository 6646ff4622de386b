"""TREC export: id encoding, one line per distinct retrieved id, strictly decreasing scores."""
import pytest

from bench.export import qrels_lines, run_lines, trec_id
from bench.scenario import load_scenario


def test_trec_id_encodes_whitespace_and_percent():
    assert trec_id("file:src/a b.py") == "file:src/a%20b.py"
    assert trec_id("50%\tx") == "50%25%09x"
    assert trec_id("plain") == "plain"
    with pytest.raises(ValueError):
        trec_id("")


def test_run_lines_dedupe_and_rank_repeated_query_ids():
    per_query = [{"id": "q", "retrieved": ["a", "b", "a", "c"]}, {"id": "q", "retrieved": ["z"]},
                 {"id": "empty", "retrieved": []}]
    assert run_lines(per_query, "sys") == ["q Q0 a 1 3 sys", "q Q0 b 2 2 sys", "q Q0 c 3 1 sys",
                                           "q~2 Q0 z 1 1 sys"]


def test_qrels_lines_come_from_the_scenario_judgements(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(
        '{"scenario": "t", "format": 1}\n'
        '{"tool": "memory_write_structured", "args": {"text": "alpha"}, "as": "a"}\n'
        '{"tool": "memory_search_structured", "args": {"query": "x"}, "id": "q1", "expect": {"relevant": {"a": 2}}}\n'
        '{"tool": "memory_search_structured", "args": {"query": "y"}, "expect": {"relevant": ["a"]}}\n')
    assert qrels_lines(load_scenario(path)) == ["q1 0 a 2", "line4 0 a 1"]
