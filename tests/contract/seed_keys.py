"""The key hash of seed 000 §9, written out from the seed so contracts need nothing of `reference`.

`pattern_scan` takes the hash of a canonical key (`file:<path>`, `mem:<id>`, ...).
"""
import hashlib
import struct


def hash64(key: str) -> int:
    """BLAKE2b with an 8-byte digest, personalised `galaxybrain`, read as a little-endian u64."""
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=8, person=b"galaxybrain".ljust(16, b"\x00")).digest()
    return struct.unpack("<Q", digest)[0]
