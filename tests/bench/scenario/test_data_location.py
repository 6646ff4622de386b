"""Where the scenarios are found: CODEMEM_BENCH_HOME, a checkout, or the data a wheel installs."""
import pytest

from bench.scenario import home, suites
from bench.scenario.loader import ScenarioError


@pytest.fixture
def no_home(monkeypatch):
    monkeypatch.delenv(home.HOME_ENV, raising=False)


def fake_site(tmp_path, monkeypatch):
    data = tmp_path / "site" / home.DATA_PACKAGE
    (data / "scenarios").mkdir(parents=True)
    (data / "scenarios" / "suites.json").write_text('{"default": []}')
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    return data


def test_the_environment_variable_wins(tmp_path, monkeypatch):
    monkeypatch.setenv(home.HOME_ENV, str(tmp_path))
    assert home.project_root() == tmp_path
    assert suites.scenarios_dir() == tmp_path / "scenarios" and suites.oracle_dir() == tmp_path / "oracle_data"
    assert home.reports_dir() == tmp_path / "reports"


def test_a_checkout_reads_its_own_folders(no_home, tmp_path, monkeypatch):
    if not home.is_checkout(home.Path(home.__file__).resolve().parents[2]):
        pytest.skip("running from an installed copy: no checkout around bench/")
    fake_site(tmp_path, monkeypatch)            # an installed data package does not shadow the checkout
    root = home.project_root()
    assert (root / "bench" / "scenario" / "suites.py").is_file()
    assert home.reports_dir() == root / "reports"


def test_an_installed_copy_reads_the_data_package_and_writes_reports_to_the_working_directory(
        no_home, tmp_path, monkeypatch):
    data = fake_site(tmp_path, monkeypatch)
    monkeypatch.setattr(home, "is_checkout", lambda root: False)
    monkeypatch.chdir(tmp_path)
    assert home.project_root() == data
    assert suites.suites() == {"default": []}
    assert home.reports_dir() == tmp_path / "reports"


def test_no_data_anywhere_is_a_clear_error(no_home, monkeypatch):
    monkeypatch.setattr(home, "is_checkout", lambda root: False)
    monkeypatch.setattr(home, "installed_data", lambda: None)
    with pytest.raises(ScenarioError, match="CODEMEM_BENCH_HOME"):
        home.project_root()
