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
                                           "q~2 Q0 z 1 1 sys", "empty Q0 %none% 1 0 sys"]


def test_qrels_lines_come_from_the_scenario_judgements(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(
        '{"scenario": "t", "format": 1}\n'
        '{"tool": "memory_write_structured", "args": {"text": "alpha"}, "as": "a"}\n'
        '{"tool": "memory_search_structured", "args": {"query": "x"}, "id": "q1", "expect": {"relevant": {"a": 2}}}\n'
        '{"tool": "memory_search_structured", "args": {"query": "y"}, "expect": {"relevant": ["a"]}}\n')
    assert qrels_lines(load_scenario(path)) == ["q1 0 a 2", "line4 0 a 1"]


def test_an_empty_ranking_gets_the_never_judged_placeholder():
    per_query = [{"id": "q", "retrieved": []}, {"id": "r", "retrieved": ["a"]}]
    assert run_lines(per_query, "sys") == ["q Q0 %none% 1 0 sys", "r Q0 a 1 1 sys"]
    assert trec_id("%none%") != "%none%"  # no real id can be the placeholder


def _scenario(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(
        '{"scenario": "t", "format": 1}\n'
        '{"tool": "memory_write_structured", "args": {"text": "alpha"}, "as": "a"}\n'
        '{"tool": "memory_write_structured", "args": {"text": "beta"}, "as": "b"}\n'
        '{"tool": "memory_search_structured", "args": {"query": "x"}, "id": "q1", "expect": {"relevant": {"a": 2}}}\n'
        '{"tool": "memory_search_structured", "args": {"query": "y"}, "id": "q2", "expect": {"relevant": ["b"]}}\n')
    return load_scenario(path)


@pytest.mark.ranx   # skipped unless CODEMEM_BENCH_RANX=1 (tests/conftest.py): ranx's numba compile
def test_ranx_scores_every_run_as_written_without_make_comparable(tmp_path):
    ranx = pytest.importorskip("ranx")
    from bench.export import export_trec
    runs = {"good": {"t": {"per_query": [{"id": "q1", "retrieved": ["a", "b"]}, {"id": "q2", "retrieved": ["b"]}]}},
            "half": {"t": {"per_query": [{"id": "q1", "retrieved": ["a"]}, {"id": "q2", "retrieved": []}]}},
            "none": {"t": {"per_query": [{"id": "q1", "retrieved": []}, {"id": "q2", "retrieved": []}]}}}
    files = export_trec(tmp_path, [_scenario(tmp_path)], runs)["t"]
    qrels = ranx.Qrels.from_file(str(tmp_path / files["qrels"]), kind="trec")
    expected = {"good": 1.0, "half": 0.5, "none": 0.0}
    for backend, ndcg in expected.items():
        path = tmp_path / files[backend]
        assert path.stat().st_size > 0
        run = ranx.Run.from_file(str(path), kind="trec")
        assert ranx.evaluate(qrels, run, "ndcg@10") == pytest.approx(ndcg)


def test_a_scenario_without_judgements_writes_no_file(tmp_path):
    from bench.export import export_trec
    path = tmp_path / "u.jsonl"
    path.write_text('{"scenario": "u", "format": 1}\n'
                    '{"tool": "memory_write_structured", "args": {"text": "alpha"}, "as": "a"}\n')
    assert export_trec(tmp_path / "out", [load_scenario(path)], {"x": {"u": {"per_query": []}}}) == {}
    assert not (tmp_path / "out").exists()
