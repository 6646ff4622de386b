"""`codemem-bench compare` end to end on the smoke scenario, with a deliberately weakened ranker.

The TREC exports are re-scored with ranx (an independent implementation) and must give
the report's numbers; the significance test is re-done by brute-force enumeration.
"""
import contextlib
import io
import itertools
import json
from collections import defaultdict

import pytest
import ranx

from bench.backends.reference.backend import ReferenceBackend
from bench.backends.registry import register_backend, unregister_backend
from bench.cli.main import main


class WeakRanker(ReferenceBackend):
    """The reference store with its best hit thrown away."""

    name = "weak-ranker"
    options = ()

    def search_memories(self, *args, **kwargs):
        return super().search_memories(*args, **kwargs)[1:]


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    out = tmp_path_factory.mktemp("compare")
    register_backend("weak-ranker", WeakRanker)
    try:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rc = main(["compare", "smoke", "--backends", "reference,weak-ranker", "--out", str(out), "--repeat", "2",
                       "--quiet"])
    finally:
        unregister_backend("weak-ranker")
    return rc, buf.getvalue(), out


def load(path):
    return json.loads(path.read_text())


def test_compare_writes_every_output(compared):
    rc, text, out = compared
    assert rc == 0
    assert "== smoke" in text and "ndcg@10" in text and "weak-ranker" in text
    data = load(out / "comparison.json")
    assert data["schema"] == "codemem-bench/comparison" and data["backends"] == ["reference", "weak-ranker"]
    assert data["scenarios"]["smoke"]["repetitions"] == {"reference": 2, "weak-ranker": 2}
    assert (out / "pareto.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "## smoke" in (out / "comparison.md").read_text()
    for b in ("reference", "weak-ranker"):
        assert load(out / b / "report.json")["backend"] == b


def brute_force_p(x, y):
    d = [b - a for a, b in zip(x, y) if b != a]
    obs = abs(sum(d))
    hits = sum(abs(sum(s * v for s, v in zip(signs, d))) >= obs - 1e-9
               for signs in itertools.product((1, -1), repeat=len(d)))
    return hits / 2 ** len(d) if d else 1.0


def test_weak_ranker_is_significantly_worse_on_ndcg(compared):
    rc, text, out = compared
    ref = load(out / "reference" / "report.json")["scenarios"]["smoke"]["per_query"]
    weak = load(out / "weak-ranker" / "report.json")["scenarios"]["smoke"]["per_query"]
    x, y = [q["ndcg@10"] for q in ref], [q["ndcg@10"] for q in weak]
    assert sum(x) / len(x) > 0.5, "precondition: the reference store ranks the smoke queries well"
    row = next(r for r in load(out / "comparison.json")["scenarios"]["smoke"]["quality"] if r["metric"] == "ndcg@10")
    test = row["vs_reference"]["weak-ranker"]
    assert test["diff"] == pytest.approx(sum(y) / len(y) - sum(x) / len(x), abs=1e-6) and test["diff"] < 0
    assert test["p_randomisation"] == pytest.approx(brute_force_p(x, y), abs=1e-6)
    assert test["significant"]
    assert "weak-ranker is significantly worse than reference on: " in text and "smoke ndcg@10" in text


@pytest.mark.ranx
@pytest.mark.slow  # ranx compiles its TREC reader and metrics with numba on first use: ~20 s on 2 cores
def test_trec_exports_rescored_by_ranx_match_the_reports(compared):
    _, _, out = compared
    files = load(out / "comparison.json")["files"]["trec"]["smoke"]
    qrels = ranx.Qrels.from_file(str(out / files["qrels"]), kind="trec")
    for backend in ("reference", "weak-ranker"):
        section = load(out / backend / "report.json")["scenarios"]["smoke"]
        by_metric = defaultdict(list)
        for q in section["per_query"]:
            for m in q:
                if "@" in m:
                    by_metric[m].append(q)
        assert by_metric, "the report has no ranking metric"
        run = ranx.Run.from_file(str(out / files[backend]), kind="trec")
        ranx.evaluate(qrels, run, list(by_metric))  # as written: no make_comparable; numba compiles once
        for metric, queries in by_metric.items():
            scored = run.scores[metric]
            for q in queries:
                assert float(scored[q["id"]]) == pytest.approx(q[metric], abs=1e-9), (backend, metric, q["id"])
            mean = sum(float(scored[q["id"]]) for q in queries) / len(queries)
            assert mean == pytest.approx(section["quality"][metric], abs=1e-6), (backend, metric)


def test_run_files_have_strictly_decreasing_scores(compared):
    _, _, out = compared
    files = load(out / "comparison.json")["files"]["trec"]["smoke"]
    per_qid = defaultdict(list)
    for line in (out / files["reference"]).read_text().splitlines():
        qid, q0, doc, rank, score, tag = line.split()
        assert q0 == "Q0" and tag == "reference"
        per_qid[qid].append((int(rank), float(score)))
    for rows in per_qid.values():
        assert [r for r, _ in rows] == list(range(1, len(rows) + 1))
        assert all(a[1] > b[1] for a, b in zip(rows, rows[1:]))


def test_unknown_backend_is_an_input_error_before_anything_runs(tmp_path, capsys):
    assert main(["compare", "smoke", "--backends", "reference,nope", "--out", str(tmp_path)]) == 2
    assert "unknown backend 'nope'" in capsys.readouterr().err
    assert not (tmp_path / "reference").exists()
    assert main(["compare", "smoke", "--backends", "reference,reference", "--out", str(tmp_path)]) == 2


def test_the_command_a_reader_retypes_names_the_skipped_scenarios():
    from argparse import Namespace

    from bench.cli.compare_cmd import _command
    args = Namespace(scenarios=[], suite="side-by-side", skip=["knowledge", "smoke"], queries=10, agents=0, repeat=1,
                     workers=None)
    assert _command(args, ["reference", "fts-baseline"]) == (
        "codemem-bench compare --backends reference,fts-baseline --suite side-by-side --skip knowledge --skip smoke "
        "--queries 10")
