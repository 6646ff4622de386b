"""A memory as an entity of the knowledge graph, and back.

- `name` = the memory id (`mem:` + 8 hex digits; entity names are the graph's keys);
- `entityType` = the task slug (`task:debug`), or `memory` when there is none;
- `observations`, in this order: the text; each context and insight slug as is
  (`context:auth`, `insight:pitfall`); each tag as `tag:<tag>`; each symbol key
  as `symbol_key:<decimal>`; `metadata:<JSON>` when there is metadata; and
  `created_at:<float>` (the injected clock's time, exactly).
The text is always the first observation, so a text that looks like a prefix
never confuses the reading. These are ordinary observations, so the search
sees them too, as the server's own search would see what an agent wrote there.
"""
from __future__ import annotations

import json
from typing import Any

from reference.clock import iso

from bench.backends.fts_baseline.records import MemoryInput

NO_TASK = "memory"


def to_entity(mid: str, inp: MemoryInput, created_at: float) -> dict[str, Any]:
    obs = [inp.text, *inp.context, *inp.insights, *(f"tag:{t}" for t in inp.tags),
           *(f"symbol_key:{k}" for k in inp.symbol_keys)]
    if inp.metadata:
        obs.append("metadata:" + json.dumps(inp.metadata, ensure_ascii=False, sort_keys=True, separators=(",", ":")))
    obs.append(f"created_at:{created_at!r}")
    return {"name": mid, "entityType": inp.task or NO_TASK, "observations": obs}


def to_record(entity: dict[str, Any]) -> dict[str, Any]:
    """The record of an entity; observations without a known prefix (written by others) are left out."""
    obs = entity["observations"]
    rec: dict[str, Any] = {"id": entity["name"], "task": None, "insights": [], "context": [], "symbol_keys": [],
                           "text": obs[0] if obs else "", "tags": [], "metadata": {}, "created_at": None}
    if entity["entityType"].startswith("task:"):
        rec["task"] = entity["entityType"]
    for o in obs[1:]:
        prefix, _, rest = o.partition(":")
        if prefix == "context":
            rec["context"].append(o)
        elif prefix == "insight":
            rec["insights"].append(o)
        elif prefix == "tag":
            rec["tags"].append(rest)
        elif prefix == "symbol_key" and rest.isdigit():
            rec["symbol_keys"].append(int(rest))
        elif prefix == "metadata":
            rec["metadata"] = json.loads(rest)
        elif prefix == "created_at":
            rec["created_at"] = float(rest)
    rec["created_at_iso"] = iso(rec["created_at"]) if rec["created_at"] is not None else None
    return rec
