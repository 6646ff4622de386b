"""Times in the knowledge tables: ISO-8601 UTC text (`2026-01-25T10:00:00Z`), compared as strings."""
from __future__ import annotations

from datetime import datetime, timezone

from reference.clock import iso

FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def to_text(ts: float | None) -> str | None:
    return None if ts is None else iso(ts)


def from_text(value: str | None) -> float | None:
    if value is None:
        return None
    # fromisoformat is C code (strptime costs about 100 us a call); the stored text always ends in Z
    return datetime.fromisoformat(value[:-1]).replace(tzinfo=timezone.utc).timestamp()
