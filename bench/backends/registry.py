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


def available_backends() -> list[str]:
    """Names of every backend that can be asked for (built-in first, then plug-ins)."""
    return list(_targets())


def backend_class(name: str) -> type[Backend]:
    """The class registered under `name`; a clear error lists the known names."""
    targets = _targets()
    if name not in targets:
        raise KeyError(f"unknown backend {name!r}; known: {', '.join(targets)}")
    return _load(targets[name])


def create_backend(spec: str) -> Backend:
    """Instantiate a backend from a spec `name[:option]` (not yet opened)."""
    name, _, option = spec.partition(":")
    return backend_class(name)(option or None)
