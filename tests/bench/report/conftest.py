"""One real run of the smoke scenario, shared by the report tests (about 8 s)."""
import contextlib
import copy
import io
import json

import pytest

from bench.cli.main import main


@pytest.fixture(scope="session")
def smoke_run(tmp_path_factory):
    """(output folder, history folder, terminal text) of `run smoke --save first`."""
    out = tmp_path_factory.mktemp("smoke-run")
    history = tmp_path_factory.mktemp("history")
    mp = pytest.MonkeyPatch()
    mp.setattr("bench.report.history.history_root", lambda: history)
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            rc = main(["run", "smoke", "--out", str(out), "--quiet", "--save", "first"])
    finally:
        mp.undo()
    assert rc == 0, buf.getvalue()
    return out, history, buf.getvalue()


@pytest.fixture
def smoke_report(smoke_run):
    """A fresh copy of the smoke run's report.json dict."""
    return copy.deepcopy(json.loads((smoke_run[0] / "report.json").read_text()))


def with_trouble(report):
    """`report` with one unmet target and one failed step in smoke, and BM25/recency baselines."""
    s = report["scenarios"]["smoke"]
    s["targets"].append({"metric": "ndcg@10", "op": ">=", "target": 0.99, "source": "test target",
                         "value": s["quality"]["ndcg@10"], "met": False})
    s["problems"].append({"line": 7, "step": "memory_get", "status": "failed", "message": "found: expected a hit"})
    s["baselines"] = {"recency": {"recall@10": 0.2, "ndcg@10": 0.123, "mrr@10": 0.2, "queries": 12},
                      "bm25": {"recall@10": 0.7, "ndcg@10": 0.654, "mrr@10": 0.7, "queries": 12},
                      "lift_over_bm25": {"ndcg@10": 0.3}}
    return report


@pytest.fixture
def trouble():
    """`with_trouble`, for tests to apply to a report dict."""
    return with_trouble
