"""The adapter language's features for servers that answer in plain text or need a local model:
`regex`/`regex_all`/`split`, `{labels}`, `[server] links`, `[install] models` / `sqlite_extensions`, and the
mcp-memory-service adapter that needed them (no server: the file and the functions; the real server is
driven by `test_mcp_memory_service.py` when it is installed)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from bench.backends import Capability as C
from bench.backends.mcp.adapter import load_adapter
from bench.backends.mcp.operations import labels
from bench.backends.mcp.peers import PeerNotInstalled, find_python, make_links, require_installed
from bench.backends.mcp.results import pick

HASH = "5e15808bb5439844da8eb48645aa68af2a404a053798ab018707596d17ab2c47"
OTHER = "7116696335cfe110889e4a4bf6b24df284749f115fa4b2894631781252dcb2a2"
SEARCH_ANSWER = {"text": (
    "Found 2 memories (mode: semantic) for query: 'renew login token'\n\n"
    f"1. refresh the auth token before it expires\n   Hash: {HASH}\n   Created: 2026-11-27T14:15:25Z [task:debug]\n\n"
    f"2. billing invoices: see Hash: in the docs\n   Hash: {OTHER}\n   Created: 2026-11-27T14:15:26Z [untagged]")}


def test_regex_takes_the_first_group_or_the_match_and_null_when_none():
    stored = {"text": f"Memory stored successfully (hash: {HASH})"}
    assert pick(r"regex(text, '^Memory stored successfully \(hash: ([0-9a-f]{64})\)')", stored, where="t") == HASH
    assert pick(r"regex(text, '[0-9a-f]{8}')", stored, where="t") == HASH[:8]
    refused = {"text": f"Error storing memory: Duplicate content detected (semantically similar to {HASH})"}
    assert pick(r"regex(text, '^Memory stored successfully \(hash: ([0-9a-f]{64})\)')", refused, where="t") is None
    assert pick("regex(missing, 'x')", {}, where="t") is None


def test_regex_all_keeps_the_order_and_is_anchored_per_line():
    expr = r"regex_all(text, '^\s*Hash: ([0-9a-f]{64})\s*$')"
    assert pick(expr, SEARCH_ANSWER, where="t") == [HASH, OTHER]   # "see Hash: in the docs" is not a Hash line
    assert pick(expr, {"text": "No memories found for query: 'x'"}, where="t") == []


def test_split_drops_empty_pieces_and_refuses_an_empty_separator():
    assert pick("split(text, ',')", {"text": "a,,b,"}, where="t") == ["a", "b"]
    with pytest.raises(ValueError, match="separator must not be empty"):
        pick("split(text, '')", {"text": "a"}, where="t")


def test_a_bad_pattern_is_an_error_naming_the_field():
    with pytest.raises(ValueError, match=r"\[ops.x\].hits: regular expression"):
        pick("regex(text, '(')", {"text": "a"}, where="[ops.x].hits")


def test_labels_are_the_taxonomy_as_tags_and_none_when_empty():
    assert labels({"task": "task:debug", "context": ["context:auth"], "insights": ["insight:pitfall"],
                   "tags": ["wip"]}) == ["task:debug", "context:auth", "insight:pitfall", "tag:wip"]
    assert labels({"task": None, "context": None, "insights": [], "tags": None}) is None
    with pytest.raises(ValueError, match="task:nope"):
        labels({"task": "task:nope"})
    with pytest.raises(ValueError, match="must be a list"):
        labels({"context": "context:auth"})


def test_links_point_into_the_models_folder_and_stay_under_the_store(tmp_path):
    target = tmp_path / "models" / "m"
    target.mkdir(parents=True)
    values = {"data": str(tmp_path / "d"), "side": str(tmp_path / "s"), "models": str(tmp_path / "models")}
    make_links({"{side}/home/.cache/x/onnx": "{models}/m"}, values)
    link = tmp_path / "s" / "home" / ".cache" / "x" / "onnx"
    assert link.is_symlink() and link.resolve() == target.resolve()
    make_links({"{side}/home/.cache/x/onnx": "{models}/m"}, values)   # a reopen replaces it
    with pytest.raises(ValueError, match="outside the data and side folders"):
        make_links({"{models}/elsewhere": "{models}/m"}, values)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        make_links({"{data}/y": "{models}/absent"}, values)


def test_find_python_with_sqlite_extensions_returns_one_that_loads_them():
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    try:
        exe = find_python(version, sqlite_extensions=True)
    except RuntimeError as exc:
        assert "whose sqlite3 can load extensions" in str(exc) and "apt-get install" in str(exc)
        return
    import subprocess
    check = "import sqlite3; sqlite3.connect(':memory:').enable_load_extension(True)"
    assert subprocess.run([exe, "-c", check]).returncode == 0


def test_mcp_memory_service_declares_what_its_tools_do():
    a = load_adapter("mcp-memory-service")
    assert set(a.capabilities) == {C.MEMORY_WRITE, C.MEMORY_SEARCH, C.MEMORY_FILTERS, C.MEMORY_DELETE}
    assert a.install.pip == "mcp-memory-service[sqlite]==12.4.0" and a.install.sqlite_extensions
    assert a.install.models == ["minilm"]
    env = a.server.env
    assert env["MCP_MEMORY_BASE_DIR"] == "{data}" and env["HOME"].startswith("{side}")
    assert env["MCP_MEMORY_ONNX_ALLOW_DOWNLOAD"] == "0" and env["MCP_MEMORY_USE_ONNX"] == "1"
    assert list(a.server.links.values()) == ["{models}/all-MiniLM-L6-v2"]
    write, search = a.ops["write_memory"], a.ops["search_memories"]
    assert write.args["metadata"]["tags"] == "{labels?}" and "tags" not in write.args   # top-level tags are ignored
    assert search.args["tags"] == "{labels?}" and search.args["tag_match"] == "all"
    assert pick(search.hits, SEARCH_ANSWER, where="t") == [HASH, OTHER]
    assert pick(write.id, {"text": f"Memory stored successfully (hash: {HASH})"}, where="t") == HASH
    deleted = a.ops["delete_memory"].deleted
    assert pick(deleted, {"text": f"Successfully deleted memory {HASH}\n\nDeleted 1 memories"}, where="t") is True
    assert pick(deleted, {"text": f"Error: Memory with hash {HASH} not found"}, where="t") is False
    for why in ("memory.get", "memory.list", "deduplication"):
        assert why in a.why


def test_a_missing_model_makes_the_peer_not_installed(tmp_path, monkeypatch):
    monkeypatch.setenv("CODEMEM_BENCH_PEERS", str(tmp_path / "peers"))
    monkeypatch.setenv("CODEMEM_MODELS", str(tmp_path / "models"))
    a = load_adapter("mcp-memory-service")
    (tmp_path / "peers" / a.name / "venv" / "bin").mkdir(parents=True)
    (tmp_path / "peers" / a.name / "venv" / "bin" / "memory").write_text("")
    with pytest.raises(PeerNotInstalled, match="codemem-bench models install minilm"):
        require_installed(a)


def test_without_an_extension_capable_python_the_venv_gets_pysqlite3(monkeypatch, tmp_path):
    from bench.backends.mcp import peers
    monkeypatch.setenv("CODEMEM_BENCH_PEERS", str(tmp_path))

    def fake_find(version, sqlite_extensions=False):
        if sqlite_extensions:
            raise RuntimeError("none")
        return f"/opt/python{version}"

    monkeypatch.setattr(peers, "find_python", fake_find)
    cmds = peers.install_commands(load_adapter("basic-memory-semantic"))
    assert cmds[0][0] == "/opt/python3.12"
    assert any(peers.SQLITE3_SHIM in c for c in cmds)
    assert "codemem_bench_sqlite3.pth" in cmds[-1][-1] and "sys.modules['sqlite3'] = pysqlite3" in cmds[-1][-1]
    monkeypatch.setattr(peers, "find_python", lambda v, sqlite_extensions=False: "/usr/bin/python" + v)
    assert not any(peers.SQLITE3_SHIM in c for c in peers.install_commands(load_adapter("basic-memory-semantic")))


def test_the_shim_makes_sqlite3_load_extensions_in_the_installed_peer():
    import subprocess
    a = load_adapter("basic-memory-semantic")
    from bench.backends.mcp.peers import SQLITE_EXTENSIONS_CHECK, is_installed, peer_dir
    if not is_installed(a):
        pytest.skip("basic-memory-semantic is not installed: codemem-bench peers install basic-memory-semantic")
    py = peer_dir(a) / "venv" / "bin" / "python"
    assert subprocess.run([str(py), "-c", SQLITE_EXTENSIONS_CHECK]).returncode == 0
