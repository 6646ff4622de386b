"""Validation and redaction of `write_memory` arguments, before anything is written.

Every check raises `InvalidMemory` (or `UnknownSlug` from the ontology) with
the argument's name and the offending value, so a bad call writes nothing.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reference.memories import strings
from reference.errors import StoreError
from reference.json_depth import MAX_DEPTH, too_deep
from reference.ontology import check_context, check_insights, check_task


class InvalidMemory(StoreError, ValueError):
    """A memory argument has the wrong type or value."""


@dataclass(frozen=True)
class MemoryInput:
    text: str
    task: str | None
    insights: tuple[str, ...]
    context: tuple[str, ...]
    symbol_keys: tuple[int, ...]
    tags: tuple[str, ...]
    metadata: dict[str, Any]


def _str_list(name: str, value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise InvalidMemory(f"{name} must be a list of strings, got {type(value).__name__} {value!r}")
    for v in value:
        if not isinstance(v, str):
            raise InvalidMemory(f"{name} must hold strings; {v!r} is a {type(v).__name__}")
    return list(dict.fromkeys(value))  # drop repeats, keep order


def check_tags(tags: Any) -> tuple[str, ...]:
    out = _str_list("tags", tags)
    for t in out:
        if not t.strip():
            raise InvalidMemory("tags must be non-empty strings")
        why = strings.problem(t, label=True)
        if why is not None:
            raise InvalidMemory(f"tags: {t!r} {why}")
    return tuple(out)


def check_symbol_keys(keys: Any) -> tuple[int, ...]:
    if keys is None:
        return ()
    if not isinstance(keys, (list, tuple)):
        raise InvalidMemory(f"symbol_keys must be a list of u64 key hashes, got {type(keys).__name__}")
    for k in keys:
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < 1 << 64:
            raise InvalidMemory(f"symbol_keys must hold unsigned 64-bit integers (key hashes); got {k!r}")
    return tuple(dict.fromkeys(keys))


_FLAT = (str, int, bool, type(None))   # exact types a JSON round trip returns unchanged (not float: NaN, -0.0)


def check_metadata(metadata: Any) -> dict[str, Any]:
    """A JSON object with string keys, returned in canonical (key-sorted) form."""
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise InvalidMemory(f"metadata must be a dict, got {type(metadata).__name__}")
    if too_deep(metadata):
        raise InvalidMemory(f"metadata nests deeper than {MAX_DEPTH} levels")
    for k in metadata:
        if not isinstance(k, str):
            raise InvalidMemory(f"metadata keys must be strings; {k!r} is a {type(k).__name__}")
    if all(type(k) is str and type(v) in _FLAT for k, v in metadata.items()):
        out = dict(sorted(metadata.items()))   # what the JSON round trip gives a flat dict, without it
    else:
        try:
            out = json.loads(json.dumps(metadata, sort_keys=True, allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise InvalidMemory(f"metadata must be JSON-serialisable: {exc}") from None
    where = strings.problem_at(out, "metadata")
    if where is not None:
        raise InvalidMemory(where)
    return out


def validate_memory(text: Any, task: Any = None, insights: Any = None, context: Any = None,
                    symbol_keys: Any = None, tags: Any = None, metadata: Any = None) -> MemoryInput:
    """Check every argument of a memory write; return them normalised."""
    if not isinstance(text, str):
        raise InvalidMemory(f"text must be a string, got {type(text).__name__}")
    if not text.strip():
        raise InvalidMemory("text must not be empty")
    why = strings.problem(text, label=False)
    if why is not None:
        raise InvalidMemory(f"text {why}")
    if task is not None and not isinstance(task, str):
        raise InvalidMemory(f"task must be a string like 'task:debug', got {type(task).__name__}")
    return MemoryInput(
        text=text,
        task=check_task(task),
        insights=tuple(check_insights(_str_list("insights", insights))),
        context=tuple(check_context(_str_list("context", context))),
        symbol_keys=check_symbol_keys(symbol_keys),
        tags=check_tags(tags),
        metadata=check_metadata(metadata),
    )


def redact_input(inp: MemoryInput, redactor: Callable[[str], str] | None) -> MemoryInput:
    """Apply the redactor to the text, the tags and every string (keys included) inside the metadata."""
    if redactor is None:
        return inp
    # the constructor, not `dataclasses.replace` (which reads the fields anew per call): one per write
    return MemoryInput(redactor(inp.text), inp.task, inp.insights, inp.context, inp.symbol_keys,
                       tuple([redactor(t) for t in inp.tags]) if inp.tags else (),
                       redact_value(inp.metadata, redactor))


def redact_value(value: Any, redactor: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return redactor(value)
    if isinstance(value, list):
        return [redact_value(v, redactor) for v in value]
    if isinstance(value, dict):
        # keys too: a caller's key is text it gave, stored in the blob record as written
        return {redactor(k): redact_value(v, redactor) for k, v in value.items()}
    return value
