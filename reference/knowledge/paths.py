"""File and directory paths in text, and seed 004's path-based entity slugs.

A file path has at least one `/` and a last component with an extension
(`src/auth/token.py`); a bare file name counts only with a known code or
note extension (`README.md`, `package.json`). A directory path needs three
or more components or a trailing slash (`src/features/auth`, `docs/`), so
prose like `and/or` or `client/server` is not a path; two or more purely
numeric components (`1/25/2026`) are not a path either, and a name followed
by `(` is a call (`digestJob.lock()`), not a file.

Path slugs (seed 004 Phase 4): a directory named in `CONTAINERS` followed
by a further directory gives `<kind>:<that directory>` -
`src/features/auth/login.ts` -> `feature:auth`; a file directly inside the
container (`src/features/index.ts`) gives none.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

CONTAINERS = {
    "features": "feature", "components": "component", "services": "service", "packages": "package",
    "apps": "app", "plugins": "plugin", "modules": "module", "libs": "lib",
}
FILE_EXTENSIONS = frozenset(
    "py pyi ts tsx js jsx mjs cjs md mdx txt rst json yaml yml toml ini cfg conf lock rs go java kt rb php cs "
    "sql sh bash zsh c h cc cpp hpp css scss html vue svelte swift proto graphql env xml csv".split()
)
PATH_RE = re.compile(r"(?<![\w/.\-@])(?:\.{1,2}/)?(?:[\w.\-]+/)+[\w.\-]*")
BARE_FILE_RE = re.compile(r"(?<![\w/.\-@])[A-Za-z0-9_\-]+(?:\.[A-Za-z0-9_\-]+)*\.([A-Za-z0-9]{1,8})(?![\w/(])")
_EXT = re.compile(r"[^.]\.[A-Za-z0-9]{1,8}$")
SLUG_RE = re.compile(r"[a-z0-9][a-z0-9_\-]*")


@dataclass(frozen=True)
class PathMatch:
    """A path found in text: its span, normalised form and whether it names a file."""

    start: int
    end: int
    surface: str
    normalized: str
    is_file: bool


@dataclass(frozen=True)
class PathSlug:
    kind: str
    slug: str
    start: int
    end: int


def normalize_path(path: str) -> str:
    """Forward slashes, no leading `./`, no repeated or trailing slash; case is kept (paths are case-sensitive)."""
    p = re.sub(r"/{2,}", "/", path.replace("\\", "/"))
    while p.startswith("./"):
        p = p[2:]
    return p.rstrip("/")


def classify_path(surface: str) -> tuple[str, bool] | None:
    """(normalised path, is_file) when `surface` is a path by the rules above, else None."""
    s = surface.rstrip(".,;:!?")
    trailing_slash = s.endswith("/")
    norm = normalize_path(s)
    parts = [p for p in norm.split("/") if p not in ("", ".", "..")]
    if len(parts) < 1 or not norm:
        return None
    if sum(p.isdigit() for p in parts) >= 2:
        return None
    if _EXT.search(parts[-1]) and not trailing_slash:
        return norm, True
    if len(parts) >= 3 or (trailing_slash and len(parts) >= 1 and len(s.split("/")) >= 2):
        return norm, False
    return None


def find_paths(text: str) -> list[PathMatch]:
    """Paths with at least one slash, then bare file names with a known extension."""
    out: list[PathMatch] = []
    for m in PATH_RE.finditer(text):
        got = classify_path(m.group(0))
        if got is None:
            continue
        surface = m.group(0).rstrip(".,;:!?")
        out.append(PathMatch(m.start(), m.start() + len(surface), surface, got[0], got[1]))
    for m in BARE_FILE_RE.finditer(text):
        if m.group(1).lower() in FILE_EXTENSIONS:
            out.append(PathMatch(m.start(), m.end(), m.group(0), m.group(0), True))
    return out


def path_slugs(match: PathMatch) -> list[PathSlug]:
    """Slugs of the containers in a path (directories only: a file name is never a slug)."""
    dirs = match.normalized.split("/")
    if match.is_file:
        dirs = dirs[:-1]
    out, offset = [], 0
    surface = match.surface
    for i, comp in enumerate(dirs[:-1]):
        kind = CONTAINERS.get(comp.lower())
        slug = dirs[i + 1].lower()
        if kind and SLUG_RE.fullmatch(slug):
            at = surface.find(comp + "/" + dirs[i + 1], offset)
            start = match.start + (at + len(comp) + 1 if at >= 0 else 0)
            out.append(PathSlug(kind, slug, start, start + len(dirs[i + 1])))
            offset = max(at, 0)
    return out
