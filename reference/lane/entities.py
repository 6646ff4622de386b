"""Entity slugs (seed 004 Phase 4): `type:name`, found in text and in file paths by fixed rules.

A slug is `<type>:<name>`; the type is one of ENTITY_TYPES, the name is
kebab-case ASCII (`[a-z0-9]+(-[a-z0-9]+)*`). `slugify` turns a raw name
("BlueLake", "user_profile", "Billing API") into that form.

Rules (the deterministic stand-in for the seed's LLM resolver):
- text: an explicit `project:atlas`, `agent:BlueLake`, `feature:auth`
  (any of ENTITY_TYPES) is that entity;
- paths: `.../features/<name>/...` (or `feature/`) gives `feature:<name>`;
  otherwise the first directory under a source root (`src`, `lib`, `app`)
  gives `feature:<dir>` unless it is a generic folder (components, utils,
  ...); `packages/<name>/` gives `project:<name>`. A file's extension is
  dropped (`src/features/auth.ts` -> `feature:auth`).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from reference.lane.errors import LaneError

ENTITY_TYPES = ("project", "agent", "feature", "person", "business", "other")
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_EXPLICIT = re.compile(r"(?<![\w/:.-])(" + "|".join(ENTITY_TYPES) + r"):"
                       r"([A-Za-z0-9][A-Za-z0-9_.\-]*[A-Za-z0-9]|[A-Za-z0-9])", re.IGNORECASE)
_PATH = re.compile(r"(?<![\w:])(?:\.{0,2}/)?(?:[\w.\-]+/)+[\w.\-]+")
FEATURE_DIRS = frozenset({"features", "feature"})
SOURCE_ROOTS = frozenset({"src", "lib", "app"})
PROJECT_DIRS = frozenset({"packages", "apps", "services"})
GENERIC_DIRS = frozenset({
    "components", "component", "utils", "util", "lib", "common", "shared", "core", "types", "hooks", "helpers",
    "test", "tests", "__tests__", "assets", "styles", "config", "internal", "pkg", "main", "index", "features",
    "feature", "src", "app",
})


def slugify(raw: str) -> str:
    """A kebab-case entity name from a raw one: camelCase, snake_case and spaces become hyphens."""
    words: list[str] = []
    for piece in re.split(r"[^A-Za-z0-9]+", raw):
        if piece:
            words.extend(w.lower() for w in _CAMEL.findall(piece))
    return "-".join(words)


def make_slug(entity_type: str, name: str) -> str:
    """`type:name` with the name slugified; `LaneError` for an unknown type or an empty name."""
    etype = entity_type.lower()
    if etype not in ENTITY_TYPES:
        raise LaneError(f"unknown entity type {entity_type!r} in {entity_type}:{name}; "
                        f"expected one of {', '.join(ENTITY_TYPES)}")
    slug_name = slugify(name)
    if not slug_name:
        raise LaneError(f"entity {entity_type}:{name!r} has no name")
    return f"{etype}:{slug_name}"


def check_slug(value: object) -> str:
    """Normalise a `type:name` slug given by a caller (`agent:BlueLake` -> `agent:blue-lake`)."""
    if not isinstance(value, str) or ":" not in value:
        raise LaneError(f"entity {value!r} must be a slug 'type:name' (types: {', '.join(ENTITY_TYPES)})")
    etype, _, name = value.partition(":")
    return make_slug(etype, name)


def is_slug(value: object) -> bool:
    """True for a slug already in canonical form (as stored in `metadata.entity_slugs`)."""
    if not isinstance(value, str):
        return False
    etype, sep, name = value.partition(":")
    return bool(sep) and etype in ENTITY_TYPES and _NAME.fullmatch(name) is not None


def slugs_from_text(text: str) -> list[str]:
    """Explicit slugs written in the text, in order of first appearance, without repeats."""
    out = [make_slug(m.group(1), m.group(2)) for m in _EXPLICIT.finditer(text)]
    return list(dict.fromkeys(s for s in out if s.partition(":")[2]))


def paths_in_text(text: str) -> list[str]:
    """Path-like tokens (at least one `/`) in the text; URLs and explicit slugs are not paths."""
    return [m.group(0) for m in _PATH.finditer(text) if "://" not in text[max(0, m.start() - 3): m.end()]]


def slugs_from_path(path: str) -> list[str]:
    """The entity slugs one file path implies (see the module rules)."""
    parts = [p for p in re.split(r"[\\/]+", path.strip()) if p and p not in (".", "..")]
    out: list[str] = []
    for i, part in enumerate(parts[:-1] if len(parts) > 1 else []):
        low = part.lower()
        nxt = parts[i + 1]
        if low in FEATURE_DIRS:
            out.append(_from_dir("feature", nxt))
        elif low in PROJECT_DIRS and i + 2 < len(parts):
            out.append(_from_dir("project", nxt))
        elif low in SOURCE_ROOTS and i + 2 < len(parts) and nxt.lower() not in GENERIC_DIRS:
            out.append(_from_dir("feature", nxt))
    return list(dict.fromkeys(s for s in out if s))


def slugs_from_paths(paths: Iterable[str]) -> list[str]:
    """The entity slugs of several paths, in order, without repeats."""
    if isinstance(paths, str):
        raise LaneError("paths must be a list of file paths, not a single string")
    out: list[str] = []
    for p in paths:
        if not isinstance(p, str):
            raise LaneError(f"paths must hold strings; {p!r} is a {type(p).__name__}")
        out.extend(slugs_from_path(p))
    return list(dict.fromkeys(out))


def _from_dir(entity_type: str, part: str) -> str:
    stem = part.split(".", 1)[0] if "." in part else part
    name = slugify(stem)
    return f"{entity_type}:{name}" if name and name not in GENERIC_DIRS else ""
