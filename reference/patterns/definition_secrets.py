r"""Secrets in a pattern-set definition given by a caller: redact the free text, refuse the rest.

A definition loaded through `PatternSetManager.load` (hence the MCP tool `pattern_load`)
reaches disk: the server keeps it under `<data>/pattern_sets/`, and the compiled
Hyperscan database (`<data>/patterns/*.hsdb`) holds a regex's literal bytes. So:

- `description` and `tags` are free text: redacted (`[REDACTED:<kind>]`), as memories are.
- `patterns` and allow-list patterns are refused when their text holds a secret
  written out as a literal (`AKIA...` in full, `password=hunter2`): a regex that
  literally contains a secret is that secret on disk, and redacting it would
  silently change what it matches. Every stored text is redacted anyway, so such a
  pattern could never match a memory; write the secret's shape instead
  (`AKIA[0-9A-Z]{16}`). A secret match whose text holds a regex metacharacter
  (`\ [ ] ( ) { } * + ? | ^ $`) is a shape, not a value (`-----BEGIN.*KEY-----`,
  `token=\S+`), and is kept. An escaped punctuation character (`\.`, `\=`, `\-`) is a
  literal, not a metacharacter: the regex is screened as the literal text it matches
  (`literal_view`), so `eyJ...\.eyJ...\.sig` is the JWT it spells and is refused.
- `id` and `names` are keys (file names, match results): refused too, since
  redacting them would rename the set or pattern behind the caller's back.

Refusals name the field and the secret kinds, never the value.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from reference.patterns.errors import PatternError

METACHARS = frozenset("\\[](){}*+?|^$")


class _Hit(Protocol):
    name: str
    start: int
    end: int


class _Result(Protocol):
    text: str
    hits: tuple[_Hit, ...]


def screen_definition(definition: Any, redact: Callable[[str], _Result]) -> Any:
    """A copy of `definition` with description and tags redacted; `PatternError` if a key or regex holds a secret.

    `redact` is `Redactor.redact` (text -> result with `.text` and `.hits`). Anything
    that is not a dict, or fields of the wrong type, pass unchanged: `parse_definition`
    reports those.
    """
    if not isinstance(definition, dict):
        return definition
    set_id = definition.get("id")
    if isinstance(set_id, str) and redact(set_id).hits:
        found = redact(set_id)
        raise PatternError(f"pattern set id {found.text[:80]!r} carries a secret ({_kinds(found.hits)}); "
                           "ids are stored in file names: choose another id")
    label = f"pattern set {set_id[:80]!r}" if isinstance(set_id, str) else "pattern set"
    out = dict(definition)
    for i, text in _strings(definition.get("names")):
        _refuse_secret(label, f"names[{i}]", text, redact, set_id, shapes=False)
    for i, text in _strings(definition.get("patterns")):
        _refuse_secret(label, f"patterns[{i}]", text, redact, set_id)
    allow = definition.get("allow")
    if isinstance(allow, list):
        for k, entry in enumerate(allow):
            if isinstance(entry, dict):
                for i, text in _strings(entry.get("patterns")):
                    _refuse_secret(label, f"allow[{k}].patterns[{i}]", text, redact, set_id)
    if isinstance(definition.get("description"), str):
        out["description"] = redact(definition["description"]).text
    if isinstance(definition.get("tags"), list):
        out["tags"] = [redact(t).text if isinstance(t, str) else t for t in definition["tags"]]
    return out


def _strings(value: Any) -> list[tuple[int, str]]:
    return [(i, v) for i, v in enumerate(value) if isinstance(v, str)] if isinstance(value, list) else []


def literal_view(regex: str) -> tuple[str, list[bool]]:
    """The text a regex spells with escaped punctuation read as literals, and which characters are operators.

    `\\.` becomes `.` (a literal); an unescaped metacharacter and an escape such as
    `\\d` or `\\S` (a class, not one character) are operators. A secret found over
    operators is a shape; one found over literals only is the secret itself.
    """
    chars: list[str] = []
    operator: list[bool] = []
    i = 0
    while i < len(regex):
        c = regex[i]
        if c == "\\" and i + 1 < len(regex):
            nxt = regex[i + 1]
            if nxt.isalnum():
                chars += [c, nxt]
                operator += [True, True]
            else:
                chars.append(nxt)
                operator.append(False)
            i += 2
            continue
        chars.append(c)
        operator.append(c in METACHARS)
        i += 1
    return "".join(chars), operator


def _refuse_secret(label: str, where: str, text: str, redact: Callable[[str], _Result], set_id: Any,
                   shapes: bool = True) -> None:
    if shapes:
        view, operator = literal_view(text)
        hits = [h for h in redact(view).hits if not any(operator[h.start:h.end])]
    else:
        hits = list(redact(text).hits)
    if hits:
        raise PatternError(f"{label}: {where} contains a secret ({_kinds(hits)}); a pattern set is stored "
                           "on disk, so write the secret's shape (e.g. AKIA[0-9A-Z]{16}), not its value",
                           set_id=set_id if isinstance(set_id, str) else None)


def _kinds(hits: Any) -> str:
    return ", ".join(sorted({h.name for h in hits}))
