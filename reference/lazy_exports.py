"""Lazy package exports: a module `__getattr__` that imports a name on first use.

Packages such as `reference.graph` keep their `__init__` free of imports so
that importing one part (the mmap snapshot reader, a schema module that the
schema steps need) does not pull in the rest (LMDB, the store).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_getattr(package: str, exports: dict[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """Build `__getattr__` for `package`.

    `exports` maps a public name to "module" (the same attribute name) or
    "module:attribute"; a resolved value is cached in `namespace` (the
    package's `globals()`), so later lookups cost nothing.
    """

    def __getattr__(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attr = exports[name].partition(":")
        value = getattr(importlib.import_module(module), attr or name)
        namespace[name] = value
        return value

    return __getattr__
