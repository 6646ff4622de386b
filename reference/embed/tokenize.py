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

import functools
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
    for raw in _COMPOUND.findall(text):
        compound, parts = _token_terms(raw)
        if compound is not None:
            compounds.append(compound)
        parts_out.extend(parts)
    return compounds, parts_out


def compound_tokens(text: str) -> list[str]:
    """The identifier-like tokens of `text` in order, as `code_terms` reads them (see `token_terms`)."""
    return _COMPOUND.findall(text)


def token_terms(raw: str) -> tuple[str | None, tuple[str, ...]]:
    """One token's share of `code_terms`: (the token lowercased if it has more than one part, else
    None; its parts without stop words)."""
    return _token_terms(raw)


@functools.lru_cache(maxsize=1 << 16)
def _token_terms(raw: str) -> tuple[str | None, tuple[str, ...]]:
    """(the token lowercased if it has more than one part, else None; its parts without stop words)."""
    parts = word_parts(raw)
    return (raw.lower() if len(parts) > 1 else None), tuple(p for p in parts if p not in STOP_WORDS)


def code_tokens(text: str) -> list[str]:
    """Compounds and parts together: the word features of `text`."""
    compounds, parts = code_terms(text)
    return compounds + parts


def stem(word: str) -> str:
    """A light, consistent suffix stripper for ASCII words (not Porter; no dependency).

    Plurals ("queries" -> "query", "classes" -> "class", "tokens" -> "token"),
    then "-ing" / "-ed", then a final "e" and a doubled final consonant, so
    that "cache", "caches", "cached", "caching" all give "cach" and
    "refreshing" meets "refresh". Short, non-ASCII or non-alphabetic words are
    left as they are.
    """
    w = word
    if len(w) <= 3 or not w.isascii() or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w.endswith("ing") and len(w) > 5:
        w = w[:-3]
    elif w.endswith("ed") and len(w) > 4:
        w = w[:-2]
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz" and w[-1].isalpha() and w[-1] not in "aeiou":
        w = w[:-1]
    return w
