"""Short error texts: a tool error never echoes a huge argument.

`validation_text(exc)` turns a pydantic `ValidationError` (which lists every
failing item, each with its input) into one line naming at most
`SHOWN_ERRORS` locations, each with the input's type, size and a short prefix,
plus the number of the others. `clip(text)` bounds any message to
`MAX_ERROR_CHARS`. The server applies both to every failed call.
"""
from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from reference.path_policy import quote

MAX_ERROR_CHARS = 1_000
SHOWN_ERRORS = 3
PREFIX_CHARS = 80


def clip(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """`text`, cut to `limit` characters with a note of how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more characters)"


def describe_input(value: Any) -> str:
    """A short account of a rejected input: its JSON type, size and a prefix."""
    if isinstance(value, str):
        return f"string {quote(value, PREFIX_CHARS)}"
    if isinstance(value, (list, tuple)):
        return f"list of {len(value):,} items"
    if isinstance(value, dict):
        keys = ", ".join(quote(str(k), 20) for k in list(value)[:3])
        return f"object with {len(value):,} keys ({keys}{', ...' if len(value) > 3 else ''})"
    return f"{type(value).__name__} {quote(repr(value), PREFIX_CHARS)}"


def validation_text(exc: ValidationError) -> str:
    """One line for a failed argument validation: count, first locations, messages and inputs."""
    errors = exc.errors(include_url=False)
    parts = []
    for err in errors[:SHOWN_ERRORS]:
        loc = ".".join(str(p)[:40] for p in err.get("loc", ())) or "arguments"
        msg = clip(str(err.get("msg", "invalid")), 200)
        part = f"argument {loc!r}: {msg}"
        if err.get("type") != "missing":
            part += f" (got {describe_input(err.get('input'))})"
        parts.append(part)
    more = len(errors) - len(parts)
    head = f"{len(errors):,} invalid argument{'s' if len(errors) != 1 else ''}: "
    return head + "; ".join(parts) + (f"; and {more:,} more" if more > 0 else "")
