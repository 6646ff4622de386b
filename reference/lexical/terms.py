"""Code-aware index terms: the same rules for memories and queries.

`index_terms("Fix Table.insert_all in sqlite_utils/db.py")` gives the whole
compounds lowercased and unstemmed ("table.insert_all", "sqlite_utils/db.py")
and their parts, stemmed ("fix", "tabl", "insert", "all", "sqlit", "util",
"db", "py"): a query word meets the identifier or path it is part of, and a
whole identifier or path quoted in a query meets exactly that one. The
splitting (snake_case, camelCase, dotted names, paths) and the stop words
are the hashing embedder's (`reference/embed/tokenize.py`), so the keyword
and vector sides read text the same way; the stemmer is its light suffix
stripper (plurals, -ing, -ed; no dependency).

`entity_terms` picks, among a text's compounds, the ones that name files:
a compound holding `/` (a path) or ending in a source or document file
extension (`setup.py`, `README.md`). They are what query-time expansion
(`expansion.py`) follows between memories: seed 001's "relates through
shared entities", without a model. Dotted code names (`Table.insert_all`,
`self.db.execute` in a patch line) were tried as entities too and followed
worse on the calibration split (mean nDCG@10 .344 against .363 for files
alone, bench/calibration/lexical.py's replay): a patch's dotted expressions
are mostly attribute accesses shared by unrelated changes.
"""
from __future__ import annotations

import functools
import re
from itertools import chain

from reference.embed.tokenize import compound_tokens, stem, token_terms


@functools.lru_cache(maxsize=1 << 16)
def _raw_terms(raw: str) -> tuple[str, ...]:
    compound, parts = token_terms(raw)
    stemmed = tuple(stem(p) for p in parts)
    return stemmed if compound is None else (compound, *stemmed)


def index_terms(text: str) -> list[str]:
    """Every term of `text` in order, repeats kept (term frequency counts them)."""
    return list(chain.from_iterable(map(_raw_terms, compound_tokens(text))))   # no Python loop: ~35 terms a text


# file extensions of source, configuration and documentation files (a name ending in one is a file)
_FILE_EXT = re.compile(r"\.(py|pyi|pyx|md|rst|txt|toml|cfg|ini|ya?ml|json|js|jsx|ts|tsx|c|h|cc|cpp|hpp|rs|go|java|"
                       r"kt|rb|php|sh|bat|html?|css|scss|sql|in|lock|xml|csv)$")


@functools.lru_cache(maxsize=1 << 16)
def is_entity(term: str) -> bool:
    """A file: a path (holds `/`) or a name with a file extension, and at least one letter."""
    return ("/" in term or _FILE_EXT.search(term) is not None) and any(c.isalpha() for c in term)


# a definition a text names: `def name(` / `class Name:` as a patch's hunk headers and code quote them
_DEFINITION = re.compile(r"\b(?:def|class)\s+([A-Za-z_]\w*)")


def entity_terms(text: str, definitions: bool = False) -> list[str]:
    """The distinct entity terms of `text` in first-seen order: its files (`is_entity`), and with
    `definitions` also `def:<name>` (lowercased) for each function or class it defines or names
    after `def` / `class`."""
    seen: dict[str, None] = {}
    for t in index_terms(text):
        if is_entity(t):
            seen.setdefault(t, None)
    if definitions:
        for name in _DEFINITION.findall(text):
            seen.setdefault("def:" + name.lower(), None)
    return list(seen)


def file_names(text: str) -> list[str]:
    """The distinct files `text` names, as written (case kept: a path is case-sensitive), in first-seen order."""
    seen: dict[str, None] = {}
    for raw in filter(_MAY_BE_FILE, compound_tokens(text)):   # most tokens hold neither "/" nor "."
        if is_entity(raw.lower()):
            seen.setdefault(raw, None)
    return list(seen)


_MAY_BE_FILE = re.compile(r"[./]").search   # `is_entity` wants a "/" or a file extension, which starts with "."
