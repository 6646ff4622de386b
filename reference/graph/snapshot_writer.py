"""Export the state at one revision as a deterministic snapshot file (format: snapshot_format.py).

Same content -> same bytes: everything is ordered by id or by key bytes, JSON
is canonical, and nothing about the export itself (time, path) is recorded.
The file is written next to its destination and renamed into place.
"""
from __future__ import annotations

import os
import struct
import zlib
from array import array
from pathlib import Path
from typing import Any

from reference.graph import keyspace as ks
from reference.graph import recordcodec
from reference.graph.adjacency import AdjList
from reference.graph.codec import dumps, unframe
from reference.graph.relations import RelationTable
from reference.graph.snapshot_format import EDGE, HEADER, MAGIC, SECTION, SECTIONS, TABLE_END, VERSION, pad8
from reference.graph.view import GraphView


def _u64s(values: list[int]) -> bytes:
    return struct.pack(f"<{len(values)}Q", *values)


def _offsets(blobs: list[bytes]) -> tuple[list[int], bytes]:
    offs, pos = [0], 0
    for b in blobs:
        pos += len(b)
        offs.append(pos)
    return offs, b"".join(blobs)


def _adjacency(lists: dict[int, list[tuple[int, int, int]]], ids: list[int], index: dict[int, int]) -> bytes:
    offs, entries, n = array("I"), array("I"), 0
    offs.append(0)
    for nid in ids:
        for rel, other, rev in lists.get(nid, ()):
            entries.extend((rel, index[other], rev))
            n += 1
        offs.append(n)
    if struct.pack("=I", 1) != struct.pack("<I", 1):
        offs.byteswap()
        entries.byteswap()
    assert entries.itemsize * 3 == EDGE.size
    return offs.tobytes() + entries.tobytes()


def _lists(view: GraphView, hot: bytes, cold: bytes, rev: int) -> dict[int, list[tuple[int, int, int]]]:
    lists = {}
    for nid, key, value in view.iter_items(hot):
        adj = AdjList.decode(key, value)
        entries = adj.live(rev, key) if rev >= adj.compacted_rev else view.adjacency(hot, cold, nid, rev)
        if entries:
            lists[nid] = entries
    return lists


def build(view: GraphView, rev: int, rels: RelationTable) -> tuple[bytes, dict[str, Any]]:
    """The snapshot bytes of the state after `rev`, and a summary."""
    nodes: dict[int, bytes] = {}
    for nid, key, value in view.iter_items(ks.NODE):
        body = recordcodec.decode("node", key, unframe(key, value, "node"))
        if body["rev"] > rev:
            body = view.node_at(nid, rev)
        if body is not None:
            nodes[nid] = dumps(body)
    out, inc = _lists(view, ks.OUT, ks.OUT_COLD, rev), _lists(view, ks.IN, ks.IN_COLD, rev)
    ids = sorted(set(nodes) | set(out) | set(inc))
    index = {nid: i for i, nid in enumerate(ids)}
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
        _u64s(ids) + _u64s(str_offs) + strings,
        _u64s(node_offs) + node_blob,
        _adjacency(out, ids, index),
        _adjacency(inc, ids, index),
        _u64s(path_offs) + _u64s(rec_offs) + path_blob + rec_blob,
    ]
    n_edges = sum(len(e) for e in out.values())
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
