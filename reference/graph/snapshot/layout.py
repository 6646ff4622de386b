"""Layout of the read-only snapshot file (seed 003 §4.6); shared by writer and reader, no LMDB.

All integers little-endian. The file is header | section table | six sections,
each section starting on an 8-byte boundary and zero-padded to one; the table
records each section's offset, padded length and CRC-32, the header records the
file size and a CRC-32 of itself and the table, so every byte is covered.

    header (64 bytes)   magic "CMGSNAP\\0", version u16, n_sections u16, flags u32,
                        file_size u64, revision u32, reserved u32, revision_ts f64,
                        n_keys u32, n_nodes u32, n_edges u32, n_kv u32, n_rels u32,
                        header_crc u32 (over bytes 0..59 and the section table)
    table               n_sections x (offset u64, length u64, crc32 u32, reserved u32)
    RELS                for ids 1..n_rels: name_len u16 | UTF-8 name
    KEYS                ids u64[n_keys] ascending | str_off u64[n_keys+1] | UTF-8 keys
    NODES               node_off u64[n_keys+1] (empty span = key i is not a node) | canonical JSON records
    OUT, IN             off u32[n_keys+1] into entries | n_edges x (rel u32, other_index u32, rev u32)
    KV                  path_off u64[n_kv+1] | rec_off u64[n_kv+1] | paths (scope\\0ns\\0key) | JSON records

Key index i (position in `ids`) addresses a key's string, node record and both
adjacency lists. Adjacency lists hold the edges live at `revision`, in creation
order; `other_index` is a key index, so no lookup is needed to name a neighbour.
"""
from __future__ import annotations

import struct

MAGIC = b"CMGSNAP\x00"
VERSION = 1
HEADER = struct.Struct("<8sHHIQIIdIIIIII")
SECTION = struct.Struct("<QQII")
SECTIONS = ("rels", "keys", "nodes", "out", "in", "kv")
TABLE_END = HEADER.size + SECTION.size * len(SECTIONS)
EDGE = struct.Struct("<III")
HEADER_CRC_OFFSET = HEADER.size - 4

assert HEADER.size == 64


def pad8(n: int) -> int:
    return (n + 7) & ~7
