"""Read a tool's answer: unwrap it to plain JSON, then pick values out of it with JMESPath."""
from __future__ import annotations

import functools
import json
import re
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
        # a JSON document sent as a string; a plain string ("main", "42") stays a string
        if isinstance(out, str) and out.lstrip()[:1] in ("{", "["):
            try:
                out = json.loads(out)
            except ValueError:
                pass
    return out


class _Functions(functions.Functions):
    """JMESPath's built-ins plus `trim(s)` (servers often pad text with newlines), `arg(name)`, and
    `sorted(list)` (any JSON values, e.g. pairs), `unique(list)` (first of each, in order) and
    `from_items(pairs)` (an object from [key, value] pairs; JMESPath cannot build one with computed keys).
    For servers that answer in plain text: `regex(text, pattern)` (the first match: its first group if the
    pattern has one, else the whole match; null when none), `regex_all(text, pattern)` (every match, the
    same way, in order) and `split(text, separator)` (Python's `str.split`; empty pieces dropped).
    Patterns are Python regular expressions, multi-line (`^`/`$` match at every line).

    `arg('uid')` is the value the operation's template placeholder `{uid}` had in this call: for a server
    whose answer does not echo the name it was given (`id = "arg('uid')"`), or to pick the one entity a
    lookup asked for (`entities[?name == arg('id')] | [0]`).
    """

    def __init__(self, values: dict[str, Any] | None = None) -> None:
        super().__init__()
        self._values = values or {}

    @functions.signature({"types": ["string", "null"]})
    def _func_trim(self, s):
        return None if s is None else s.strip()

    @functions.signature({"types": ["array"]})
    def _func_sorted(self, items):
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True) if isinstance(v, (dict,)) else v)

    @functions.signature({"types": ["array"]})
    def _func_unique(self, items):
        out = []
        for v in items:
            if v not in out:
                out.append(v)
        return out

    @functions.signature({"types": ["array"]})
    def _func_from_items(self, pairs):
        if not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in pairs):
            raise _ExpressionError("from_items(): expects [key, value] pairs with string keys")
        return {k: v for k, v in pairs}

    @functions.signature({"types": ["string", "null"]}, {"types": ["string"]})
    def _func_regex(self, text, pattern):
        if text is None:
            return None
        m = _compiled(pattern).search(text)
        return None if m is None else (m.group(1) if m.re.groups else m.group(0))

    @functions.signature({"types": ["string", "null"]}, {"types": ["string"]})
    def _func_regex_all(self, text, pattern):
        if text is None:
            return []
        rx = _compiled(pattern)
        return [m.group(1) if rx.groups else m.group(0) for m in rx.finditer(text)]

    @functions.signature({"types": ["string", "null"]}, {"types": ["string"]})
    def _func_split(self, text, separator):
        if not separator:
            raise _ExpressionError("split(): the separator must not be empty")
        return [] if text is None else [p for p in text.split(separator) if p]

    @functions.signature({"types": ["string"]})
    def _func_arg(self, name):
        if name not in self._values:
            raise _ExpressionError(f"arg({name[:40]!r}): not an argument of this operation "
                              f"(known: {', '.join(sorted(self._values)) or 'none'})")
        return self._values[name]


class _ExpressionError(ValueError):
    pass


@functools.lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern:
    try:
        return re.compile(pattern, re.MULTILINE)
    except re.error as exc:
        raise _ExpressionError(f"regular expression {pattern[:60]!r}: {exc}") from None


def pick(expression: str, value: Any, *, where: str, values: dict[str, Any] | None = None) -> Any:
    """Evaluate a JMESPath expression (`arg(name)` reads `values`); a bad one is an error naming the field."""
    try:
        return jmespath.search(expression, value, options=jmespath.Options(custom_functions=_Functions(values)))
    except JMESPathError as exc:
        raise ValueError(f"{where}: JMESPath {expression!r}: {exc}") from None
    except _ExpressionError as exc:
        raise ValueError(f"{where}: {exc}") from None
    except TypeError as exc:   # e.g. sorted() over values of mixed types
        raise ValueError(f"{where}: JMESPath {expression[:80]!r}: {str(exc)[:120]}") from None
