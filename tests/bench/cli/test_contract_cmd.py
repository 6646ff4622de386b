"""`codemem-bench contract BACKEND`: the contract suite run from wherever it is installed (bench/cli/contract_cmd.py)."""
import subprocess
import sys

import pytest

from bench.cli import contract_cmd
from bench.cli.main import main


def test_runs_the_suite_against_the_named_backend(capfd):
    assert main(["contract", "reference", "-k", "test_memory_contract and get"]) == 0
    out = capfd.readouterr().out
    assert "against reference" in out and " passed" in out and "failed" not in out


def test_an_unknown_backend_fails_before_pytest_starts(capsys):
    assert main(["contract", "nosuch"]) == 2
    assert "unknown backend 'nosuch'" in capsys.readouterr().err


def test_the_installed_copy_is_used_without_a_checkout(tmp_path, monkeypatch):
    """No tests/contract in the project folder: the wheel's codemem_bench_data/contract/ is the suite."""
    installed = tmp_path / "codemem_bench_data"
    (installed / "contract").mkdir(parents=True)
    (installed / "contract" / "conftest.py").write_text("")
    monkeypatch.setattr("bench.scenario.home.project_root", lambda: tmp_path / "no-checkout")
    monkeypatch.setattr("bench.scenario.home.installed_data", lambda: installed)
    assert contract_cmd.suite_dir() == installed / "contract"
    monkeypatch.setattr("bench.scenario.home.installed_data", lambda: None)
    with pytest.raises(ValueError, match="contract suite is not installed"):
        contract_cmd.suite_dir()


def test_a_failing_contract_test_fails_the_command(tmp_path, monkeypatch, capfd):
    """The exit code is pytest's: a suite with a failing test exits 1 (the command does not swallow it)."""
    suite = tmp_path / "contract"
    suite.mkdir()
    (suite / "conftest.py").write_text("")
    (suite / "test_x.py").write_text("import os\n\ndef test_named():\n"
                                     "    assert os.environ['CODEMEM_BENCH_CONTRACT_BACKENDS'] == 'reference'\n"
                                     "\ndef test_fails():\n    assert False\n")
    monkeypatch.setattr(contract_cmd, "suite_dir", lambda: suite)
    assert main(["contract", "reference"]) == 1
    out = capfd.readouterr().out
    assert "1 failed, 1 passed" in out
