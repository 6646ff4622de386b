"""Tool profiles (`--tools`): each lists its modules' tools; the default `core` is a fraction of `all`."""
from __future__ import annotations

import json

import pytest

from reference.mcp_server.cli import add_arguments, config_from_args
from reference.mcp_server.profiles import DEFAULT_PROFILE, PROFILES, modules_for
from tests.reference.mcp_server.conftest import open_server
from tests.reference.mcp_server.test_tool_listing import EXPECTED, HARNESS

CORE = {"memory_write_structured", "memory_search_structured", "memory_get", "memory_list_structured",
        "memory_status"}   # issue 25: which records are damaged


def listed(tmp_path, tools: str, clock: str = "logical:0") -> tuple[set[str], int]:
    """(tool names, characters of the tools/list answer) of a server with profile `tools`."""
    ctx, mcp = open_server(tmp_path / tools.replace(",", "_"), tools=tools, clock=clock)
    try:
        tools_ = mcp.tools()
        size = len(json.dumps({"tools": [t.model_dump(by_alias=True, exclude_none=True) for t in tools_]}))
        return {t.name for t in tools_}, size
    finally:
        mcp.close()
        ctx.close()


def test_core_is_the_seed_memory_tools_and_a_fraction_of_all(tmp_path):
    core, core_chars = listed(tmp_path, "core", clock="system")
    every, all_chars = listed(tmp_path, "all", clock="system")
    assert core == CORE
    assert every == set(EXPECTED)
    assert core_chars < 0.2 * all_chars, (core_chars, all_chars)


@pytest.mark.parametrize("profile, some, none", [
    ("memory", {"memory_write", "memory_list_threads", "memory_get", "memory_write_batch"}, {"graph_put_node"}),
    ("code", {"jit_search", "pattern_scan"}, {"memory_get"}),
    ("graph", {"graph_put_node", "policy_put", "snapshot_get_node"}, {"oracle_search"}),
    ("knowledge", {"oracle_search", "oracle_learn"}, {"memory_get"}),
    ("lane", {"memory-lane_store", "memory-lane_inject"}, {"memory_get"}),
    ("project", {"project_memory_search", "project_stats"}, {"memory_get"}),
])
def test_each_profile_lists_its_tools(tmp_path, profile, some, none):
    names, _ = listed(tmp_path, profile, clock="system")
    assert some <= names and not none & names
    assert not any(n.startswith("_harness") for n in names)


def test_profiles_combine_and_every_tool_is_in_some_profile(tmp_path):
    names, _ = listed(tmp_path, "core,graph", clock="system")
    assert CORE <= names and "graph_get_out" in names and "oracle_search" not in names
    assert modules_for("graph,core") == modules_for("core,graph")
    assert set().union(*(modules_for(p) for p in PROFILES if p != "all")) == set(modules_for("all"))


def test_harness_tools_come_with_a_logical_clock_only(tmp_path):
    names, _ = listed(tmp_path, "core", clock="logical:5")
    assert names == CORE | set(HARNESS)
    names, _ = listed(tmp_path, "core", clock="system")
    assert names == CORE


def test_the_command_line_defaults_to_core_and_rejects_unknown_profiles(tmp_path):
    import argparse

    p = argparse.ArgumentParser()
    add_arguments(p)
    assert config_from_args(p.parse_args(["--data", str(tmp_path)])).tools == DEFAULT_PROFILE == "core"
    assert config_from_args(p.parse_args(["--data", str(tmp_path), "--tools", "core,lane"])).tools == "core,lane"
    with pytest.raises(ValueError, match=r"--tools: unknown profile 'nope'.*core, memory"):
        config_from_args(p.parse_args(["--data", str(tmp_path), "--tools", "core,nope"]))
    with pytest.raises(ValueError) as bad:
        modules_for("x" * 10_000)
    assert len(str(bad.value)) < 200
