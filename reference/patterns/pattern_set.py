"""The `PatternSet` record (seed 000 §1.1) and the parsing of its definitions.

A definition is a dict (from JSON, TOML or an MCP call) with these fields:

    id           "pat:{slug}"                       required
    description  str                                 default ""
    patterns     non-empty list of regex strings     required
    tags         list of str                         default []
    names        list of short names, parallel to    default "pattern-0", ...
                 `patterns`, unique within the set
    flags        subset of "caseless", "dotall",     default [] (applies to
                 "multiline"                          every pattern of the set)
    allow        list of {"names": [...],             default [] (vetoes, see
                 "patterns": [...]}                   `allow_list`)

Any other field is an error, so a typo is not silently ignored.
`read_definition_file` reads one definition from a `.json` or `.toml` file.
"""
from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reference.errors import InvalidKey
from reference.keys import parse_key
from reference.patterns.allow_list import parse_allow
from reference.patterns.errors import PatternError

FLAGS = ("caseless", "dotall", "multiline")
FIELDS = ("id", "description", "patterns", "tags", "names", "flags", "allow")
_NAME = re.compile(r"[a-z0-9][a-z0-9_\-]*")


@dataclass
class PatternSet:
    """A named collection of regexes compiled into one Hyperscan database.

    `compiled_db` holds the serialised database (`hyperscan.dumpb`) and
    `digest` the content hash that names its cache file.
    """

    id: str
    description: str
    patterns: list[str]
    tags: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    allow: list[dict[str, list[str]]] = field(default_factory=list)
    compiled_db: bytes | None = None
    digest: str = ""

    def info(self) -> dict[str, Any]:
        """Metadata for `pattern_list` (no compiled bytes)."""
        return {
            "id": self.id,
            "description": self.description,
            "pattern_count": len(self.patterns),
            "patterns": list(self.patterns),
            "names": list(self.names),
            "tags": list(self.tags),
            "flags": list(self.flags),
            "allow": [dict(a) for a in self.allow],
            "digest": self.digest,
        }


def parse_definition(definition: Any, source: str | None = None) -> PatternSet:
    """Validate a definition dict and return an uncompiled `PatternSet`.

    Raises `PatternError` naming `source` (a file, when given), the set and
    the field that is wrong.
    """
    where = f"{source}: " if source else ""
    if not isinstance(definition, dict):
        raise PatternError(f"{where}a pattern-set definition must be a mapping, got {type(definition).__name__}")
    set_id = definition.get("id")
    if not isinstance(set_id, str):
        raise PatternError(f"{where}pattern-set definition needs a string 'id' like 'pat:security-smells'")
    try:
        key = parse_key(set_id)
    except InvalidKey as exc:
        raise PatternError(f"{where}pattern set id {set_id!r} is not a valid key: {exc}", set_id=set_id) from None
    if key.namespace != "pat":
        raise PatternError(f"{where}pattern set id {set_id!r} must be in the 'pat:' namespace", set_id=set_id)

    def fail(msg: str, index: int | None = None) -> PatternError:
        return PatternError(f"{where}pattern set {set_id!r}: {msg}", set_id=set_id, index=index, reason=msg)

    unknown = sorted(set(definition) - set(FIELDS))
    if unknown:
        raise fail(f"unknown field(s) {', '.join(map(repr, unknown))} (allowed: {', '.join(FIELDS)})")
    description = definition.get("description", "")
    if not isinstance(description, str):
        raise fail("'description' must be a string")
    patterns = definition.get("patterns")
    if not isinstance(patterns, list) or not patterns:
        raise fail("'patterns' must be a non-empty list of regex strings")
    for i, p in enumerate(patterns):
        if not isinstance(p, str) or not p:
            raise fail(f"pattern #{i} must be a non-empty string, got {p!r}", index=i)
    tags = _str_list(definition.get("tags", []), "tags", fail)
    names = _str_list(definition.get("names", []), "names", fail)
    if not names:
        names = [f"pattern-{i}" for i in range(len(patterns))]
    if len(names) != len(patterns):
        raise fail(f"'names' has {len(names)} entries but 'patterns' has {len(patterns)}")
    for i, name in enumerate(names):
        if not _NAME.fullmatch(name):
            raise fail(f"name #{i} {name!r} must be lowercase letters, digits, '-' or '_'", index=i)
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise fail(f"'names' must be unique within the set; repeated: {', '.join(dup)}")
    flags = _str_list(definition.get("flags", []), "flags", fail)
    bad = [f for f in flags if f not in FLAGS]
    if bad:
        raise fail(f"unknown flag(s) {', '.join(map(repr, bad))} (allowed: {', '.join(FLAGS)})")
    allow = parse_allow(definition.get("allow", []), names, fail)
    return PatternSet(set_id, description, list(patterns), list(tags), list(names), sorted(set(flags)), allow)


def _str_list(value: Any, name: str, fail) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise fail(f"'{name}' must be a list of strings")
    return value


def read_definition_file(path: str | Path) -> dict[str, Any]:
    """Read one definition from a `.json` or `.toml` file; `PatternError` names the file."""
    path = Path(path)
    suffix = path.suffix.lower()
    try:
        if suffix == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
        elif suffix == ".toml":
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        else:
            raise PatternError(f"{path}: pattern-set files must end in .json or .toml")
    except (json.JSONDecodeError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PatternError(f"{path}: cannot parse pattern-set definition: {exc}") from None
    except OSError as exc:
        raise PatternError(f"{path}: cannot read pattern-set definition: {exc}") from None
    if not isinstance(data, dict):
        raise PatternError(f"{path}: a pattern-set definition must be a mapping at top level")
    return data
