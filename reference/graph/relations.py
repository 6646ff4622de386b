"""Relation interning (seed 003 §4.4): names <-> small integers.

The ten relations of §4.4 get ids 1..10 in the order below when a store is
created, so ids are identical in every store; `register_relation` appends new
ones. Ids are never reused or renumbered, and the table lives in LMDB, so it
persists across runs (§8 Q4). Id 0 is reserved as "no relation".
"""
from __future__ import annotations

import re

from reference.graph.errors import InvalidRelation

BUILTIN = (
    "defines",
    "references",
    "calls",
    "imports",
    "tests",
    "implements",
    "constrains",
    "decided_for",
    "derived_from",
    "supersedes",
)
SUPERSEDES = "supersedes"
NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,63}")
MAX_RELATIONS = 0xFFFF  # generous; relation ids are u32 on disk


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise InvalidRelation(
            f"relation name {name!r} is not valid: use 1-64 characters of [a-z0-9_] starting with a letter"
        )
    return name


class RelationTable:
    """In-memory mirror of the persisted intern table; `names[i]` is the name of id i."""

    def __init__(self, pairs: list[tuple[int, str]] | None = None) -> None:
        self.names: list[str | None] = [None]
        self.ids: dict[str, int] = {}
        for rid, name in sorted(pairs or []):
            self.add(rid, name)

    def add(self, rid: int, name: str) -> None:
        if rid != len(self.names) or name in self.ids:
            raise InvalidRelation(f"relation table is not dense: id {rid} for {name!r} after {len(self.names) - 1}")
        self.names.append(name)
        self.ids[name] = rid

    def id(self, name: str) -> int:
        try:
            return self.ids[name]
        except (KeyError, TypeError):
            raise InvalidRelation(
                f"unknown relation {name!r}; known: {', '.join(self.ids)} (register new ones with register_relation)"
            ) from None

    def name(self, rid: int) -> str:
        if 0 < rid < len(self.names):
            return self.names[rid]  # type: ignore[return-value]
        raise InvalidRelation(f"relation id {rid} is not in the intern table (1..{len(self.names) - 1})")

    def __len__(self) -> int:
        return len(self.names) - 1

    def pairs(self) -> list[tuple[int, str]]:
        return [(i, n) for i, n in enumerate(self.names) if n is not None]
