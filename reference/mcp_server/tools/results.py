"""Plain JSON shapes the tools return (shared by the tool modules), with string forms of u64 ids.

A JSON number above 2^53 loses precision in JavaScript (`JSON.parse`); key
hashes are u64. `with_strings` (applied by the registry to every tool result)
adds `<field>_str` beside each field in `HASH_FIELDS` (always, so a client can
rely on it) and beside any other integer above 2^53.
"""
from __future__ import annotations

from typing import Any

from reference.memories.record import MemoryEntry, SearchHit

MAX_SAFE = (1 << 53) - 1
HASH_FIELDS = frozenset({"key_hash", "symbol_keys", "target_key"})


def memory(entry: MemoryEntry) -> dict[str, Any]:
    """A memory entry as `MemoryEntry.to_dict()` gives it."""
    return entry.to_dict()


def memory_hit(hit: SearchHit) -> dict[str, Any]:
    """A ranked memory: the entry's fields plus `score` (and the ranker's `meta`, if any)."""
    out = hit.entry.to_dict() if hit.entry is not None else {"id": hit.id}
    out["score"] = hit.score
    if hit.meta:
        out["meta"] = dict(hit.meta)
    return out


def hit(h: SearchHit) -> dict[str, Any]:
    """A ranked file, symbol, chunk or memory: id, kind, score (+ entry or meta)."""
    return h.to_dict()


def _big(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_SAFE


def with_strings(value: Any) -> Any:
    """`value` (a tool result) with `<field>_str` beside every key-hash field and every integer above 2^53."""
    if isinstance(value, list):
        return [with_strings(v) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for k, v in value.items():
        out[k] = with_strings(v)
        if not isinstance(k, str) or k.endswith("_str") or f"{k}_str" in value:
            continue
        ints = isinstance(v, int) and not isinstance(v, bool)
        int_list = isinstance(v, list) and v and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
        if k in HASH_FIELDS and (ints or int_list or v == []):
            out[f"{k}_str"] = str(v) if ints else [str(x) for x in v]
        elif _big(v) or (int_list and any(_big(x) for x in v)):
            out[f"{k}_str"] = str(v) if ints else [str(x) for x in v]
    return out
