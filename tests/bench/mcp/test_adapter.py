"""Adapter files: validation with file and field, the template rules, user folders, the install message."""
import pytest

from bench.backends.capabilities import Capability as C
from bench.backends.mcp.adapter import adapter_names, load_adapter
from bench.backends.mcp.peers import PeerNotInstalled, install_commands, is_installed, require_installed
from bench.backends.mcp.results import pick
from bench.backends.mcp.template import fill

MINIMAL = """
name = "{name}"
description = "a test server"
capabilities = ["memory.write", "memory.get"]
[server]
command = "{{python}}"
args = ["-m", "some.server", "--data", "{{data}}"]
[ops.write_memory]
tool = "put"
args = {{ body = "{{text}}", tags = "{{tags?}}" }}
id = "id"
[ops.get_memory]
tool = "get"
args = {{ key = "{{id}}" }}
record = "@"
"""


def test_every_builtin_adapter_loads_and_maps_what_it_declares():
    names = adapter_names()
    assert {"server-memory", "basic-memory", "reference"} <= set(names)
    for name in names:
        adapter = load_adapter(name)
        assert adapter.name == name and adapter.capabilities and adapter.why.strip()


def test_server_memory_declares_keyword_search_not_natural_language_search():
    adapter = load_adapter("server-memory")
    assert C.KEYWORD_SEARCH in adapter.capabilities and C.MEMORY_SEARCH not in adapter.capabilities
    assert C.MEMORY_FILTERS not in adapter.capabilities and C.POINT_IN_TIME not in adapter.capabilities


def test_user_folder_adds_an_adapter(tmp_path, monkeypatch):
    (tmp_path / "mine.toml").write_text(MINIMAL.format(name="mine"))
    monkeypatch.setenv("CODEMEM_BENCH_ADAPTERS", str(tmp_path))
    assert "mine" in adapter_names()
    assert load_adapter("mine").ops["write_memory"].tool == "put"


@pytest.mark.parametrize("edit, message", [
    (lambda s: s.replace('capabilities = ["memory.write", "memory.get"]',
                         'capabilities = ["memory.write", "memory.search"]'), r"memory.search.*ops.search_memories"),
    (lambda s: s.replace('tool = "put"', 'tool = 3'), r"ops.write_memory.tool"),
    (lambda s: s.replace('"memory.get"]', '"memory.nope"]'), r"capabilities"),
    (lambda s: s + "\nsurprise = 1\n", r"surprise"),
    (lambda s: s.replace('name = "bad"', 'name = "other"'), r"differs from the file name"),
    (lambda s: s + "\n[[broken", r"bad.toml"),
])
def test_a_bad_adapter_names_file_and_field(tmp_path, edit, message):
    path = tmp_path / "bad.toml"
    path.write_text(edit(MINIMAL.format(name="bad")))
    with pytest.raises(ValueError, match=message) as info:
        load_adapter(path)
    assert str(path) in str(info.value)


def test_unknown_adapter_lists_the_known_ones():
    with pytest.raises(ValueError, match="server-memory"):
        load_adapter("no-such-server")


def test_template_keeps_types_drops_optional_nones_and_formats_text():
    values = {"text": "hi", "tags": None, "top_k": 5, "uid": "m-1", "ctx": ["a", "b"]}
    got = fill({"q": "{text}", "k": "{top_k}", "t": "{tags?}", "c": "{ctx}", "title": "note {uid}",
                "nested": [{"x": "{tags?}", "y": "{top_k}"}], "keep": True}, values)
    assert got == {"q": "hi", "k": 5, "c": ["a", "b"], "title": "note m-1", "nested": [{"y": 5}], "keep": True}
    with pytest.raises(ValueError, match=r"\{nope\}"):
        fill({"a": "{nope}"}, values)


def test_pick_reads_jmespath_and_trims():
    answer = {"results": [{"permalink": "a", "content": "\n text \n"}, {"permalink": "b", "content": None}]}
    assert pick("results[*].permalink", answer, where="w") == ["a", "b"]
    assert pick("results[0].{id: permalink, text: trim(content)}", answer, where="w") == {"id": "a", "text": "text"}
    with pytest.raises(ValueError, match="w: JMESPath"):
        pick("results[", answer, where="w")


def test_missing_peer_names_the_install_command(tmp_path, monkeypatch):
    monkeypatch.setenv("CODEMEM_BENCH_PEERS", str(tmp_path))
    adapter = load_adapter("server-memory")
    assert not is_installed(adapter)
    with pytest.raises(PeerNotInstalled, match="codemem-bench peers install server-memory"):
        require_installed(adapter)
    cmd = install_commands(adapter)[0]
    assert cmd[:2] == ["npm", "install"] and str(tmp_path / "server-memory") in cmd
    assert is_installed(load_adapter("reference")) and install_commands(load_adapter("reference")) == []
