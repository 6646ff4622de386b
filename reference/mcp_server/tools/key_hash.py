"""Key hashes (u64) for JavaScript clients: results give them also as strings, arguments take either form.

A JSON number above 2^53 loses precision in JavaScript (`JSON.parse`), and a
key hash is a u64. Results get `<field>_str` siblings (`results.with_strings`,
applied to every tool's result by the registry); arguments that take a key hash
accept the decimal string (`"18446744073709551615"`) as well as the number.
"""
from __future__ import annotations

from reference.mcp_server.registry import ArgumentError

U64 = 1 << 64


def parse(value: int | str, argument: str) -> int:
    """A key hash argument as an int; an `ArgumentError` naming `argument` unless it is a u64."""
    if isinstance(value, str):
        text = value.strip()
        if not text.isascii() or not text.isdigit() or len(text) > 20:
            shown = value if len(value) <= 30 else f"{value[:30]}..."
            raise ArgumentError(argument, f"{shown!r} is not a key hash (a decimal u64)")
        value = int(text)
    if not 0 <= value < U64:
        raise ArgumentError(argument, f"{value} is out of range for a key hash (0 to 2^64-1)")
    return value


def parse_list(values: list[int | str] | None, argument: str) -> list[int] | None:
    return None if values is None else [parse(v, argument) for v in values]
