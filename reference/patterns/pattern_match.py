"""`PatternMatch`: one match of one pattern of a set, in byte offsets."""
from __future__ import annotations

from typing import Any, NamedTuple


class PatternMatch(NamedTuple):
    """Pattern `pattern_index` (named `name`) matched `data[start:end]`.

    Offsets are byte offsets into the scanned bytes; `end` is exclusive.
    A named tuple because scans build many of them and equality is by value.
    """

    pattern_index: int
    pattern: str
    start: int
    end: int
    name: str

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()
