"""Secret redaction at the graph's API boundary: ids, names and payloads before they are stored or looked up.

Every string a write stores (node ids, edge endpoints, relation, type, scope,
policy scope/namespace/key, run and task ids, and every string and dict key of a
payload) goes through the store's redactor first, so no secret reaches
`data.mdb`, the revision log or a snapshot. Redaction is deterministic, so a key
holding a secret always maps to the same stored key: a read with the original
key is redacted the same way and finds it. Two keys that differ only in their
secret become one key (the secret is gone; nothing tells them apart).
Key and name redaction is memoised (ids repeat; a redaction scan costs ~20 µs).
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from reference.graph.codec import check_payload

KEY_CACHE = 1 << 16


class GraphRedaction:
    """`key(s)` for ids and names (memoised), `payload(v)` for JSON payloads; identity when `redactor` is None."""

    def __init__(self, redactor: Callable[[str], str] | None) -> None:
        self.redactor = redactor
        self._key = functools.lru_cache(maxsize=KEY_CACHE)(redactor) if redactor is not None else None

    def key(self, value: Any) -> Any:
        """A redacted id or name; anything that is not a string passes (validation reports it)."""
        if self._key is None or not isinstance(value, str):
            return value
        return self._key(value)

    def payload(self, value: Any) -> Any:
        if self.redactor is None or value is None:
            return value
        check_payload(value)            # before the recursive redaction walks it (depth, JSON types)
        from reference.patterns.lazy_redactor import redact_json  # the patterns package loads Hyperscan

        return redact_json(value, self.redactor)
