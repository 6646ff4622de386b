"""Identifier-like names in a memory's text: the text half of the same-subject check (seed 001 §3).

Two notes written from one sentence template ("Component comp3 handles the schema and queue path;
its queue step failed once in build 1003." / "... comp23 ... 1023.") are alike in wording (cosine
above the update threshold) and a number differs, so the contradiction rule calls the newer one
an update of the older. What tells they are about different things is the thing they name:
`comp3` and `comp23`. The entity extractor does not take such a bare name (it is neither a path,
a module, a call, a dotted name, a code span nor camelCase), so the relationship rules also read
the names from the text: two memories that both name something and share no name are about
different subjects, like two that name files and share none (`relations.py`).

A name is a word token (the contradiction rule's tokens: letters, digits and `_ . / : # -`,
trailing punctuation stripped) holding a letter that is not a number with a unit (`200ms`,
`10%`) and holds a digit (`comp3`, `sha256`, `utf-8`), an underscore (`max_retries`), a
lowercase letter followed by a capital (`resetMailer`), or a `.` `/` `:` or `#` between two
characters of which the parts around it are not all one letter (`os.path`, `README.md`,
`src/a.py`, `task:debug`; not `e.g.`, nor two words joined by one slash: `and/or`).
Plain words, hyphenated words (`follow-up`) and numbers are not names. Names compare lowercased.

A known cost, the same as the file rule's: a note whose only name is a value that looks like one
("reads files as utf-8" -> "... as utf-16") is taken for a note about another subject, so that
change is `relates_to`, not `updates`.
"""
from __future__ import annotations

import re

_TOKEN = re.compile(r"[\w./:#\-']+")
_STRIP = ".,;:!?'\"-"
_NUMBER = re.compile(r"^\d+(?:\.\d+)?[a-z%]*$", re.I)
_LETTER = re.compile(r"[^\W\d_]")
_CAMEL = re.compile(r"[a-z][A-Z]")
_SEPARATOR = re.compile(r"[./:#]")


def _is_name(tok: str) -> bool:
    if not _LETTER.search(tok) or _NUMBER.match(tok):
        return False
    if "_" in tok or _CAMEL.search(tok) or any(c.isdigit() for c in tok):
        return True
    parts = [p for p in _SEPARATOR.split(tok) if p]
    if len(parts) < 2 or all(len(p) == 1 for p in parts):   # no separator between characters; `e.g`
        return False
    return not (len(parts) == 2 and "/" in tok and "." not in tok)   # `and/or`, `client/server`: prose


def names(text: str) -> frozenset[str]:
    """The identifier-like names of `text`, lowercased (module docstring)."""
    out = set()
    for raw in _TOKEN.findall(text):
        tok = raw.strip(_STRIP)
        if tok and _is_name(tok):
            out.add(tok.lower())
    return frozenset(out)


def different_names(old: frozenset[str], new: frozenset[str]) -> bool:
    """Both texts name something and share no name: they are about different subjects."""
    return bool(old) and bool(new) and not old & new
