"""`SnapshotReader`: answers node and adjacency reads from a snapshot file with mmap alone.

    with SnapshotReader.open("graph.snap") as snap:
        snap.get_out("file:src/a.py")      # [EdgeRef(...)] as the store answered at snap.revision

No LMDB here. `open` checks the magic, version, size and every CRC before
answering anything, so a damaged file raises `CorruptSnapshot` instead of
giving a wrong answer. Lookups binary-search the sorted id array in place.

The graph store redacts ids, relations and policy paths on write, so lookups here
redact their arguments the same way (`redactor`, default the built-in `pat:secrets`
compiled on the first lookup; `redact=False` looks keys up as given): a raw id that
carries a secret finds its node. Only `redaction.py` and the lazy redactor are
imported here; Hyperscan is loaded on the first lookup, LMDB never.
"""
from __future__ import annotations

import bisect
import json
import mmap
import os
import struct
import sys
import zlib
from array import array
from collections.abc import Callable
from typing import Any

from reference.graph.errors import CorruptSnapshot, KeyCollision, UnsupportedFormat
from reference.graph.records import EdgeRef, KVEntry, Node
from reference.graph.redaction import GraphRedaction
from reference.graph.snapshot.layout import HEADER, HEADER_CRC_OFFSET, MAGIC, SECTION, SECTIONS, TABLE_END, VERSION
from reference.keys import hash64


_tuple_new = tuple.__new__


def _shared_secrets(text: str) -> str:
    """The process's built-in secrets redactor, imported on first use (it loads Hyperscan)."""
    from reference.patterns.lazy_redactor import shared_secrets_redactor

    return shared_secrets_redactor()(text)


class SnapshotReader:
    """A verified, memory-mapped snapshot; see the module docstring."""

    def __init__(self, path: str, mm: mmap.mmap, redactor: Callable[[str], str] | None = None) -> None:
        self.path = path
        self._redaction = GraphRedaction(redactor)
        self._mm = mm
        self._buf = memoryview(mm)
        self._views: list[memoryview] = [self._buf]
        try:
            self._parse()
        except BaseException:
            self._release()
            raise

    @classmethod
    def open(cls, path: str | os.PathLike, redactor: Callable[[str], str] | None = None,
             redact: bool = True) -> SnapshotReader:
        """Map and verify `path`; lookups redact their keys with `redactor` (module docstring)."""
        path = os.fspath(path)
        if redactor is None and redact:
            redactor = _shared_secrets
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size < TABLE_END:
                raise CorruptSnapshot(f"snapshot {path}: {size} bytes is smaller than its {TABLE_END}-byte header")
            mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            return cls(path, mm, redactor if redact else None)
        except BaseException:
            mm.close()
            raise

    def close(self) -> None:
        if self._mm is not None:
            self._release()
            self._mm.close()
            self._mm = None

    def _release(self) -> None:
        for name in ("_ids", "_str_off", "_node_off", "_kv_path_off", "_kv_rec_off", "_out", "_in", "_sec"):
            self.__dict__.pop(name, None)
        for view in reversed(self._views):
            view.release()
        self._views = []

    def __enter__(self) -> SnapshotReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- verification -----------------------------------------------------------
    def _fail(self, msg: str) -> CorruptSnapshot:
        return CorruptSnapshot(f"snapshot {self.path}: {msg}")

    def _parse(self) -> None:
        buf = self._buf
        (magic, version, n_sec, _flags, size, self.revision, _r, self.revision_ts, self.n_keys, self.n_nodes,
         self.n_edges, self.n_kv, n_rels, crc) = HEADER.unpack_from(buf, 0)
        if magic != MAGIC:
            raise self._fail(f"bad magic {bytes(magic)!r} (not a graph snapshot)")
        if zlib.crc32(buf[HEADER.size:TABLE_END], zlib.crc32(buf[:HEADER_CRC_OFFSET])) != crc:
            raise self._fail("header checksum mismatch")
        if version != VERSION:
            raise UnsupportedFormat(f"snapshot {self.path}: format version {version}, this reader knows {VERSION}")
        if n_sec != len(SECTIONS) or size != len(buf):
            raise self._fail(f"header says {n_sec} sections / {size} bytes, file has {len(buf)} bytes")
        self._sec: dict[str, memoryview] = {}
        pos = TABLE_END
        for i, name in enumerate(SECTIONS):
            off, length, sec_crc, _ = SECTION.unpack_from(buf, HEADER.size + i * SECTION.size)
            if off != pos or off + length > size or length % 8:
                raise self._fail(f"section {name} at {off}+{length} is out of place")
            data = buf[off:off + length]
            self._views.append(data)
            if zlib.crc32(data) != sec_crc:
                raise self._fail(f"section {name} checksum mismatch")
            self._sec[name] = data
            pos += length
        if pos != size:
            raise self._fail(f"sections end at {pos}, file is {size} bytes")
        try:
            self._layout(n_rels)
        except (ValueError, TypeError, struct.error, UnicodeDecodeError) as exc:
            raise self._fail(f"inconsistent layout ({exc})") from None

    def _array(self, name: str, start: int, fmt: str, count: int) -> Any:
        size = struct.calcsize(fmt) * count
        raw = self._sec[name][start:start + size]
        if len(raw) != size:
            raise ValueError(f"section {name} too short for {count} x {fmt}")
        if sys.byteorder == "little":
            view = raw.cast(fmt)
            self._views += [raw, view]
            return view
        arr = array(fmt, raw.tobytes())
        arr.byteswap()
        return arr

    def _layout(self, n_rels: int) -> None:
        rels, pos = [None], 0
        sec = self._sec["rels"]
        for _ in range(n_rels):
            (n,) = struct.unpack_from("<H", sec, pos)
            rels.append(bytes(sec[pos + 2:pos + 2 + n]).decode())
            pos += 2 + n
        if None in rels[1:]:
            raise ValueError("relation table has a gap")
        self.relations: list[str | None] = rels
        self._rel_by_id = {i: name for i, name in enumerate(rels) if i}
        n = self.n_keys
        self._names: list[str | None] = [None] * n
        self._keys_at = SECTION.unpack_from(self._buf, HEADER.size + SECTION.size * SECTIONS.index("keys"))[0]
        self._ids = self._array("keys", 0, "Q", n)
        self._str_off = self._array("keys", 8 * n, "Q", n + 1)
        self._str_base = 16 * n + 8
        self._node_off = self._array("nodes", 0, "Q", n + 1)
        self._node_base = 8 * (n + 1)
        self._out = (self._array("out", 0, "I", n + 1), self._array("out", 4 * (n + 1), "I", 3 * self.n_edges))
        self._in = (self._array("in", 0, "I", n + 1), self._array("in", 4 * (n + 1), "I", 3 * self.n_edges))
        m = self.n_kv
        self._kv_path_off = self._array("kv", 0, "Q", m + 1)
        self._kv_rec_off = self._array("kv", 8 * (m + 1), "Q", m + 1)
        self._kv_path_base = 16 * (m + 1)
        self._kv_rec_base = self._kv_path_base + self._kv_path_off[m]
        for name, offs, limit in (("keys", self._str_off, len(self._sec["keys"]) - self._str_base),
                                  ("nodes", self._node_off, len(self._sec["nodes"]) - self._node_base),
                                  ("out", self._out[0], self.n_edges), ("in", self._in[0], self.n_edges),
                                  ("kv", self._kv_rec_off, len(self._sec["kv"]) - self._kv_rec_base)):
            if offs[0] != 0 or offs[len(offs) - 1] > limit:
                raise ValueError(f"{name} offsets run past their data")

    # -- lookups ------------------------------------------------------------------
    def _key(self, i: int) -> str:
        name = self._names[i]
        if name is None:
            base = self._keys_at + self._str_base
            name = self._names[i] = self._mm[base + self._str_off[i]:base + self._str_off[i + 1]].decode()
        return name

    def _index(self, key: str) -> int | None:
        key = self._redaction.key(key)
        nid = hash64(key)
        i = bisect.bisect_left(self._ids, nid)
        if i == self.n_keys or self._ids[i] != nid:
            return None
        stored = self._key(i)
        if stored != key:
            raise KeyCollision(f"key {key!r} and snapshot key {stored!r} share the 64-bit id {nid:#018x}")
        return i

    def get_node(self, id: str) -> Node | None:
        i = self._index(id)
        if i is None or self._node_off[i] == self._node_off[i + 1]:
            return None
        raw = self._sec["nodes"][self._node_base + self._node_off[i]:self._node_base + self._node_off[i + 1]]
        return Node(**json.loads(bytes(raw)))

    def get_out(self, src: str, rel: str | None = None) -> list[EdgeRef]:
        return self._adjacent(src, rel, self._out, True)

    def get_in(self, dst: str, rel: str | None = None) -> list[EdgeRef]:
        return self._adjacent(dst, rel, self._in, False)

    def _adjacent(self, key: str, rel: str | None, lists: tuple, outgoing: bool) -> list[EdgeRef]:
        key = self._redaction.key(key)
        i = self._index(key)
        if i is None:
            return []
        offs, entries = lists
        flat = entries[3 * offs[i]:3 * offs[i + 1]].tolist()
        rels, key_of = self._rel_by_id, self._key
        try:
            triples = [(rels[r], key_of(o), v) for r, o, v in zip(flat[0::3], flat[1::3], flat[2::3])]
        except (IndexError, KeyError) as exc:
            raise self._fail(f"adjacency of {key!r} holds an invalid relation or key index ({exc})") from None
        if rel is not None:
            rel = self._redaction.key(rel)
            triples = [t for t in triples if t[0] == rel]
        if outgoing:
            return [_tuple_new(EdgeRef, (key, r, o, v)) for r, o, v in triples]
        return [_tuple_new(EdgeRef, (o, r, key, v)) for r, o, v in triples]

    def get_kv(self, scope: str, namespace: str, key: str) -> KVEntry | None:
        k = self._redaction.key
        path = f"{k(scope)}\0{k(namespace)}\0{k(key)}".encode()
        lo, hi = 0, self.n_kv
        while lo < hi:
            mid = (lo + hi) // 2
            if self._kv_path(mid) < path:
                lo = mid + 1
            else:
                hi = mid
        if lo < self.n_kv and self._kv_path(lo) == path:
            return self._kv_entry(lo)
        return None

    def list_kv(self, scope: str, namespace: str) -> list[KVEntry]:
        prefix = f"{self._redaction.key(scope)}\0{self._redaction.key(namespace)}\0".encode()
        return [self._kv_entry(i) for i in range(self.n_kv) if self._kv_path(i).startswith(prefix)]

    def _kv_path(self, i: int) -> bytes:
        b = self._kv_path_base
        return bytes(self._sec["kv"][b + self._kv_path_off[i]:b + self._kv_path_off[i + 1]])

    def _kv_entry(self, i: int) -> KVEntry:
        scope, namespace, key = self._kv_path(i).decode().split("\0")
        b = self._kv_rec_base
        body = json.loads(bytes(self._sec["kv"][b + self._kv_rec_off[i]:b + self._kv_rec_off[i + 1]]))
        return KVEntry(scope=scope, namespace=namespace, key=key, **body)

    def keys(self) -> list[str]:
        """Every key in the snapshot (nodes and edge endpoints), in id order."""
        return [self._key(i) for i in range(self.n_keys)]

    def summary(self) -> dict[str, Any]:
        return {"revision": self.revision, "revision_ts": self.revision_ts, "keys": self.n_keys,
                "nodes": self.n_nodes, "edges": self.n_edges, "kv": self.n_kv, "relations": len(self.relations) - 1,
                "bytes": len(self._buf)}
