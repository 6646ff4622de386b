"""Canonical keys and hash64 (seed 000 §9)."""
from __future__ import annotations

import hashlib
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.errors import InvalidKey
from reference.keys import chunk_key, file_key, format_key, hash64, namespace_of, parse_key, sym_key


def seed_hash64(key: str, person: bytes = b"galaxybrain") -> int:
    """Seed 000 §9, copied verbatim from the specification."""
    h = hashlib.blake2b(key.encode("utf-8"), digest_size=8, person=person.ljust(16, b"\x00"))
    return struct.unpack("<Q", h.digest())[0]


@given(st.text(max_size=60))
def test_hash64_is_the_seed_function(key):
    assert hash64(key) == seed_hash64(key)
    assert 0 <= hash64(key) < 1 << 64


def test_hash64_personalisation_matters():
    assert hash64("task:debug") != hash64("task:debug", person=b"other")
    assert hash64("task:debug") != int.from_bytes(hashlib.blake2b(b"task:debug", digest_size=8).digest(), "little")


@pytest.mark.parametrize("key,ns,fields", [
    ("file:src/main.py", "file", {"path": "src/main.py"}),
    ("sym:src/main.py#foo:function:10:20", "sym",
     {"path": "src/main.py", "name": "foo", "kind": "function", "start": "10", "end": "20"}),
    ("chunk:src/main.py:0", "chunk", {"path": "src/main.py", "id": "0"}),
    ("mem:a1b2c3d4", "mem", {"id": "a1b2c3d4"}),
    ("task:debug", "task", {"slug": "debug"}),
    ("insight:decision", "insight", {"slug": "decision"}),
    ("context:frontend", "context", {"slug": "frontend"}),
    ("pat:security-smells", "pat", {"slug": "security-smells"}),
    ("q:semantic:code:auth flow", "q", {"mode": "semantic", "corpus": "code", "query": "auth flow"}),
])
def test_seed_examples_parse(key, ns, fields):
    k = parse_key(key)
    assert (k.namespace, k.fields) == (ns, fields)
    assert str(k) == key and k.hash == hash64(key)
    assert namespace_of(key) == ns


@pytest.mark.parametrize("bad", ["nope:x", "plain", "mem:A1B2C3D4", "mem:123", "sym:a.py#f:function:9:3",
                                 "file:/abs/path.py", "file: padded.py", "sym:a.py#f:function:x:2",
                                 "task:Debug", "chunk:a.py:x"])
def test_bad_keys_raise(bad):
    with pytest.raises(InvalidKey):
        parse_key(bad)


def test_builders():
    assert file_key("a/b.py") == "file:a/b.py"
    assert sym_key("a.py", "C.m", "method", 3, 9) == "sym:a.py#C.m:method:3:9"
    assert chunk_key("a.py", 2) == "chunk:a.py:2"
    with pytest.raises(InvalidKey, match="needs field"):
        format_key("sym", path="a.py")
    with pytest.raises(InvalidKey):
        file_key("a#b.py")


paths = st.from_regex(r"[a-z][a-z0-9_/]{0,20}\.py", fullmatch=True)


@given(path=paths, name=st.from_regex(r"[A-Za-z_][A-Za-z0-9_.]{0,12}", fullmatch=True),
       start=st.integers(1, 10_000), length=st.integers(0, 500))
def test_sym_round_trip(path, name, start, length):
    key = sym_key(path, name, "function", start, start + length)
    f = parse_key(key).fields
    assert (f["path"], f["name"], int(f["start"]), int(f["end"])) == (path, name, start, start + length)
