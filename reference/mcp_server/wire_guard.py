"""Checks on each JSON-RPC line from the client before any JSON parser sees it (issue 25).

The SDK parses a whole line with pydantic; a line nested 10,000 deep made that
parse fail with no request id to answer, so the client waited forever for an
answer. Here a line is scanned once, token by token (strings are skipped whole
by the regex engine), and refused when it nests deeper than `MAX_WIRE_DEPTH` or is
longer than `MAX_LINE` bytes (read in bounded pieces, never held whole). The
refusal is a JSON-RPC error carrying the request's own id (found at the top level
of the line, wherever it sits), so the client gets an answer within the call:

    {"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"request refused: nested deeper than 64 levels ..."}}

The limits are far above any valid call: tool arguments are refused past 16 levels
(`limits.MAX_DEPTH`) and the largest valid request (`project_index_snapshot`'s 16 MB
of files, or a batch of 256 memories) is about 21 MB.
"""
from __future__ import annotations

import json
import re
from typing import Any, BinaryIO

MAX_WIRE_DEPTH = 64            # the envelope adds 3-4 levels to an argument's 16
MAX_LINE = 64 * 1024 * 1024    # bytes in one JSON-RPC line
INVALID_REQUEST = -32600
_CHUNK = 1 << 20

_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)
_ID_VALUE = re.compile(rb'\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|"(?:[^"\\]|\\.)*"|null)', re.S)


class Oversized(bytes):
    """The first `MAX_LINE` bytes of a line that was longer (the rest was read and dropped)."""


def read_line(stream: BinaryIO, limit: int = MAX_LINE) -> bytes:
    """The next line (b"" at end of input); a longer line than `limit` comes back as `Oversized`, its
    head kept and the rest read in 1 MB pieces and dropped."""
    line = stream.readline(limit + 1)
    if len(line) <= limit or line.endswith(b"\n"):
        return line
    while True:
        rest = stream.readline(_CHUNK)
        if not rest or rest.endswith(b"\n"):
            return Oversized(line[:limit])


def scan(line: bytes, max_depth: int = MAX_WIRE_DEPTH) -> tuple[int, Any]:
    """(depth reached, capped at `max_depth + 1`; the top-level "id" value, or None)."""
    depth = top = 0
    request_id: Any = None
    for m in _TOKEN.finditer(line):
        tok = m.group()
        if tok in (b"[", b"{"):
            depth += 1
            top = max(top, depth)
            if top > max_depth and request_id is not None:
                break
        elif tok in (b"]", b"}"):
            depth -= 1
        elif depth == 1 and tok == b'"id"' and request_id is None:
            v = _ID_VALUE.match(line, m.end())
            if v is not None:
                try:
                    request_id = json.loads(v.group(1))
                except ValueError:
                    request_id = None
    return min(top, max_depth + 1), request_id


def problem(line: bytes) -> tuple[str, Any] | None:
    """(why the line is refused, its request id) or None when it may be parsed."""
    if isinstance(line, Oversized):
        return (f"request refused: a JSON-RPC line longer than {MAX_LINE:,} bytes (the server's limit; "
                f"no tool takes that much)", scan(line)[1])
    if line.count(b"[") + line.count(b"{") <= MAX_WIRE_DEPTH:
        return None                                   # cannot be too deep: no scan
    depth, request_id = scan(line)
    if depth > MAX_WIRE_DEPTH:
        return (f"request refused: JSON nested deeper than {MAX_WIRE_DEPTH} levels (tool arguments may nest "
                f"16; see reference/mcp_server/README.md, Limits)", request_id)
    return None


def error_line(request_id: Any, message: str, code: int = INVALID_REQUEST) -> bytes:
    """A JSON-RPC error answer to `request_id`, as one line."""
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}},
                      separators=(",", ":")).encode() + b"\n"
