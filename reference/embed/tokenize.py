"""Code-aware word tokenisation for the hashing embedder.

`code_tokens("getUserName in src/auth/token_store.py")` yields the whole
compound lowercased ("getusername", "src/auth/token_store.py") and its parts
("get", "user", "name", "src", "auth", "token", "store", "py"): snake_case,
camelCase, dotted names and paths are split so that a query word meets the
identifier it is part of. A short list of English function words (and
`self`) is dropped from the parts; scikit-learn's list is not used because it
holds words that matter in code ("get", "call", "find", "system", "name").
"""
from __future__ import annotations

import re

STOP_WORDS = frozenset(
    "a an and are as at be been but by did do does for from had has have he her him his how i if in into is it "
    "its me my of on or our she so than that the their them then there these they this those to us was we were "
    "what when where which who why will with you your self".split()
)
_COMPOUND = re.compile(r"\w+(?:[./:\-]+\w+)*", re.UNICODE)
_SEPARATORS = re.compile(r"[./:\-_]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def word_parts(token: str) -> list[str]:
    """The lowercased pieces of one identifier-like token, in order."""
    out: list[str] = []
    for piece in _SEPARATORS.split(token):
        if not piece:
            continue
        # camelCase splitting is ASCII-only: other scripts keep the piece whole
        subs = _CAMEL.findall(piece) if piece.isascii() else [piece]
        out.extend(sub.lower() for sub in subs)
    return out


def code_terms(text: str) -> tuple[list[str], list[str]]:
    """(compounds lowercased, when they have more than one part; parts without stop words)."""
    compounds: list[str] = []
    parts_out: list[str] = []
    for m in _COMPOUND.finditer(text):
        raw = m.group(0)
        parts = word_parts(raw)
        if len(parts) > 1:
            compounds.append(raw.lower())
        parts_out.extend(p for p in parts if p not in STOP_WORDS)
    return compounds, parts_out


def code_tokens(text: str) -> list[str]:
    """Compounds and parts together: the word features of `text`."""
    compounds, parts = code_terms(text)
    return compounds + parts
