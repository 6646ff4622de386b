"""The hand-computed metric tests run, and none skips, when ranx cannot be imported."""
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

# ranx made unimportable the way a missing package is (sys.modules entry None), then pytest in-process
RUN = ("import sys; sys.modules['ranx'] = None; import pytest; "
       "sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', '-rs', sys.argv[1]]))")


def test_hand_computed_metric_tests_do_not_need_ranx():
    out = subprocess.run([sys.executable, "-c", RUN, str(HERE / "test_metrics.py")], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    summary = out.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary, summary


def test_the_ranx_cross_check_is_the_one_that_skips_without_ranx():
    # with the cross-check switched on (tests/conftest.py), so the skip seen is the missing ranx's
    out = subprocess.run([sys.executable, "-c", RUN, str(HERE / "test_metrics_ranx.py")], cwd=ROOT,
                         capture_output=True, text=True, timeout=300, env={**os.environ, "CODEMEM_BENCH_RANX": "1"})
    summary = out.stdout.strip().splitlines()[-1]
    # exit 5: the module was skipped whole, so pytest collected no test from it
    assert out.returncode in (0, 5) and "1 skipped" in summary and "passed" not in summary, summary
    assert "could not import 'ranx'" in out.stdout, out.stdout[-1000:]
