"""Random values of the shapes in scenarios/spec/patterns.toml: keys, tokens, JWTs, PEM blocks.

`expand(shape, rng)` returns the value and its random runs (the parts that
came from the generator, at least 8 characters): those are what must never
read back after redaction, whatever a backend does with the fixed prefixes.
"""
from __future__ import annotations

import base64
import json
import random
import re
import string

CLASSES = {
    "A-Z0-9": string.ascii_uppercase + string.digits,
    "a-zA-Z0-9": string.ascii_letters + string.digits,
    "a-z0-9": string.ascii_lowercase + string.digits,
    "0-9": string.digits,
    "a-f0-9": "0123456789abcdef",
    "b64": string.ascii_letters + string.digits + "+/",
    "b64url": string.ascii_letters + string.digits + "-_",
    "pw": string.ascii_letters + string.digits + "!#%*+-.=?@^_~",
}
_TOKEN = re.compile(r"\{(\d+):([^}]+)\}|\{jwt\}|\{pem:([^}]+)\}")


def _chars(rng: random.Random, n: int, cls: str) -> str:
    if cls not in CLASSES:
        raise ValueError(f"patterns.toml: unknown character class {cls!r}")
    return "".join(rng.choice(CLASSES[cls]) for _ in range(n))


def _b64url(obj: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).rstrip(b"=").decode()


def _jwt(rng: random.Random) -> tuple[str, list[str]]:
    claims = {"sub": _chars(rng, 12, "a-z0-9"), "iat": rng.randrange(1_500_000_000, 1_700_000_000)}
    payload, sig = _b64url(claims), _chars(rng, 43, "b64url")
    return f"{_b64url({'alg': 'HS256', 'typ': 'JWT'})}.{payload}.{sig}", [payload, sig]


def _pem(rng: random.Random, label: str) -> tuple[str, list[str]]:
    body = [_chars(rng, 64, "b64") for _ in range(rng.randint(4, 8))]
    return f"-----BEGIN {label}-----\n" + "\n".join(body) + f"\n-----END {label}-----", body


def expand(shape: str, rng: random.Random) -> tuple[str, list[str]]:
    """The value of `shape` and its random runs of 8 characters or more."""
    runs: list[str] = []

    def sub(m: re.Match) -> str:
        if m.group(0) == "{jwt}":
            value, parts = _jwt(rng)
        elif m.group(3):
            value, parts = _pem(rng, m.group(3))
        else:
            value = _chars(rng, int(m.group(1)), m.group(2))
            parts = [value]
        runs.extend(p for p in parts if len(p) >= 8)
        return value

    value = _TOKEN.sub(sub, shape)
    if not runs:
        raise ValueError(f"patterns.toml: shape {shape[:40]!r} has no random run of 8 characters or more")
    return value, runs


def uuid4(rng: random.Random) -> str:
    h = _chars(rng, 32, "a-f0-9")
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"
