"""`doc_hash`: the deduplication key of a memory document (seed 002 metadata `doc_hash`).

The hash is SHA-256 (hex) of the normalised content, where normalising means:
Unicode NFC, line endings to `\\n`, trailing whitespace removed from every
line, runs of blank lines collapsed to one, and blank lines at both ends
dropped. Case and inner spacing are kept: they can change meaning in code.
The content hashed is the stored content, i.e. after secret redaction.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata

_BLANK_RUNS = re.compile(r"\n{3,}")


def normalise(text: str) -> str:
    """The canonical form of a document's content (see module docstring)."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return _BLANK_RUNS.sub("\n\n", text).strip("\n")


def doc_hash(text: str) -> str:
    """SHA-256 hex digest of `normalise(text)` encoded as UTF-8."""
    return hashlib.sha256(normalise(text).encode("utf-8", "surrogatepass")).hexdigest()
