"""The adapter schema beyond memory: every interface operation mappable, typed reads, errors naming file and field.

The bad-adapter cases check a load error names the file and the `[ops.X].field` and stays short; the
end-to-end cases drive McpBackend's `value` and `none` kinds against `fake_server.py` (no peer needed).
The full mapping of this project's server is checked by the contract suite (`reference-mcp`).
"""
from pathlib import Path

import pytest

from bench.backends import Capability as C, create_backend
from bench.backends.interface import Backend
from bench.backends.mcp.adapter import load_adapter
from bench.backends.mcp.backend import McpBackend
from bench.backends.mcp.operations import NEEDS, OPERATIONS
from bench.backends.mcp.results import pick
from bench.backends.mcp.template import fill, placeholders
from reference.clock import LogicalClock
from reference.telemetry import ListSink

FAKE = Path(__file__).with_name("fake_server.py")

BASE = f"""
name = "{{name}}"
description = "fake_server.py behind graph and policy operations"
capabilities = ["memory.write"]
[server]
command = "{{{{python}}}}"
args = ["{FAKE}", "{{{{data}}}}"]
[ops.write_memory]
tool = "put"
args = {{{{ name = "{{{{uid}}}}", text = "{{{{text}}}}" }}}}
id = "arg('uid')"
[ops.graph_put_node]
tool = "put"
args = {{{{ name = "{{{{id}}}}", text = "{{{{type}}}}" }}}}
[ops.policy_list]
tool = "find"
args = {{{{ query = "{{{{namespace}}}}" }}}}
result = "from_items(entities[*].[name, observations[0]])"
[ops.graph_get_out]
tool = "find"
args = {{{{ query = "{{{{src}}}}", at = "{{{{at?}}}}" }}}}
result = "@"
"""


def _write(tmp_path, text, name="bad"):
    path = tmp_path / f"{name}.toml"
    path.write_text(text.format(name=name))
    return path


@pytest.mark.parametrize("edit, field", [
    (lambda s: s + '[ops.graph_frobnicate]\ntool = "x"\n', r"\[ops.graph_frobnicate\]: not an operation"),
    (lambda s: s.replace('result = "@"', 'hits = "@"'), r"\[ops.graph_get_out\].hits: not read by graph_get_out"),
    (lambda s: s + '[ops.code_search]\ntool = "x"\n', r"\[ops.code_search\].hits: code_search needs it"),
    (lambda s: s.replace('result = "@"', 'result = "entities[?"'), r"\[ops.graph_get_out\].result: JMESPath"),
    (lambda s: s.replace('"{{src}}"', '"{{source}}"'), r"\[ops.graph_get_out\].args: \{source\} is not an argument"),
    (lambda s: s.replace('result = "@"', 'result = "@"\nnot_found = "gone"'),
     r"\[ops.graph_get_out\].not_found: graph_get_out cannot answer"),
    (lambda s: s.replace('["memory.write"]', '["memory.write", "graph"]'), r"capability 'graph' needs \[ops.graph_get_node\]"),
    (lambda s: s.replace('capabilities', 'nondeterministic = "varies"\ncapabilities'), r"need a \[gate\] table"),
    (lambda s: s + '[gate]\nmin_effect = 2\nlatency = false\nwhy = "x"\n', r"gate.min_effect"),
])
def test_a_bad_operation_mapping_names_file_and_field(tmp_path, edit, field):
    path = _write(tmp_path, edit(BASE))
    with pytest.raises(ValueError, match=field) as info:
        load_adapter(path)
    message = str(info.value)
    assert message.startswith(str(path)) and len(message) < len(str(path)) + 240


def test_every_capability_is_mappable_and_every_operation_is_a_method_of_the_backend():
    assert set(NEEDS) == set(C)
    for cap, ops in NEEDS.items():
        assert set(ops) <= set(OPERATIONS), cap
    for name, op in OPERATIONS.items():
        assert getattr(McpBackend, name) is not getattr(Backend, name, None)
    # the placeholders are the interface's parameter names (plus the harness-made ones)
    assert OPERATIONS["graph_get_out"].params == ("src", "rel", "at")
    assert OPERATIONS["write_memory"].params[-2:] == ("uid", "labels") and "id" in OPERATIONS["get_memory"].params
    assert OPERATIONS["project_stats"].params == ()


def test_the_reference_adapter_maps_every_operation_of_what_it_declares():
    adapter = load_adapter("reference")
    needed = {op for cap in adapter.capabilities for op in NEEDS[cap]}
    assert needed <= set(adapter.ops) and len(needed) > 40
    # the two the seeds do not serve stay undeclared, and nothing maps them
    assert C.KEYWORD_SEARCH not in adapter.capabilities and "keyword_search" not in adapter.ops
    assert create_backend("reference-mcp").label == "reference-mcp"


def test_helper_functions_build_what_jmespath_cannot():
    rows = [{"key": "b", "payload": 2}, {"key": "a", "payload": {"x": 1}}]
    assert pick("from_items([*].[key, payload])", rows, where="w") == {"b": 2, "a": {"x": 1}}
    edges = [{"rel": "uses", "dst": "n2"}, {"rel": "calls", "dst": "n9"}, {"rel": "calls", "dst": "n1"}]
    assert pick("sorted([*].[rel, dst])", edges, where="w") == [["calls", "n1"], ["calls", "n9"], ["uses", "n2"]]
    found = [{"id": "m1", "matches": [{"pattern_index": 10}, {"pattern_index": 2}, {"pattern_index": 10}]}]
    expr = "from_items([*].[id, map(&to_string(@), sort(unique(matches[*].pattern_index)))])"
    assert pick(expr, found, where="w") == {"m1": ["2", "10"]}
    with pytest.raises(ValueError, match="w: from_items"):
        pick("from_items([[`1`, `2`]])", [], where="w")


def test_a_table_of_optional_values_all_absent_is_left_out():
    template = {"q": "{query}", "window": {"after": "{after?}", "before": "{before?}"}}
    assert fill(template, {"query": "x", "after": None, "before": None}) == {"q": "x"}
    assert fill(template, {"query": "x", "after": 5, "before": None}) == {"q": "x", "window": {"after": 5}}
    assert fill({"keep": {}}, {}) == {"keep": {}}   # a table written empty stays
    assert placeholders(template) == {"query", "after", "before"}


def test_value_and_none_operations_round_trip_through_a_server(tmp_path, monkeypatch):
    (tmp_path / "adapters").mkdir()
    _write(tmp_path / "adapters", BASE, name="fakegraph")
    monkeypatch.setenv("CODEMEM_BENCH_ADAPTERS", str(tmp_path / "adapters"))
    backend = create_backend("mcp:fakegraph")
    backend.open(tmp_path / "store", LogicalClock(1_700_000_000), ListSink())
    try:
        assert backend.graph_put_node("ns:a", "decision") is None
        assert backend.graph_put_node("ns:b", "constraint", payload={"ignored": True}) is None
        assert backend.policy_list("repo", "ns:") == {"ns:a": "decision", "ns:b": "constraint"}
        assert backend.policy_list("repo", "nothing-matches") == {}
        # graph_get_out must give a list; the fake answers an object: a typed error naming file and field
        with pytest.raises(ValueError, match=r"fakegraph.toml: \[ops.graph_get_out\].result: expected a list, got dict"):
            backend.graph_get_out("ns:a")
        with pytest.raises(NotImplementedError, match=r"no \[ops.graph_get_node\]"):
            backend.graph_get_node("ns:a")
    finally:
        backend.close()
