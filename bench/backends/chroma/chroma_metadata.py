"""How a memory sits in a chroma record, and how the harness's filters become a chroma `where`.

Document = the memory's text. Metadata (chroma takes only non-empty scalars
and non-empty lists of scalars): `created_at` (float, the injected clock's
time), `task` when set, `context` / `insights` / `tags` as string lists when
non-empty, `symbol_keys` and `metadata` as JSON text (u64 keys overflow
chroma's integers; nested metadata is not a chroma value), and `has_vector`
(false for a text without words, whose zero vector has no direction).
Filters: task by `$eq`, each context / insight / tag by `$contains`, ANDed.
"""
from __future__ import annotations

import json
from typing import Any

from reference.clock import iso
from reference.tracker import MemoryFilter

from bench.backends.fts_baseline.records import MemoryInput

LISTS = ("context", "insights", "tags")


def to_metadata(inp: MemoryInput, created_at: float, has_vector: bool) -> dict[str, Any]:
    md: dict[str, Any] = {"created_at": created_at, "has_vector": has_vector,
                          "symbol_keys": json.dumps(list(inp.symbol_keys)),
                          "metadata": json.dumps(inp.metadata, ensure_ascii=False, sort_keys=True)}
    if inp.task is not None:
        md["task"] = inp.task
    for name in LISTS:
        if getattr(inp, name):
            md[name] = list(getattr(inp, name))
    return md


def to_record(mid: str, text: str, md: dict[str, Any]) -> dict[str, Any]:
    created_at = float(md["created_at"])
    return {"id": mid, "task": md.get("task"), "insights": list(md.get("insights", [])),
            "context": list(md.get("context", [])), "symbol_keys": json.loads(md["symbol_keys"]), "text": text,
            "tags": list(md.get("tags", [])), "metadata": json.loads(md["metadata"]), "created_at": created_at,
            "created_at_iso": iso(created_at)}


def where_of(flt: MemoryFilter, *extra: dict[str, Any]) -> dict[str, Any] | None:
    """The chroma `where` for the filter plus `extra` conditions; None when there is none."""
    conds: list[dict[str, Any]] = list(extra)
    if flt.task is not None:
        conds.append({"task": {"$eq": flt.task}})
    for name in LISTS:
        conds += [{name: {"$contains": v}} for v in getattr(flt, name)]
    if not conds:
        return None
    return conds[0] if len(conds) == 1 else {"$and": conds}
