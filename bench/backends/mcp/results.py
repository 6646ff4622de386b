"""Read a tool's answer: unwrap it to plain JSON, then pick values out of it with JMESPath."""
from __future__ import annotations

import json
from typing import Any

import jmespath
from jmespath import functions
from jmespath.exceptions import JMESPathError

from reference.errors import StoreError


class McpToolError(StoreError, ValueError):
    """The server answered a call with an error; the text is the server's."""


def unwrap(result: Any, tool: str) -> Any:
    """The answer of a `tools/call` as JSON: structured content, else its text parsed as JSON, else the text."""
    if result.is_error:
        text = " ".join(getattr(c, "text", "") for c in result.content).strip()
        raise McpToolError(f"{tool}: {text[:300] or 'failed'}")
    out = result.structured_content
    if out is None:
        text = "".join(getattr(c, "text", "") for c in result.content)
        try:
            out = json.loads(text)
        except ValueError:
            return {"text": text}
    # FastMCP-style servers wrap a non-object answer as {"result": ...}
    if isinstance(out, dict) and set(out) == {"result"}:
        out = out["result"]
        if isinstance(out, str):
            try:
                out = json.loads(out)
            except ValueError:
                pass
    return out


class _Functions(functions.Functions):
    """JMESPath's built-ins plus `trim(s)`: servers often pad text with newlines."""

    @functions.signature({"types": ["string", "null"]})
    def _func_trim(self, s):
        return None if s is None else s.strip()


_OPTIONS = jmespath.Options(custom_functions=_Functions())


def pick(expression: str, value: Any, *, where: str) -> Any:
    """Evaluate a JMESPath expression; a bad expression is an error naming the adapter field."""
    try:
        return jmespath.search(expression, value, options=_OPTIONS)
    except JMESPathError as exc:
        raise ValueError(f"{where}: JMESPath {expression!r}: {exc}") from None
