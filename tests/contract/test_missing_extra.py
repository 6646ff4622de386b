"""A backend whose optional extra is missing shows in the contract run as a skip naming the install line."""
import sys

import pytest

from tests.contract import conftest


def _by_id(params):
    return {p.id: p for p in params}


def _skip_reason(param):
    marks = [m for m in param.marks if m.name == "skip"]
    return marks[0].kwargs["reason"] if marks else None


@pytest.mark.parametrize("module, backend_module, name, install", [
    ("chromadb", "bench.backends.chroma.backend", "chroma", "pip install 'codemem-bench[chroma]'"),
    ("sqlite_vec", "bench.backends.sqlite_vec.backend", "sqlite-vec", "codemem-bench[sqlite-vec]"),
])
def test_a_backend_whose_extra_is_missing_is_a_visible_skip(monkeypatch, module, backend_module, name, install):
    monkeypatch.delenv("CODEMEM_BENCH_CONTRACT_BACKENDS", raising=False)
    monkeypatch.setitem(sys.modules, module, None)          # `import <module>` now raises ImportError
    monkeypatch.delitem(sys.modules, backend_module, raising=False)
    params = _by_id(conftest.contract_params())
    assert name in params, f"{name} was dropped from the contract run"
    reason = _skip_reason(params[name])
    assert reason is not None and name in reason and install in reason
    assert _skip_reason(params["reference"]) is None and _skip_reason(params["fts-baseline"]) is None


def test_with_every_extra_installed_nothing_is_skipped_up_front(monkeypatch):
    monkeypatch.delenv("CODEMEM_BENCH_CONTRACT_BACKENDS", raising=False)
    pytest.importorskip("chromadb")
    pytest.importorskip("sqlite_vec")
    params = _by_id(conftest.contract_params())
    assert {"reference", "reference-mcp", "fts-baseline", "jsonl-graph", "chroma", "sqlite-vec"} <= set(params)
    # MCP peers are separate installs (`peers install`) and may be declared nondeterministic: their skips
    # are checked in the peer tests; every Python extra that is installed runs
    assert all(_skip_reason(p) is None for spec, p in params.items() if not spec.startswith("mcp:"))


@pytest.mark.parametrize("named", [False, True])
def test_a_peer_server_not_installed_is_a_visible_skip_however_it_is_named(monkeypatch, tmp_path, named):
    monkeypatch.setenv("CODEMEM_BENCH_PEERS", str(tmp_path))           # an empty peer folder
    if named:
        monkeypatch.setenv("CODEMEM_BENCH_CONTRACT_BACKENDS", "mcp:memory-libsql,reference")
    else:
        monkeypatch.delenv("CODEMEM_BENCH_CONTRACT_BACKENDS", raising=False)
    params = _by_id(conftest.contract_params())
    reason = _skip_reason(params["mcp:memory-libsql"])
    assert reason is not None and "codemem-bench peers install memory-libsql" in reason
    assert _skip_reason(params["reference"]) is None
