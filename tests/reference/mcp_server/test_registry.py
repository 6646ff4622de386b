"""`ToolRegistry`: strict arguments, error translation, descriptions, module registration."""
from __future__ import annotations

from typing import Any

import pytest
from mcp.server.mcpserver import MCPServer

from reference.errors import NotFound
from reference.mcp_server.registry import ArgumentError, ToolRegistry, argument
from reference.mcp_server.server import register_tools
from tests.reference.mcp_server.conftest import SyncClient


def _server() -> tuple[SyncClient, list[int]]:
    registry = ToolRegistry()
    calls: list[int] = []

    @registry.tool(routing="Use when:\n- testing")
    def echo(n: int, label: str = "x") -> dict[str, Any]:
        """Echo the arguments."""
        calls.append(n)
        return {"n": n, "label": label}

    @registry.tool()
    def crash() -> str:
        """Fails like a bug would."""
        return {}["missing"]      # a KeyError from inside the tool

    @registry.tool()
    def bug() -> str:
        """Raises something no caller could have provoked."""
        raise RuntimeError("disk on fire")

    @registry.tool()
    def missing(key: str) -> str:
        """Raises a store error."""
        raise NotFound(f"no item {key!r}")

    @registry.tool()
    def checked(when: str) -> str:
        """Validates an argument."""
        with argument("when"):
            raise ValueError("not a date")

    return SyncClient(MCPServer("t", tools=registry.tools)), calls


def test_errors_become_tool_errors_and_the_server_keeps_serving():
    client, calls = _server()
    try:
        assert "disk on fire" in client.error("bug") and "internal error (RuntimeError)" in client.error("bug")
        assert client.error("missing", key="k") == "Error executing tool missing: no item 'k'"
        assert client.error("checked", when="soon") == "Error executing tool checked: argument 'when': not a date"
        assert "missing" in client.error("crash")
        assert client.call("echo", n=3) == {"n": 3, "label": "x"}
        assert calls == [3]
    finally:
        client.close()


@pytest.mark.parametrize("args, field", [({"n": "3"}, "n"), ({"n": 3.0}, "n"), ({"n": True}, "n"),
                                         ({"n": 1, "lable": "typo"}, "lable"), ({}, "n")])
def test_arguments_are_strict_and_unknown_ones_refused(args, field):
    client, calls = _server()
    try:
        assert field in client.error("echo", **args)
        assert calls == []
    finally:
        client.close()


def test_description_is_docstring_then_routing_and_schema_is_closed():
    client, _ = _server()
    try:
        echo = next(t for t in client.tools() if t.name == "echo")
        assert echo.description == "Echo the arguments.\n\nUse when:\n- testing"
        assert echo.input_schema["additionalProperties"] is False
        assert echo.input_schema["required"] == ["n"]
    finally:
        client.close()


def test_a_name_registered_twice_is_refused():
    registry = ToolRegistry()
    registry.add(lambda: 1, name="one")
    with pytest.raises(ValueError, match="'one' is registered twice"):
        registry.add(lambda: 2, name="one")


def test_argument_error_names_the_argument():
    assert str(ArgumentError("top_k", "must be positive")) == "argument 'top_k': must be positive"


def test_modules_whose_area_is_unavailable_are_skipped(served):
    ctx, _ = served
    names = register_tools(ctx, ["memory", "harness"]).names()
    assert "memory_get" in names and "_harness_set_clock" in names
    ctx.clock._logical = None            # a wall-clock server: the harness module says it is unavailable
    assert register_tools(ctx, ["memory", "harness"]).names() == [
        "memory_write_structured", "memory_search_structured", "memory_get", "memory_list_structured",
        "memory_status"]
