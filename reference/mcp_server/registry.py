"""`ToolRegistry`: how tool modules declare tools, with strict arguments and clear errors.

    def register(server: ToolRegistry, ctx: ServerContext) -> None:
        @server.tool(routing=ROUTING["memory_get"])
        def memory_get(memory_id: str) -> dict[str, Any] | None:
            '''Retrieve a specific memory entry by ID.'''
            ...

Every tool registered here:
- rejects unknown arguments and wrong JSON types (pydantic strict mode, no
  "7" for 7, no true for 1), so the client gets an error naming the argument
  instead of a silently ignored or coerced value; the input schema says
  `additionalProperties: false`;
- turns any exception into an MCP tool error (`isError`) whose text says what
  went wrong; store errors keep their own message, anything unexpected is
  logged with its traceback and reported with its type. The server never dies
  of a bad call.
"""
from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.shared.exceptions import MCPError
from pydantic import ConfigDict

from reference.errors import StoreError
from reference.mcp_server.tools.results import with_strings

log = logging.getLogger("reference.mcp_server")

F = TypeVar("F", bound=Callable[..., Any])

# Errors a caller provokes with bad input: reported with their message only.
EXPECTED = (StoreError, ValueError, TypeError, KeyError, LookupError, OSError)


class ArgumentError(StoreError, ValueError):
    """A tool argument is wrong; the message starts with the argument's name."""

    def __init__(self, argument: str, message: str) -> None:
        super().__init__(f"argument {argument!r}: {message}")
        self.argument = argument


@contextmanager
def argument(name: str) -> Iterator[None]:
    """Re-raise a validation error from the block as an `ArgumentError` naming `name`."""
    try:
        yield
    except ArgumentError:
        raise
    except (StoreError, ValueError, TypeError) as exc:
        raise ArgumentError(name, _message(exc)) from exc


def _message(exc: BaseException) -> str:
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return text or type(exc).__name__


def _translated(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` with every failure raised as a `ToolError` carrying a readable message."""

    @functools.wraps(fn)
    def call(**kwargs: Any) -> Any:
        try:
            return with_strings(fn(**kwargs))
        except (ToolError, MCPError):
            raise
        except EXPECTED as exc:
            raise ToolError(_message(exc)) from exc
        except Exception as exc:  # a bug, not bad input: keep the server alive, log the traceback
            log.exception("tool %s failed unexpectedly", name)
            raise ToolError(f"internal error ({type(exc).__name__}): {_message(exc)}") from exc

    return call


def _strict(tool: Tool) -> Tool:
    """Forbid unknown arguments and type coercion; say so in the published input schema.

    The subclass only changes the config, so its schema is the base's plus
    `additionalProperties: false` (set directly: regenerating it costs as much
    as building the tool)."""
    base = tool.fn_metadata.arg_model
    model = type(base.__name__, (base,), {
        "model_config": ConfigDict(extra="forbid", strict=True, arbitrary_types_allowed=True),
        "__module__": base.__module__,
    })
    tool.fn_metadata.arg_model = model
    tool.parameters = _untitled({**tool.parameters, "additionalProperties": False})
    return tool


def _untitled(schema: dict[str, Any]) -> dict[str, Any]:
    """The input schema without pydantic's generated titles ("Top K" for `top_k`): they repeat the names
    and cost every agent context (about a tenth of `tools/list`)."""
    out = {k: v for k, v in schema.items() if k != "title"}
    if isinstance(out.get("properties"), dict):
        out["properties"] = {name: {k: v for k, v in prop.items() if k != "title"} if isinstance(prop, dict)
                             else prop for name, prop in out["properties"].items()}
    return out


def describe(fn: Callable[..., Any], routing: str | None) -> str:
    """The tool description: the function's docstring, then its routing guidance."""
    doc = inspect.cleandoc(fn.__doc__ or "")     # without the source's indentation
    if routing:
        doc = f"{doc}\n\n{routing.strip()}" if doc else routing.strip()
    return doc


_TEMPLATES: dict[tuple, Tool] = {}


class ToolRegistry:
    """Collects tools from the tool modules; `tools` feeds `MCPServer(tools=...)`."""

    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}

    def tool(self, name: str | None = None, *, routing: str | None = None,
             structured_output: bool | None = None) -> Callable[[F], F]:
        """Decorator: register `fn` as a tool named `name` (default: the function's name)."""

        def deco(fn: F) -> F:
            self.add(fn, name=name, routing=routing, structured_output=structured_output)
            return fn

        return deco

    def add(self, fn: Callable[..., Any], *, name: str | None = None, routing: str | None = None,
            structured_output: bool | None = None) -> Tool:
        tool_name = name or fn.__name__
        if tool_name in self._tools:
            raise ValueError(f"tool {tool_name!r} is registered twice")
        description = describe(fn, routing)
        # Building the argument and output models dominates server start-up; a tool module's
        # functions have the same signature in every server, so build them once per process.
        key = (fn.__module__, fn.__qualname__, fn.__code__, tool_name, description, structured_output)
        template = _TEMPLATES.get(key)
        if template is None:
            template = _TEMPLATES[key] = _strict(Tool.from_function(
                fn, name=tool_name, description=description, structured_output=structured_output))
        tool = template.model_copy(update={"fn": _translated(tool_name, fn)})
        self._tools[tool_name] = tool
        return tool

    @property
    def tools(self) -> list[Tool]:
        return list(self._tools.values())

    def names(self) -> list[str]:
        return list(self._tools)
