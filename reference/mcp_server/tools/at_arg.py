"""The `at` / `since` arguments of the graph and policy tools: a point in time.

JSON forms: a bare number is Unix seconds (what the harness's graph steps
pass; seed 003: `diff_since(ts)`), and the forms `reference.graph.At.parse`
reads: `{"rev": 12}`, `{"ts": 1736935800.0}`, `"rev:12"`, `"ts:1736935800"`.
A read at Unix time t sees every write stamped <= t. Times must lie in
`limits.MIN_TS..MAX_TS` and revisions in 0..2^32-1.
"""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from reference.mcp_server.limits import MAX_REV, check_time
from reference.mcp_server.registry import ArgumentError, argument

AtArg = Annotated[float | str | dict[str, int | float] | None, Field(
    description='Point in time to read at: Unix seconds, {"rev": N}, {"ts": x}, "rev:N" or "ts:X"; '
                'omit for the latest state')]
SinceArg = Annotated[float | str | dict[str, int | float], Field(
    description='Changes after this point: unix seconds, {"ts": x}, {"rev": n}, "ts:x" or "rev:n"')]


def parse_at(name: str, value: Any) -> Any:
    """An `At` (or None) from a tool argument; an error names the argument."""
    from reference.graph.at import At

    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = {"ts": value}
    with argument(name):
        at = At.parse(value)
    if at is not None and at.kind == "ts":
        check_time(name, at.value)
    elif at is not None and at.kind == "rev" and not (isinstance(at.value, int) and 0 <= at.value <= MAX_REV):
        raise ArgumentError(name, f"revision {str(at.value)[:40]} is outside 0..{MAX_REV}")
    return at
