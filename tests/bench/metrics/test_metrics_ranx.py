"""Our ranking metrics agree with ranx (an independent implementation); skipped when ranx is not installed."""
import random

import pytest

from bench.metrics import ranking_metrics

pytestmark = pytest.mark.ranx   # skipped unless CODEMEM_BENCH_RANX=1 (tests/conftest.py)
ranx = pytest.importorskip("ranx")


def test_agrees_with_ranx():
    """60 seeded random queries scored by ranx (numba, an independent implementation) in one call."""
    rnd = random.Random(7)
    pool = [f"d{i}" for i in range(15)]
    qrels, run, ours = {}, {}, {}
    for q in range(60):
        ranked = rnd.sample(pool, rnd.randint(1, 12))
        grades = {d: rnd.randint(1, 3) for d in rnd.sample(pool, rnd.randint(1, 6))}
        qrels[f"q{q}"] = grades
        run[f"q{q}"] = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
        ours[f"q{q}"] = ranking_metrics(ranked, grades, 10)
    names = ["recall@10", "precision@10", "mrr@10", "ndcg@10"]
    ranx_run = ranx.Run(run)
    ranx.evaluate(ranx.Qrels(qrels), ranx_run, names, make_comparable=True)
    for name in names:
        for q in qrels:
            assert ours[q][name] == pytest.approx(float(ranx_run.scores[name][q]), abs=1e-6), (q, name)
