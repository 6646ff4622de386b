"""The knowledge graph in one JSONL file, as the MCP reference "memory" server keeps it.

Faithful to modelcontextprotocol/servers `src/memory/index.ts`
(`KnowledgeGraphManager.loadGraph` / `saveGraph`): one JSON object a line,
every entity `{"type":"entity","name","entityType","observations"}` first,
then every relation `{"type":"relation","from","to","relationType"}`, joined
by newlines with a final newline; each mutation loads the whole file and
rewrites it to a temporary file in the same folder renamed over the target.
One difference: the server skips a line it cannot parse (logging it), which
would drop that line at the next save; here such a line is `CorruptData`
naming the file and line, so nothing stored is ever silently lost.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reference.errors import CorruptData

ENTITY_FIELDS = ("name", "entityType", "observations")
RELATION_FIELDS = ("from", "to", "relationType")


@dataclass
class KnowledgeGraph:
    """Entities and relations in file order (dicts with exactly the upstream fields)."""

    entities: list[dict[str, Any]] = field(default_factory=list)
    relations: list[dict[str, Any]] = field(default_factory=list)


def _check(item: Any, where: str) -> tuple[str, dict[str, Any]]:
    if not isinstance(item, dict) or item.get("type") not in ("entity", "relation"):
        raise CorruptData(f"{where}: not an entity or relation object")
    kind = item["type"]
    fields = ENTITY_FIELDS if kind == "entity" else RELATION_FIELDS
    out = {}
    for f in fields:
        value = item.get(f)
        ok = (isinstance(value, list) and all(isinstance(o, str) for o in value)) if f == "observations" \
            else isinstance(value, str)
        if not ok:
            raise CorruptData(f"{where}: {kind} field {f!r} is missing or has the wrong type")
        out[f] = value
    return kind, out


def load_graph(path: Path) -> KnowledgeGraph:
    """The graph in `path` (empty when the file does not exist)."""
    graph = KnowledgeGraph()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return graph
    except UnicodeDecodeError as exc:
        raise CorruptData(f"{path}: not UTF-8 text ({exc})") from None
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CorruptData(f"{where}: not valid JSON ({exc.msg})") from None
        kind, value = _check(item, where)
        (graph.entities if kind == "entity" else graph.relations).append(value)
    return graph


def _line(kind: str, value: dict[str, Any], fields: tuple[str, ...]) -> str:
    # JSON.stringify: no spaces, non-ASCII kept as is
    return json.dumps({"type": kind, **{f: value[f] for f in fields}}, ensure_ascii=False, separators=(",", ":"))


def save_graph(path: Path, graph: KnowledgeGraph) -> None:
    """Rewrite `path` atomically: temporary file in the same folder, then rename over it."""
    lines = [_line("entity", e, ENTITY_FIELDS) for e in graph.entities]
    lines += [_line("relation", r, RELATION_FIELDS) for r in graph.relations]
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
