"""Each statistic against hand-computed values, scipy, or a plain-Python enumeration."""
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import mannwhitneyu, ttest_rel

from bench.stats import holm, mann_whitney, paired_randomisation_test, paired_t_test


def enumerate_p(d):
    """Two-sided sign-flip p by brute force over all sign vectors (independent model)."""
    obs = abs(sum(d))
    hits = sum(1 for s in itertools.product((1, -1), repeat=len(d))
               if abs(sum(si * di for si, di in zip(s, d))) >= obs - 1e-9)
    return hits / 2 ** len(d)


# --- randomisation -----------------------------------------------------------------------

def test_randomisation_exact_by_hand():
    # sign sums of ±1±2±3: 6,4,2,0,0,-2,-4,-6 -> two of eight reach |6|
    r = paired_randomisation_test([0, 0, 0], [1, 2, 3])
    assert r.p_value == pytest.approx(2 / 8) and r.statistic == pytest.approx(2.0) and r.method == "exact"
    # five ±1: |sum| >= 3 for 1 + 5 + 5 + 1 of the 32 vectors
    assert paired_randomisation_test([0] * 5, [1, 1, 1, 1, -1]).p_value == pytest.approx(12 / 32)


def test_zero_differences_keep_the_mean_but_not_the_enumeration():
    r = paired_randomisation_test([5, 5, 0, 0, 0], [5, 5, 1, 2, 3])
    assert r.statistic == pytest.approx(6 / 5) and r.p_value == pytest.approx(2 / 8) and r.n == 5


def test_identical_samples_give_p_one():
    r = paired_randomisation_test([0.3, 0.5, 0.9], [0.3, 0.5, 0.9])
    assert r.p_value == 1.0 and r.statistic == 0.0


def test_all_same_sign_reaches_the_smallest_exact_p():
    r = paired_randomisation_test([1.0] * 10, [0.5] * 10)
    assert r.p_value == pytest.approx(2 / 2 ** 10) and r.statistic == pytest.approx(-0.5)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-4, 4), min_size=1, max_size=9))
def test_exact_matches_brute_force(diffs):
    nz = [d for d in diffs if d != 0]
    expected = enumerate_p(nz) if nz else 1.0
    assert paired_randomisation_test([0] * len(diffs), diffs).p_value == pytest.approx(expected)


def test_monte_carlo_estimates_the_exact_p_and_is_seeded():
    rng = np.random.default_rng(7)
    d = list(np.round(rng.normal(0.1, 0.5, 14), 3))
    exact = enumerate_p(d)
    mc = paired_randomisation_test([0] * 14, d, exact_max=0, permutations=40_000, seed=3)
    assert mc.method == "monte-carlo"
    assert mc.p_value == pytest.approx(exact, abs=0.01)  # binomial s.e. is at most 0.0025 here
    again = paired_randomisation_test([0] * 14, d, exact_max=0, permutations=40_000, seed=3)
    assert again.p_value == mc.p_value


def test_randomisation_rejects_bad_input():
    with pytest.raises(ValueError, match="equal length"):
        paired_randomisation_test([1, 2], [1])
    with pytest.raises(ValueError, match="finite"):
        paired_randomisation_test([1, float("nan")], [1, 2])


# --- paired t ----------------------------------------------------------------------------

def test_paired_t_by_hand():
    # d = 1, 2, 2, 3: mean 2, sd sqrt(2/3), t = 2 / (sd / 2)
    r = paired_t_test([1, 2, 3, 4], [2, 4, 5, 7])
    assert r.statistic == pytest.approx(2 / (math.sqrt(2 / 3) / 2))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=3, max_size=30))
def test_paired_t_matches_scipy(pairs):
    x, y = [p[0] for p in pairs], [p[1] for p in pairs]
    d = np.subtract(y, x)
    if np.std(d) < 1e-9:
        return  # degenerate, covered by its own test
    ref = ttest_rel(y, x)
    r = paired_t_test(x, y)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert r.p_value == pytest.approx(ref.pvalue, rel=1e-6, abs=1e-12)


def test_paired_t_degenerate_cases():
    assert paired_t_test([1, 2], [1, 2]).p_value == 1.0
    assert paired_t_test([1], [3]).p_value == 1.0
    r = paired_t_test([1, 2, 3], [0, 1, 2])
    assert r.p_value == 0.0 and r.statistic == -math.inf


# --- Holm --------------------------------------------------------------------------------

def test_holm_by_hand():
    # sorted 0.005, 0.01, 0.03, 0.04 -> 4*0.005, 3*0.01, max(.03, 2*.03), max(.06, .04)
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_caps_at_one_and_keeps_single_p():
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])
    assert holm([0.02]) == [0.02]
    assert holm([]) == []
    with pytest.raises(ValueError):
        holm([1.5])


# --- Mann-Whitney ------------------------------------------------------------------------

def test_mann_whitney_by_hand():
    # y above every x: U = 9, exact one-sided p = 1 / C(6, 3)
    r = mann_whitney([1, 2, 3], [4, 5, 6])
    assert r.statistic == 9 and r.p_value == pytest.approx(1 / 20)
    # U = 2 + 3 + 0 = 5; P(U >= 5) over the 20 equally likely rankings is 10/20
    r = mann_whitney([1, 2, 3], [2.5, 4, 0.5])
    assert r.statistic == 5 and r.p_value == pytest.approx(0.5)


def test_mann_whitney_matches_scipy_on_large_tied_samples():
    rng = np.random.default_rng(0)
    x = np.round(rng.gamma(2, 1, 400), 1)
    y = np.round(rng.gamma(2, 1.1, 300), 1)
    ref = mannwhitneyu(y, x, alternative="greater")
    r = mann_whitney(x, y)
    assert r.statistic == ref.statistic and r.p_value == pytest.approx(ref.pvalue)
    assert r.p_value < 0.05  # y is slower by construction


def test_mann_whitney_degenerate_samples():
    assert mann_whitney([], [1.0]).p_value == 1.0
    assert mann_whitney([2.0, 2.0], [2.0, 2.0]).p_value == 1.0
