"""Find backends by name: the built-in ones and third-party ones via entry points.

A spec is `name` or `name:option` (for example `reference:memory-lane`).
Third-party packages register a backend class under the entry point group
`codemem_bench.backends`:

    [project.entry-points."codemem_bench.backends"]
    mystore = "mypkg.backend:MyStoreBackend"
"""
from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from bench.backends.interface import Backend

ENTRY_POINT_GROUP = "codemem_bench.backends"

# name -> "module:Class"; imported lazily so an optional backend's missing
# dependency only matters when that backend is asked for.
BUILTIN: dict[str, str] = {
    "reference": "bench.backends.reference.backend:ReferenceBackend",
    "fts-baseline": "bench.backends.fts_baseline.backend:FtsBaselineBackend",
    "sqlite-vec": "bench.backends.sqlite_vec.backend:SqliteVecBackend",
    "chroma": "bench.backends.chroma.backend:ChromaBackend",
    "mem0": "bench.backends.mem0.backend:Mem0Backend",
    "jsonl-graph": "bench.backends.jsonl_graph.backend:JsonlGraphBackend",
    "reference-mcp": "bench.backends.mcp.reference_server:ReferenceMcpBackend",
    "mcp": "bench.backends.mcp.backend:McpBackend",
}


def _load(target: str) -> type[Backend]:
    module, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        raise TypeError(f"{target} is not a subclass of bench.backends.Backend")
    return cls


def _targets() -> dict[str, str]:
    targets = dict(BUILTIN)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        targets.setdefault(ep.name, ep.value)
    return targets


# name -> class, registered at run time by `register_backend` (tests, notebooks, scripts)
_REGISTERED: dict[str, type[Backend]] = {}


def register_backend(name: str, cls: type[Backend]) -> None:
    """Make a Backend subclass available as `name` in this process (re-registering replaces it).

    For backends defined in code rather than installed, such as a deliberately weakened
    ranker in a test. A name of a built-in or plug-in backend is refused, as is a name
    with a colon (the spec separator). `unregister_backend(name)` removes it again.
    """
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        raise TypeError(f"register_backend({name!r}, ...): {cls!r} is not a subclass of bench.backends.Backend")
    if not name or ":" in name:
        raise ValueError(f"backend name {name!r} must be non-empty and contain no ':'")
    if name in _targets():
        raise ValueError(f"backend name {name!r} is taken by a built-in or plug-in backend")
    _REGISTERED[name] = cls


def unregister_backend(name: str) -> None:
    """Forget a backend added by `register_backend` (no error if it is not there)."""
    _REGISTERED.pop(name, None)


def available_backends() -> list[str]:
    """Names of every backend that can be asked for (built-in, then plug-ins, then registered)."""
    names = list(_targets())
    return names + [n for n in _REGISTERED if n not in names]


def backend_class(name: str) -> type[Backend]:
    """The class registered under `name`; a clear error lists the known names."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    targets = _targets()
    if name not in targets:
        raise KeyError(f"unknown backend {name!r}; known: {', '.join(available_backends())}")
    return _load(targets[name])


def create_backend(spec: str) -> Backend:
    """Instantiate a backend from a spec `name[:option]` (not yet opened)."""
    name, _, option = spec.partition(":")
    return backend_class(name)(option or None)
