"""`jsonl-graph`: the approach of the MCP reference "memory" server (modelcontextprotocol/servers, src/memory).

The store is one file, `<data_dir>/memory.jsonl`, in the server's format
(`graph_file.py`); a memory is an entity (`entity_mapping.py`). Like the
server, every operation reads the whole file and every change rewrites it.

Search is the server's `search_nodes`: an entity matches when the whole query,
lowercased, is a substring of its lowercased name, entityType or one of its
observations; matches come in file order (oldest first) with no ranking, all
at score 1.0, cut at `top_k` (the harness breaks ties by id). An empty query
matches everything, as in the server. The server has no filters and no
ranked free-text search: a natural-language query that is not a substring of
one observation finds nothing, so this backend declares `memory.keyword_search`
(substring search) but not `memory.search` (whose contract is that such a query
finds the right memory), nor `memory.filters`; scenario searches report
`unsupported`. Taxonomy slugs are still validated on write.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from reference.clock import Clock
from reference.telemetry import TelemetrySink

from bench.backends.capabilities import Capability as C
from bench.backends.fts_baseline.records import (
    InvalidArgument, check_count, check_id, dir_bytes, new_memory_id, validate_memory,
)
from bench.backends.interface import Backend, Hit
from bench.backends.jsonl_graph.entity_mapping import to_entity, to_record
from bench.backends.jsonl_graph.graph_file import load_graph, save_graph

FILE_NAME = "memory.jsonl"


def matches(entity: dict[str, Any], query: str) -> bool:
    """`searchNodes`: the lowercased query within the name, the type or an observation."""
    q = query.lower()
    return (q in entity["name"].lower() or q in entity["entityType"].lower()
            or any(q in o.lower() for o in entity["observations"]))


class JsonlGraphBackend(Backend):
    """Entities and relations in one JSONL file; whole-query substring search."""

    name = "jsonl-graph"
    deterministic = True   # no wall clock or randomness in any answer: gated exactly
    capabilities = frozenset({C.MEMORY_WRITE, C.MEMORY_GET, C.MEMORY_LIST, C.KEYWORD_SEARCH, C.MEMORY_DELETE})

    def open(self, data_dir: Path, clock: Clock, telemetry: TelemetrySink) -> None:
        self.data_dir, self.clock = Path(data_dir), clock
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.data_dir / FILE_NAME
        load_graph(self.path)  # a corrupt file fails here, at open, naming the line

    def close(self) -> None:
        """Nothing is held open: every operation reads and writes the file itself."""

    def storage_bytes(self) -> int:
        return dir_bytes(self.data_dir)

    def write_memory(self, text, task=None, insights=None, context=None, symbol_keys=None, tags=None,
                     metadata=None) -> str:
        inp = validate_memory(text, task, insights, context, symbol_keys, tags, metadata)
        now = self.clock.now()
        graph = load_graph(self.path)
        names = {e["name"] for e in graph.entities}
        mid = new_memory_id(now, inp.text, names.__contains__)
        graph.entities.append(to_entity(mid, inp, now))
        save_graph(self.path, graph)
        return mid

    def get_memory(self, memory_id: str) -> dict[str, Any] | None:
        mid = check_id(memory_id)
        found = [e for e in load_graph(self.path).entities if e["name"] == mid]  # `open_nodes([mid])`
        return to_record(found[0]) if found else None

    def list_memories(self, task=None, context=None, limit=50, offset=0) -> list[dict[str, Any]]:
        """`read_graph` in file order (oldest first); the server has no filters."""
        if task is not None or context:
            raise InvalidArgument("backend 'jsonl-graph' has no filters (it does not declare memory.filters)")
        limit, offset = check_count("limit", limit), check_count("offset", offset)
        return [to_record(e) for e in load_graph(self.path).entities[offset: offset + limit]]

    def keyword_search(self, query: str, top_k: int = 10) -> list[Hit]:
        if not isinstance(query, str):
            raise InvalidArgument(f"query must be a string, got {type(query).__name__}")
        top_k = check_count("top_k", top_k)
        hits = [Hit(e["name"], 1.0) for e in load_graph(self.path).entities if matches(e, query)]
        return hits[:top_k]

    def delete_memory(self, memory_id: str) -> bool:
        """`delete_entities([id])`: the entity and every relation from or to it."""
        mid = check_id(memory_id)
        graph = load_graph(self.path)
        if not any(e["name"] == mid for e in graph.entities):
            return False
        graph.entities = [e for e in graph.entities if e["name"] != mid]
        graph.relations = [r for r in graph.relations if mid not in (r["from"], r["to"])]
        save_graph(self.path, graph)
        return True
