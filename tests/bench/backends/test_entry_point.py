"""A backend that a third-party distribution registers under the entry point group is found and passes the contract."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bench.backends import create_backend
from bench.backends.registry import ENTRY_POINT_GROUP, available_backends, backend_class

ROOT = Path(__file__).resolve().parents[3]

PLUGIN = '''
"""A third-party backend: jsonl-graph's store under another name."""
from bench.backends.jsonl_graph.backend import JsonlGraphBackend


class DemoBackend(JsonlGraphBackend):
    name = "demo-store"


class NotABackend:
    pass
'''


def install_plugin(site: Path, entry_points: str) -> None:
    """A module and the dist-info an installer would write for it."""
    site.mkdir()
    (site / "demo_plugin.py").write_text(PLUGIN)
    dist = site / "demo_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: demo-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{textwrap.dedent(entry_points)}")


@pytest.fixture
def site(tmp_path, monkeypatch):
    site = tmp_path / "site"
    install_plugin(site, "demo-store = demo_plugin:DemoBackend\nbroken = demo_plugin:NotABackend\n")
    monkeypatch.syspath_prepend(str(site))
    yield site
    sys.modules.pop("demo_plugin", None)


def test_entry_point_backend_is_listed_and_created(site):
    names = available_backends()
    assert "demo-store" in names and names.index("demo-store") > names.index("reference")
    backend = create_backend("demo-store")
    assert type(backend).__module__ == "demo_plugin" and backend.label == "demo-store"


def test_entry_point_to_a_non_backend_is_a_clear_error(site):
    with pytest.raises(TypeError, match="NotABackend is not a subclass"):
        backend_class("broken")


@pytest.mark.slow  # a second Python process running the contract suite: about 3 s of CPU
def test_contract_suite_runs_against_the_plugin(tmp_path):
    site = tmp_path / "site"
    install_plugin(site, "demo-store = demo_plugin:DemoBackend\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]),
           "CODEMEM_BENCH_CONTRACT_BACKENDS": "demo-store"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "tests/contract"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "test_write_then_get_round_trips[demo-store] PASSED" in proc.stdout
