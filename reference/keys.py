"""Canonical keys and `hash64`, exactly as seed 000 §9 gives them.

Namespaces and their formats:

    file:{path}                              file:src/main.py
    sym:{path}#{name}:{kind}:{start}:{end}   sym:src/main.py#foo:function:10:20
    chunk:{path}:{id}                        chunk:src/main.py:0
    mem:{uuid8}                              mem:a1b2c3d4
    task:{slug} insight:{slug} context:{slug} pat:{slug}
    q:{mode}:{corpus}:{query}                q:semantic:code:auth flow

`parse_key` returns a `Key` with the namespace's fields; `format_key` is its
inverse. A string that does not fit its namespace raises `InvalidKey`.
"""
from __future__ import annotations

import hashlib
import re
import struct
from dataclasses import dataclass, field

from reference.errors import InvalidKey

PERSON = b"galaxybrain"


def hash64(key: str, person: bytes = PERSON) -> int:
    """BLAKE2b, 8-byte digest, personalised with `person`, read as little-endian u64."""
    h = hashlib.blake2b(key.encode("utf-8"), digest_size=8, person=person.ljust(16, b"\x00"))
    return struct.unpack("<Q", h.digest())[0]


_SLUG = r"[a-z0-9][a-z0-9_\-]*"
_PATTERNS: dict[str, re.Pattern[str]] = {
    "file": re.compile(rf"file:(?P<path>[^\n#]+)"),
    "sym": re.compile(r"sym:(?P<path>[^\n#]+)#(?P<name>[^:\n]+):(?P<kind>[a-z_]+):(?P<start>\d+):(?P<end>\d+)"),
    "chunk": re.compile(r"chunk:(?P<path>[^\n#]+):(?P<id>\d+)"),
    "mem": re.compile(r"mem:(?P<id>[0-9a-f]{8})"),
    "task": re.compile(rf"task:(?P<slug>{_SLUG})"),
    "insight": re.compile(rf"insight:(?P<slug>{_SLUG})"),
    "context": re.compile(rf"context:(?P<slug>{_SLUG})"),
    "pat": re.compile(rf"pat:(?P<slug>{_SLUG})"),
    "q": re.compile(r"q:(?P<mode>[a-z_]+):(?P<corpus>[a-z_]+):(?P<query>.+)", re.S),
}
NAMESPACES = tuple(_PATTERNS)


@dataclass(frozen=True)
class Key:
    """A parsed canonical key: its namespace and the namespace's fields."""

    namespace: str
    fields: dict[str, str] = field(hash=False, compare=True)

    def __str__(self) -> str:
        return format_key(self.namespace, **self.fields)

    @property
    def hash(self) -> int:
        return hash64(str(self))


def namespace_of(key: str) -> str:
    """The namespace prefix of `key`, or `InvalidKey` if it has none we know."""
    ns, sep, _ = key.partition(":")
    if not sep or ns not in _PATTERNS:
        raise InvalidKey(f"key {key!r} has no known namespace (expected one of {', '.join(NAMESPACES)})")
    return ns


def parse_key(key: str) -> Key:
    """Parse a canonical key string; raise `InvalidKey` naming the namespace's format."""
    ns = namespace_of(key)
    m = _PATTERNS[ns].fullmatch(key)
    if not m:
        raise InvalidKey(f"key {key!r} does not fit the {ns}: format {_FORMATS[ns]}")
    fields = m.groupdict()
    if ns == "sym" and int(fields["end"]) < int(fields["start"]):
        raise InvalidKey(f"key {key!r}: symbol end line {fields['end']} is before start {fields['start']}")
    if ns in ("file", "sym", "chunk") and (fields["path"].startswith("/") or fields["path"] != fields["path"].strip()):
        raise InvalidKey(f"key {key!r}: path must be repo-relative with no surrounding spaces")
    return Key(ns, fields)


_FORMATS = {
    "file": "file:{path}",
    "sym": "sym:{path}#{name}:{kind}:{start}:{end}",
    "chunk": "chunk:{path}:{id}",
    "mem": "mem:{8 lowercase hex digits}",
    "task": "task:{slug}",
    "insight": "insight:{slug}",
    "context": "context:{slug}",
    "pat": "pat:{slug}",
    "q": "q:{mode}:{corpus}:{query}",
}


def format_key(namespace: str, **fields: object) -> str:
    """Build a canonical key from its fields and check that it parses back to them."""
    if namespace not in _FORMATS:
        raise InvalidKey(f"unknown namespace {namespace!r} (expected one of {', '.join(NAMESPACES)})")
    try:
        text = _FORMATS[namespace].replace("{8 lowercase hex digits}", "{id}").format(**fields)
    except KeyError as exc:
        raise InvalidKey(f"{namespace}: key needs field {exc.args[0]!r} ({_FORMATS[namespace]})") from None
    parse_key(text)
    return text


def file_key(path: str) -> str:
    return format_key("file", path=path)


def sym_key(path: str, name: str, kind: str, start: int, end: int) -> str:
    return format_key("sym", path=path, name=name, kind=kind, start=start, end=end)


def chunk_key(path: str, chunk_id: int) -> str:
    return format_key("chunk", path=path, id=chunk_id)
