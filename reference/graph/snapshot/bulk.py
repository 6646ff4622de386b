"""Bulk reads for snapshot export: every adjacency list as numpy arrays, node records as canonical JSON.

Export used to decode each list entry and re-encode it in Python loops (2.3 s
at 50k nodes / 500k edges). Here the packed entries of every list that needs
no replay (no tombstones, not compacted past the revision, no entry after it)
are joined into one buffer and read as one structured array; the sequence
checks `AdjList.live` makes per list (flags 0, revisions strictly increasing,
no (rel, other) pair twice) run vectorised over all of them, and a list that
fails them goes through `resolve`, which raises the same `CorruptAdjacency` a
read would. Every other list takes the per-list path reads use. Each value's
frame checksum is still checked, one list at a time.

`node_json` writes the canonical JSON of a node record straight from its
binary body (the payload is stored as canonical JSON already), byte for byte
what `dumps(decode_node(body))` gives.
"""
from __future__ import annotations

import struct
from json.encoder import encode_basestring
from zlib import crc32

import numpy as np

from reference.graph import recordcodec as rc
from reference.graph.adjacency import _HEAD, ENTRY, ENTRY_SIZE, AdjList, _parse, resolve
from reference.graph.codec import FORMAT
from reference.graph.errors import CorruptAdjacency, CorruptRecord
from reference.graph.view import GraphView

ENTRY_DTYPE = np.dtype([("rel", "<u4"), ("other", "<u8"), ("rev", "<u4"), ("flags", "u1")])
_LAST_REV = struct.Struct("<IB")
_U64 = struct.Struct(">Q")
assert ENTRY_DTYPE.itemsize == ENTRY_SIZE


class Lists:
    """The live entries of one direction, grouped by owner in ascending id order (creation order within)."""

    __slots__ = ("owners", "counts", "rel", "other", "rev")

    def __init__(self, owners: np.ndarray, counts: np.ndarray, entries: np.ndarray) -> None:
        self.owners, self.counts = owners, counts        # one per non-empty list
        self.rel, self.other, self.rev = entries["rel"], entries["other"], entries["rev"]

    @property
    def edges(self) -> int:
        return int(self.counts.sum())


def live_lists(view: GraphView, hot: bytes, cold: bytes, rev: int) -> Lists:
    """Every non-empty list under `hot` at revision `rev` (cold parts merged where needed)."""
    owners: list[int] = []
    counts: list[int] = []
    chunks: list[bytes] = []
    fast: list[bool] = []
    cur = view.txn.cursor()
    found = cur.set_range(hot)
    n_prefix, u64, last_rev = len(hot), _U64.unpack_from, _LAST_REV.unpack_from
    for key, value in (cur.iternext() if found else ()):
        if key[:n_prefix] != hot:
            break
        nid = u64(key, n_prefix)[0]
        # the common case inline: a checked frame, a one-byte count, no tombstone, nothing after `rev`
        size = len(value)
        if size > 14 and value[0] == FORMAT and value[13] < 0x80 and size == 14 + value[13] * ENTRY_SIZE \
                and crc32(value[5:], crc32(value[:1], crc32(key))) == int.from_bytes(value[1:5], "little"):
            compacted_rev, tombstones = _HEAD.unpack_from(value, 5)
            if not tombstones and rev >= compacted_rev and last_rev(value, size - 5)[0] <= rev:
                chunks.append(value[14:])
                fast.append(True)
                owners.append(nid)
                counts.append(value[13])
                continue
        compacted_rev, tombstones, body, pos = _parse(key, value)
        adj = AdjList(compacted_rev, tombstones, body[pos:])
        entries = adj.live(rev, key) if rev >= adj.compacted_rev else view.adjacency(hot, cold, nid, rev)
        if entries:
            chunks.append(b"".join(ENTRY.pack(r, o, v, 0) for r, o, v in entries))
            fast.append(False)
            owners.append(nid)
            counts.append(len(entries))
    entries = np.frombuffer(b"".join(chunks), dtype=ENTRY_DTYPE)
    owner_arr, count_arr = np.array(owners, dtype=np.uint64), np.array(counts, dtype=np.int64)
    _check(entries, count_arr, np.array(fast, dtype=bool), owner_arr, hot)
    return Lists(owner_arr, count_arr, entries)


def _check(entries: np.ndarray, counts: np.ndarray, fast: np.ndarray, owners: np.ndarray, hot: bytes) -> None:
    """`AdjList.live`'s sequence checks for the fast lists, vectorised; a failing list raises through `resolve`."""
    if not entries.size:
        return
    list_of = np.repeat(np.arange(counts.size), counts)
    bad = np.zeros(counts.size, dtype=bool)
    bad[list_of[entries["flags"] != 0]] = True
    same = list_of[1:] == list_of[:-1]
    bad[list_of[1:][same & (entries["rev"][1:] <= entries["rev"][:-1])]] = True
    owner_rel = (list_of.astype(np.uint64) << np.uint64(32)) | entries["rel"].astype(np.uint64)
    order = np.lexsort((entries["other"], owner_rel))
    s_key, s_other = owner_rel[order], entries["other"][order]
    dup = (s_key[1:] == s_key[:-1]) & (s_other[1:] == s_other[:-1])
    bad[list_of[order][1:][dup]] = True
    bad &= fast
    if not bad.any():
        return
    i = int(np.flatnonzero(bad)[0])
    start = int(counts[:i].sum())
    key = hot + int(owners[i]).to_bytes(8, "big")
    resolve(ENTRY.iter_unpack(entries[start:start + int(counts[i])].tobytes()), None, key)
    raise CorruptAdjacency(f"adjacency list at LMDB key {key!r}: entries fail the sequence checks")


def adjacency_section(lists: Lists, ids: np.ndarray) -> bytes:
    """OUT / IN section bytes: u32 offsets per key index, then (rel, other_index, rev) u32 triples."""
    per_id = np.zeros(ids.size, dtype=np.int64)
    if lists.owners.size:
        per_id[np.searchsorted(ids, lists.owners)] = lists.counts
    offs = np.zeros(ids.size + 1, dtype="<u4")
    np.cumsum(per_id, out=offs[1:])
    index = np.searchsorted(ids, lists.other)
    if lists.other.size and (index.max() >= ids.size or not np.array_equal(ids[index], lists.other)):
        missing = lists.other[(index >= ids.size) | (ids[np.minimum(index, ids.size - 1)] != lists.other)][0]
        raise CorruptRecord(f"adjacency names id {int(missing):#018x}, which has no node and no edge list")
    triples = np.empty((lists.other.size, 3), dtype="<u4")
    triples[:, 0], triples[:, 1], triples[:, 2] = lists.rel, index, lists.rev
    return offs.tobytes() + triples.tobytes()


# dumps() of a decoded node record: keys sorted, no spaces
_NODE_JSON = ('{"created_rev":%d,"created_ts":%s,"id":%s,"payload":%s,"rev":%d,"run_id":%s,"scope":%s,'
              '"superseded_by":%s,"task_id":%s,"type":%s,"updated_ts":%s}')


def _text(s: str | None) -> str:
    return "null" if s is None else encode_basestring(s)


def node_json(key: bytes, body: bytes) -> bytes:
    """Canonical JSON of the node record `body` (sorted keys, no spaces), without decoding its payload."""
    try:
        created_ts, updated_ts, rev, created_rev, flags, *lengths = rc._NODE.unpack_from(body)
        (nid, typ, scope, run_id, task_id, sup), pos = rc.unpack_texts(body, rc._NODE.size, lengths)
    except (struct.error, ValueError) as exc:
        raise CorruptRecord(f"node at LMDB key {key!r}: bad body ({exc})") from None
    if flags & rc.HAS_PAYLOAD:
        payload = body[pos:].decode()
    elif pos != len(body):
        raise CorruptRecord(f"node at LMDB key {key!r}: bad body (bytes after a record without payload)")
    else:
        payload = "null"
    return (_NODE_JSON % (created_rev, float.__repr__(created_ts), _text(nid), payload, rev, _text(run_id),
                          _text(scope), _text(sup), _text(task_id), _text(typ), float.__repr__(updated_ts))).encode()


def node_rev(key: bytes, body: bytes) -> int:
    """The revision field of node record `body` (which version it is)."""
    try:
        return rc._NODE.unpack_from(body)[2]
    except struct.error as exc:
        raise CorruptRecord(f"node at LMDB key {key!r}: bad body ({exc})") from None
