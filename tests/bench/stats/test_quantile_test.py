"""The quantile test: hand-built 2x2 tables, directions, and the degenerate cases."""
import pytest
from scipy.stats import fisher_exact

from bench.stats import quantile_test


def test_median_split_matches_fisher_on_the_hand_built_table():
    x = [1, 2, 3, 4, 5, 6, 7, 8]
    y = [5, 6, 7, 8, 9, 10, 11, 12]
    # pooled median of the 16 values is (6 + 7) / 2 = 6.5: x has 6 at or below, y has 2
    r = quantile_test(x, y, 0.5, alternative="greater")
    assert r.p_value == pytest.approx(fisher_exact([[6, 2], [2, 6]], alternative="greater").pvalue)
    assert r.statistic == pytest.approx(4.0)  # medians 4.5 and 8.5
    assert quantile_test(x, y, 0.5, alternative="less").p_value > 0.9


def test_tests_the_named_quantile_not_the_whole_distribution():
    x = [2.0 + i / 100 for i in range(100)]
    y = [1.0 + i / 1000 for i in range(90)] + [10.0] * 10   # faster median, slower tail
    assert quantile_test(x, y, 0.5, alternative="less").p_value < 0.001
    assert quantile_test(x, y, 0.95, alternative="greater").p_value < 0.01
    assert quantile_test(x, y, 0.5, alternative="greater").p_value > 0.5


def test_a_shift_of_every_value_moves_a_low_quantile():
    x = [1.0 + i / 50 for i in range(40)]
    assert quantile_test(x, [v + 5 for v in x], 0.10).p_value < 0.01
    assert quantile_test(x, x, 0.10).p_value > 0.5


def test_degenerate_inputs_give_no_evidence():
    assert quantile_test([], [1.0], 0.5).p_value == 1.0
    assert quantile_test([1.0, 1.0], [1.0, 1.0], 0.5).p_value == 1.0
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        quantile_test([1.0], [2.0], 1.0)
