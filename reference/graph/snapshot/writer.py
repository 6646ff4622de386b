"""Export the state at one revision as a deterministic snapshot file (format: layout.py).

Same content -> same bytes: everything is ordered by id or by key bytes, JSON
is canonical, and nothing about the export itself (time, path) is recorded.
The file is written next to its destination and renamed into place.
"""
from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from reference.graph import keyspace as ks
from reference.graph.snapshot import bulk
from reference.graph.codec import dumps, unframe
from reference.graph.relations import RelationTable
from reference.graph.snapshot.layout import HEADER, MAGIC, SECTION, SECTIONS, TABLE_END, VERSION, pad8
from reference.graph.view import GraphView


def _u64s(values: list[int]) -> bytes:
    return struct.pack(f"<{len(values)}Q", *values)


def _offsets(blobs: list[bytes]) -> tuple[list[int], bytes]:
    offs, pos = [0], 0
    for b in blobs:
        pos += len(b)
        offs.append(pos)
    return offs, b"".join(blobs)


def build(view: GraphView, rev: int, rels: RelationTable) -> tuple[bytes, dict[str, Any]]:
    """The snapshot bytes of the state after `rev`, and a summary."""
    nodes: dict[int, bytes] = {}
    for nid, key, value in view.iter_items(ks.NODE):
        body = unframe(key, value, "node")
        if bulk.node_rev(key, body) > rev:
            old = view.node_at(nid, rev)
            if old is not None:
                nodes[nid] = dumps(old)
        else:
            nodes[nid] = bulk.node_json(key, body)
    out = bulk.live_lists(view, ks.OUT, ks.OUT_COLD, rev)
    inc = bulk.live_lists(view, ks.IN, ks.IN_COLD, rev)
    ids_arr = np.union1d(np.union1d(np.fromiter(nodes, dtype=np.uint64, count=len(nodes)), out.owners), inc.owners)
    ids = ids_arr.tolist()
    str_offs, strings = _offsets([view.name_of(nid, ks.KEY).encode() for nid in ids])
    node_offs, node_blob = _offsets([nodes.get(nid, b"") for nid in ids])
    kv_paths, kv_recs = [], []
    for path in view.kv_paths(b""):
        body = view.kv_at(path, rev)
        if body is not None and not body["deleted"]:
            kv_paths.append(path)
            kv_recs.append(dumps(body))
    path_offs, path_blob = _offsets(kv_paths)
    rec_offs, rec_blob = _offsets(kv_recs)
    names = [n.encode() for n in rels.names[1:]]
    sections = [
        b"".join(struct.pack("<H", len(n)) + n for n in names),
        ids_arr.astype("<u8").tobytes() + _u64s(str_offs) + strings,
        _u64s(node_offs) + node_blob,
        bulk.adjacency_section(out, ids_arr),
        bulk.adjacency_section(inc, ids_arr),
        _u64s(path_offs) + _u64s(rec_offs) + path_blob + rec_blob,
    ]
    n_edges = out.edges
    table, body, pos = b"", b"", TABLE_END
    for data in sections:
        padded = data + b"\0" * (pad8(len(data)) - len(data))
        table += SECTION.pack(pos, len(padded), zlib.crc32(padded), 0)
        body += padded
        pos += len(padded)
    rev_ts = view.log_ts(rev) if rev else 0.0
    header = HEADER.pack(MAGIC, VERSION, len(SECTIONS), 0, pos, rev, 0, rev_ts, len(ids), len(nodes), n_edges,
                         len(kv_paths), len(names), 0)
    crc = zlib.crc32(table, zlib.crc32(header[:-4]))
    data = header[:-4] + struct.pack("<I", crc) + table + body
    summary = {"revision": rev, "revision_ts": rev_ts, "keys": len(ids), "nodes": len(nodes), "edges": n_edges,
               "kv": len(kv_paths), "relations": len(names), "bytes": len(data)}
    return data, summary


def write(data: bytes, path: str | os.PathLike) -> None:
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


assert len(SECTIONS) == 6
