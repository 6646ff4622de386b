"""The terminal table and report.md: the score's parts in words, failures with file and line, one number format."""
import re

from bench.report import Report


def test_terminal_score_line_is_not_a_python_dict_and_failures_name_the_file(smoke_report, trouble):
    text = Report.from_dict(trouble(smoke_report)).to_table()
    first = text.splitlines()[0]
    assert "{" not in first and "'" not in first
    assert re.search(r"^backend: reference   codemem-bench retrieval \d+\.\d\d \| score v3: \d+\.\d\d = correctness 1\.000 ×0\.20", first)
    assert "needs attention:" in text
    assert "scenarios/smoke.jsonl:1  unmet target  ndcg@10 >= 0.99" in text
    assert "scenarios/smoke.jsonl:7  failed  memory_get: found: expected a hit" in text


def test_terminal_and_markdown_numbers_follow_one_rule(smoke_report):
    r = Report.from_dict(smoke_report)
    for text in (r.to_table(), r.to_markdown()):
        assert not re.search(r"\d[eE][+-]\d", text), "a number in exponent form"
        assert not re.search(r"\b0\.\d{4,}\b", text), "a rate with more than 3 decimals"
    q = smoke_report["scenarios"]["smoke"]["quality"]
    assert f"{q['ndcg@10']:.3f}" in r.to_table()


def test_markdown_lists_what_needs_attention_before_the_scenarios(smoke_report, trouble):
    md = Report.from_dict(trouble(smoke_report)).to_markdown()
    assert md.index("## Needs attention") < md.index("## smoke")
    assert "- `scenarios/smoke.jsonl:1` unmet target: ndcg@10 >= 0.99" in md
    assert "- scenarios/smoke.jsonl:7 `memory_get` failed" in md
