"""Fill an adapter's argument templates with an operation's values.

Rules (documented in README.md): a string that is exactly `{name}` becomes the value itself, with its
type (a list stays a list); `{name?}` does the same but drops the key when the value is None; a string
with `{name}` inside other text is formatted as text (`"note {uid}"`). Dicts and lists are filled
recursively; a table whose keys were all left out (`{ after = "{after?}", before = "{before?}" }` with
neither given) is left out too. An unknown name is an error naming it.
"""
from __future__ import annotations

import re
from typing import Any

_WHOLE = re.compile(r"^\{([a-z_]+)(\?)?\}$")
_PART = re.compile(r"\{([a-z_]+)\}")
_DROP = object()


def fill(template: Any, values: dict[str, Any]) -> Any:
    """The template with every placeholder replaced; keys whose optional value is None are left out."""
    out = _fill(template, values)
    return {} if out is _DROP else out


def placeholders(template: Any) -> set[str]:
    """Every placeholder name a template uses (to check them when an adapter loads)."""
    if isinstance(template, str):
        return set(_PART.findall(template)) | {m.group(1) for m in [_WHOLE.match(template)] if m}
    if isinstance(template, dict):
        return set().union(*map(placeholders, template.values())) if template else set()
    if isinstance(template, list):
        return set().union(*map(placeholders, template)) if template else set()
    return set()


def _lookup(name: str, values: dict[str, Any]) -> Any:
    if name not in values:
        raise ValueError(f"adapter template names {{{name}}}, which this operation does not have "
                         f"(it has: {', '.join(sorted(values))})")
    return values[name]


def _fill(t: Any, values: dict[str, Any]) -> Any:
    if isinstance(t, str):
        whole = _WHOLE.match(t)
        if whole:
            value = _lookup(whole.group(1), values)
            return _DROP if (value is None and whole.group(2)) else value
        return _PART.sub(lambda m: "" if (v := _lookup(m.group(1), values)) is None else str(v), t)
    if isinstance(t, dict):
        filled = {k: _fill(v, values) for k, v in t.items()}
        kept = {k: v for k, v in filled.items() if v is not _DROP}
        return _DROP if filled and not kept else kept
    if isinstance(t, list):
        return [v for v in (_fill(x, values) for x in t) if v is not _DROP]
    return t
