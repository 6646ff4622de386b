"""Where the scenarios are found: CODEMEM_BENCH_HOME, a checkout, or the data a wheel installs."""
import pytest

from bench.scenario import suites
from bench.scenario.loader import ScenarioError


@pytest.fixture
def no_home(monkeypatch):
    monkeypatch.delenv(suites.HOME_ENV, raising=False)


def fake_site(tmp_path, monkeypatch):
    data = tmp_path / "site" / suites.DATA_PACKAGE
    (data / "scenarios").mkdir(parents=True)
    (data / "scenarios" / "suites.json").write_text('{"default": []}')
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    return data


def test_the_environment_variable_wins(tmp_path, monkeypatch):
    monkeypatch.setenv(suites.HOME_ENV, str(tmp_path))
    assert suites.project_root() == tmp_path
    assert suites.scenarios_dir() == tmp_path / "scenarios" and suites.oracle_dir() == tmp_path / "oracle_data"
    assert suites.reports_dir() == tmp_path / "reports"


def test_a_checkout_reads_its_own_folders(no_home, tmp_path, monkeypatch):
    if not suites.is_checkout(suites.Path(suites.__file__).resolve().parents[2]):
        pytest.skip("running from an installed copy: no checkout around bench/")
    fake_site(tmp_path, monkeypatch)            # an installed data package does not shadow the checkout
    root = suites.project_root()
    assert (root / "bench" / "scenario" / "suites.py").is_file()
    assert suites.reports_dir() == root / "reports"


def test_an_installed_copy_reads_the_data_package_and_writes_reports_to_the_working_directory(
        no_home, tmp_path, monkeypatch):
    data = fake_site(tmp_path, monkeypatch)
    monkeypatch.setattr(suites, "is_checkout", lambda root: False)
    monkeypatch.chdir(tmp_path)
    assert suites.project_root() == data
    assert suites.suites() == {"default": []}
    assert suites.reports_dir() == tmp_path / "reports"


def test_no_data_anywhere_is_a_clear_error(no_home, monkeypatch):
    monkeypatch.setattr(suites, "is_checkout", lambda root: False)
    monkeypatch.setattr(suites, "installed_data", lambda: None)
    with pytest.raises(ScenarioError, match="CODEMEM_BENCH_HOME"):
        suites.project_root()
