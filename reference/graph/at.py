"""`At`: an explicit point in time for reads, by revision or by timestamp.

A bare number would be ambiguous (is 42 a revision or a Unix time?), so every
`at=` argument takes an `At`: `At.rev(n)` is the store exactly after revision
`n` (0 is the empty store); `At.ts(x)` is the store after the last write whose
timestamp is <= `x`. `At.parse` accepts the forms a scenario file uses.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class At:
    """A point in time: `kind` is "rev" or "ts"; `value` is an int or a float."""

    kind: str
    value: float | int

    def __post_init__(self) -> None:
        if self.kind == "rev":
            if isinstance(self.value, bool) or not isinstance(self.value, int) or self.value < 0:
                raise ValueError(f"At.rev needs a non-negative int, got {self.value!r}")
        elif self.kind == "ts":
            if isinstance(self.value, bool) or not isinstance(self.value, (int, float)) or not math.isfinite(self.value):
                raise ValueError(f"At.ts needs a finite number of Unix seconds, got {self.value!r}")
        else:
            raise ValueError(f"At kind must be 'rev' or 'ts', got {self.kind!r}")

    @classmethod
    def rev(cls, n: int) -> At:
        return cls("rev", n)

    @classmethod
    def ts(cls, t: float) -> At:
        return cls("ts", float(t))

    @classmethod
    def parse(cls, obj: Any) -> At | None:
        """None, an `At`, {"rev": n} / {"ts": x}, or the strings "rev:N" / "ts:X"."""
        if obj is None or isinstance(obj, At):
            return obj
        if isinstance(obj, dict) and len(obj) == 1:
            ((kind, value),) = obj.items()
            return cls.rev(value) if kind == "rev" else cls.ts(value) if kind == "ts" else cls(kind, value)
        if isinstance(obj, str) and obj.partition(":")[0] in ("rev", "ts"):
            kind, _, text = obj.partition(":")
            try:
                return cls.rev(int(text)) if kind == "rev" else cls.ts(float(text))
            except ValueError:
                raise ValueError(f"bad point in time {obj!r}: expected rev:<int> or ts:<seconds>") from None
        raise TypeError(
            f"bad point in time {obj!r}: pass At.rev(n), At.ts(x), {{'rev': n}}, {{'ts': x}}, 'rev:N' or 'ts:X'"
        )

    def to_dict(self) -> dict[str, float | int]:
        return {self.kind: self.value}

    def __str__(self) -> str:
        return f"{self.kind}:{self.value}"
