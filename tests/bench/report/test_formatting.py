"""The one number-formatting rule of the terminal, report.md and report.html."""
import math

from bench.report.formatting import fmt_bytes, fmt_metric, fmt_ms, fmt_number, fmt_signed, score_line


def test_each_kind_of_figure_has_one_format():
    assert fmt_metric("ndcg@10", 0.9583333) == "0.958"
    assert fmt_metric("recall@10", 1.0) == "1.000"
    assert fmt_metric("p95 ms", 0.6312) == "0.63" and fmt_metric("p95 ms", 10.549) == "10.5"
    assert fmt_metric("latency.queries.p95", 1234.56) == "1,234.6"
    assert fmt_metric("storage_bytes", 7_992_000) == "7.6 MiB" and fmt_bytes(512) == "512 B"
    assert fmt_metric("score", 99.2) == "99.20"
    assert fmt_metric("component latency", 0.7051) == "0.705"  # a component is a rate, not ms
    assert fmt_metric("queries", 12345) == "12,345"
    assert fmt_number(7.992e6) == "7,992,000" and "e" not in fmt_number(1.5e12)
    assert fmt_metric("x", None) == "-" and fmt_metric("x", math.nan) == "-" and fmt_ms(None) == "-"


def test_signed_differences_keep_the_unit():
    assert fmt_signed("ndcg@10", -0.0234) == "-0.023"
    assert fmt_signed("score", 1.5) == "+1.50"
    assert fmt_signed("p95 ms", -5.34) == "-5.34"
    assert fmt_signed("x", None) == "-"


def test_score_line_names_each_component_and_weight_not_a_dict():
    line = score_line({"version": 2, "value": 81.8712, "components": {"quality": 0.749322, "latency": 1.0},
                       "weights": {"quality": 0.4, "latency": 0.1}})
    assert line == "codemem-bench score v2: 81.87 = quality 0.749 ×0.40, latency 1.000 ×0.10"
    assert "{" not in line
    assert score_line({"version": 2, "value": None, "components": {}}) == "codemem-bench score v2: -"


def test_score_line_leads_with_the_retrieval_figure_when_the_score_has_one():
    line = score_line({"version": 3, "value": 81.8712, "retrieval": 74.93, "components": {"quality": 0.7493},
                       "weights": {"quality": 0.4}})
    assert line == "codemem-bench retrieval 74.93 | score v3: 81.87 = quality 0.749 ×0.40"
    assert score_line({"version": 3, "value": 50.0, "retrieval": None, "components": {}}) == \
        "codemem-bench retrieval - | score v3: 50.00"


def test_numpy_scalars_follow_the_same_rule():
    import numpy as np
    assert fmt_metric("unsupported", np.int64(12345)) == "12,345"
    assert fmt_metric("ndcg@10", np.float64(0.95833)) == "0.958"
    assert fmt_metric("mean_rank", 3.5) == "3.500"  # `mean` alone does not make a latency
