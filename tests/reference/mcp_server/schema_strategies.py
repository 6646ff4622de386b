"""Hypothesis strategies for a tool's arguments, drawn from its published JSON input schema.

`arguments(schema)` mixes calls that fit the schema (with values an agent is
likely to send: keys, slugs, paths, times) and calls that do not (a wrong
type, an unknown argument, an oversized or escaping value), so a fuzz run
exercises both the tools and their validation.
"""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

INTERESTING_STRINGS = [
    "", " ", "file:a.py", "file:src/a.py", "sym:src/a.py#f:function:1:9", "mem:00000000", "task:debug",
    "context:frontend", "insight:decision", "pat:secrets", "pat:security-smells", "feature:auth", "repo", "main",
    "rev:1", "ts:1736935800", "../x", "/etc/passwd", "~", "~/x", "..", ".", "**/*.py", "a" * 600, "\u0000",
    "é\u202e", "password=hunter2", "\ud800",   # a lone surrogate, as a JSON "\\ud800" escape decodes
]
JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2 ** 70), 2 ** 70),
                         st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20),
                         st.sampled_from(INTERESTING_STRINGS))
JSON = st.recursive(JSON_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                          st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                    max_leaves=12)
DEEP: Any = 1
for _ in range(20):
    DEEP = [DEEP]
OVERSIZED = st.sampled_from(["x" * 100_000, ["t"] * 5_000, {"k": "v" * 100_000}, 2 ** 80, DEEP])


def value(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values that fit `schema` (a subset of JSON Schema: what pydantic emits for the tools)."""
    if "$ref" in schema:
        return value(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    if "anyOf" in schema:
        return st.one_of([value(s, defs) for s in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "const" in schema:
        return st.just(schema["const"])
    kind = schema.get("type")
    if kind == "string":
        return st.one_of(st.text(max_size=schema.get("maxLength", 30)), st.sampled_from(INTERESTING_STRINGS))
    if kind == "integer":
        lo, hi = schema.get("minimum", -(2 ** 65)), schema.get("maximum", 2 ** 65)
        if "exclusiveMaximum" in schema:
            hi = schema["exclusiveMaximum"] - 1
        return st.one_of(st.integers(lo, hi), st.integers(max(lo, 0), min(hi, 20)) if lo <= 20 else st.just(lo))
    if kind == "number":
        return st.one_of(st.floats(schema.get("minimum"), schema.get("maximum"), allow_nan=False,
                                   allow_infinity=False),
                         st.sampled_from([0.0, 1_736_935_800.0, 1_736_940_000.0, 1e308, 2.0 ** 64]))
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(value(schema.get("items", {}), defs), max_size=4)
    if kind == "object" and "properties" in schema:
        return obj(schema, defs)
    return JSON


def obj(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    props = schema.get("properties", {})
    required = set(schema.get("required", ()))
    return st.fixed_dictionaries({k: value(v, defs) for k, v in props.items() if k in required},
                                 optional={k: value(v, defs) for k, v in props.items() if k not in required})


def arguments(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments for a tool: mostly schema-shaped, sometimes with one argument broken."""
    defs = schema.get("$defs", {})
    fitting = obj(schema, defs)
    names = sorted(schema.get("properties", {})) or ["x"]

    def broken(args: dict[str, Any], how: int, name: str, junk: Any) -> dict[str, Any]:
        out = dict(args)
        if how == 0:
            out[name] = junk                  # a wrong type, shape or size
        elif how == 1:
            out["unexpected_" + name] = junk  # an unknown argument
        else:
            out.pop(name, None)               # maybe a missing required one
        return out

    bad = st.one_of(st.builds(broken, fitting, st.integers(0, 2), st.sampled_from(names), JSON),
                    st.builds(broken, fitting, st.just(0), st.sampled_from(names), OVERSIZED))
    return st.one_of(fitting, fitting, bad)
