"""Rule-based entity extraction (seed 001 §2, option B, extended for code; no LLM).

Rules run in a fixed order; each claims the characters it matched, and a
later rule never takes a match that overlaps a claimed span (so `src/a.py`
is one file, not also a dotted symbol). Order, entity type, confidence:

| rule | finds | type | conf |
|---|---|---|---|
| masks | URLs and e-mail addresses are blanked first | - | - |
| sym_key | `sym:path#Name:kind:1:9` | symbol `path#name` | 1.0 |
| file_key | `file:path` | file | 1.0 |
| slug | `project:x`, `agent:x`, `feature:x`, ... (seed 004 resolver) | the prefix | 1.0 |
| dates | ISO / US / month-name dates; relative dates | time (`YYYY-MM-DD`) | 1.0 / 0.9 / 0.95; 0.85 |
| path | paths with a slash (file or directory), bare file names | file / dir | 0.95 / 0.8 / 0.8 |
| path_slug | seed 004 `src/features/auth` -> `feature:auth` (inside a path span) | the container kind | 0.9 |
| path_module | a Python file is a module: `pkg/sub/mod.py` -> `pkg.sub.mod`, `pkg/__init__.py` -> `pkg` (every part an identifier) | module | 0.8 |
| issue | `#123` (not after a letter, digit, `_`, `/` or `&`: not an anchor or an entity) | issue (`123`) | 0.9 |
| module | `from a.b import`, `import a.b` (line start, code span or dotted), `module a.b` | module | 0.9 / 0.8 |
| dotted | `authClient.refresh`, `os.path.join()`; every part an identifier, not all one letter | symbol | 0.7 |
| call | `refresh_token()` | symbol | 0.75 |
| code_span | an identifier in backticks, `` `getUserName` `` | symbol | 0.8 |
| camel | a bare camelCase word, `getCartTotal` (lowercase run, capital, lowercase: not `iOS`, `macOS`) | symbol | 0.6 |
| gazetteer | configured names (people, places, concepts), case-insensitive whole words | its type | 0.9 |
| concepts | `metadata.concepts` (oracle_learn's `concepts`); position: first run of its tokens in the text | concept | 1.0 |

Normalised names: lowercased and trimmed (seed 001), except paths, which
keep their case and are normalised as paths; times are the ISO day.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping
from typing import Any

from reference.knowledge.dates import absolute_dates, relative_dates
from reference.knowledge.model import ExtractedMention, mention
from reference.knowledge.paths import find_paths, path_slugs

SLUG_TYPES = ("project", "agent", "feature", "component", "service", "package", "app", "plugin", "lib")
CONTEXT_CHARS = 40
MAX_ANCHORS = 256
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTTED = rf"{_IDENT}(?:\.{_IDENT})+"
_MASK = re.compile(r"\b(?:https?|ftp)://\S+|\b[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+")
_SYM_KEY = re.compile(r"\bsym:(?P<path>[^\s#]+)#(?P<name>[^:\s]+):(?P<kind>[a-z_]+):\d+:\d+")
_FILE_KEY = re.compile(r"\bfile:(?P<path>[^\s#]+[^\s#.,;:!?)])")
_SLUG = re.compile(r"(?<![\w/.\-])(?P<kind>" + "|".join(SLUG_TYPES) + r"):(?P<slug>[A-Za-z0-9][A-Za-z0-9_\-]*)")
_FROM_IMPORT = re.compile(rf"\bfrom\s+(?P<name>{_IDENT}(?:\.{_IDENT})*)\s+import\b")
_IMPORT = re.compile(rf"(?:^|(?<=[;`]))[ \t]*import\s+(?P<name>{_IDENT}(?:\.{_IDENT})*)"
                     rf"|\bimport\s+(?P<dotted>{_DOTTED})", re.M)
_MODULE_WORD = re.compile(rf"\b(?:module|package)\s+`?(?P<name>{_DOTTED})`?")
_DOTTED_RE = re.compile(rf"(?<![\w.])(?P<name>{_DOTTED})(?P<call>\(\))?(?![\w])")
_CALL = re.compile(rf"(?<![\w.])(?P<name>{_IDENT})\(\)")
_CAMEL = re.compile(r"(?<![\w`])(?P<name>[a-z]+[A-Z][a-z]+[A-Za-z0-9]*)(?![\w(`])")
_CODE_SPAN = re.compile(rf"`(?P<name>{_IDENT}(?:\.{_IDENT})*)(?:\(\))?`")
# (regex, confidence, words one of which every match contains)
_MODULE_RULES = ((_FROM_IMPORT, 0.9, ("import",)), (_IMPORT, 0.9, ("import",)), (_MODULE_WORD, 0.8, ("module", "package")))
PREFILTER = True   # False: every rule scans every text (the tests compare both)
_EMAIL_AT = re.compile(r"[\w.+\-]@[\w\-]")   # the three characters around the @ of every e-mail match
_SLUG_WORDS = tuple(kind + ":" for kind in SLUG_TYPES)   # every slug match holds one (case-sensitive)
_CAMEL_CORE = re.compile(r"[a-z][A-Z][a-z]")
_ISSUE = re.compile(r"(?<![\w/&])#(?P<n>\d+)\b")
_IDENT_ONLY = re.compile(rf"^{_IDENT}$")   # every camel match holds it; no look-behind to test per character


class _Claims:
    """Character spans already taken by an earlier rule: disjoint, kept sorted, checked by bisection.

    A linear list would make extraction quadratic in the number of mentions."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def free(self, start: int, end: int) -> bool:
        k = bisect.bisect_right(self.starts, start)
        if k > 0 and self.ends[k - 1] > start:          # the span starting at or before `start` reaches into it
            return False
        return not (k < len(self.starts) and self.starts[k] < end)  # nor does the next one start inside it

    def take(self, start: int, end: int) -> None:
        k = bisect.bisect_right(self.starts, start)
        self.starts.insert(k, start)
        self.ends.insert(k, end)


class _Tokens:
    """First occurrence of a token sequence in a text, case-insensitive, by an index of its tokens.

    Tokens are runs of word characters or single other non-space characters; a
    concept is found where its tokens appear in a row (whitespace between them
    free). Built once per text; a lookup checks the occurrences of the phrase's
    rarest token, at most `MAX_ANCHORS` of them (so a phrase made only of words
    the text repeats thousands of times may go unplaced: position None).
    """

    _TOKEN = re.compile(r"\w+|[^\w\s]")

    def __init__(self, text: str) -> None:
        self.spans: list[tuple[int, int]] = []
        self.words: list[str] = []
        self.first: dict[str, list[int]] = {}
        for i, m in enumerate(self._TOKEN.finditer(text)):
            word = m.group(0).lower()
            self.spans.append(m.span())
            self.words.append(word)
            self.first.setdefault(word, []).append(i)

    def find(self, phrase: str) -> tuple[int, int] | None:
        want = [w.lower() for w in self._TOKEN.findall(phrase)]
        if not want:
            return None
        # anchor on the phrase's rarest token: few candidates to check, whatever the text repeats
        lists = [self.first.get(w, ()) for w in want]
        j = min(range(len(want)), key=lambda t: len(lists[t]))
        n = len(want)
        for a in lists[j][:MAX_ANCHORS]:
            i = a - j
            if i >= 0 and self.words[i: i + n] == want:
                return self.spans[i][0], self.spans[i + n - 1][1]
        return None


class EntityExtractor:
    """Deterministic extractor; `gazetteer` maps a type (person, place, ...) to names to find."""

    def __init__(self, gazetteer: Mapping[str, Iterable[str]] | None = None) -> None:
        self.gazetteer = [(t, n, re.compile(rf"(?<!\w){re.escape(n)}(?!\w)", re.I))
                          for t, names in sorted((gazetteer or {}).items()) for n in sorted(set(names)) if n.strip()]

    def extract(self, text: str, reference_time: float, metadata: Mapping[str, Any] | None = None
                ) -> list[ExtractedMention]:
        """Mentions in `text` ordered by position; relative dates resolve against `reference_time`."""
        # every rule's regex needs a character or word a plain sentence lacks: test for it first
        # (a substring test is a fraction of a regex scan; `PREFILTER = False` runs every scan)
        pre = not PREFILTER
        masked = _MASK.sub(lambda m: " " * len(m.group(0)), text) if pre or "://" in text or _has_email_at(text) \
            else text
        claims = _Claims()
        out: list[ExtractedMention] = []

        def add(type_: str, name: str, norm: str, start: int | None, end: int | None, conf: float, rule: str,
                claim: bool = True, **meta: Any) -> None:
            if start is not None and claim:
                if not claims.free(start, end):
                    return
                claims.take(start, end)
            surface = text[start:end] if start is not None else name
            out.append(mention(type_, name, norm, start, end, surface, conf, rule, meta))

        colon, dot, slash = pre or ":" in masked, pre or "." in masked, pre or "/" in masked
        if colon and (pre or "sym:" in masked):
            for m in _SYM_KEY.finditer(masked):
                qual = f"{m['path']}#{m['name']}"
                add("symbol", qual, qual.lower(), m.start(), m.end(), 1.0, "sym_key", kind=m["kind"])
        if colon and (pre or "file:" in masked):
            for m in _FILE_KEY.finditer(masked):
                add("file", m["path"], m["path"], m.start(), m.end(), 1.0, "file_key")
        if colon and (pre or any(w in masked for w in _SLUG_WORDS)):
            for m in _SLUG.finditer(masked):
                add(m["kind"], m["slug"], m["slug"].lower(), m.start(), m.end(), 1.0, "slug")
        for d in absolute_dates(masked):
            conf = {"iso": 1.0, "us": 0.9, "month_name": 0.95}[d.rule]
            add("time", d.day.isoformat(), d.day.isoformat(), d.start, d.end, conf, "date_" + d.rule)
        for d in relative_dates(masked, reference_time):
            add("time", d.day.isoformat(), d.day.isoformat(), d.start, d.end, 0.85, "date_relative", relative=True)
        for p in (find_paths(masked) if dot or slash else ()):
            if not claims.free(p.start, p.end):
                continue
            has_dir = "/" in p.surface
            add("file" if p.is_file else "dir", p.normalized, p.normalized, p.start, p.end,
                0.95 if (p.is_file and has_dir) else 0.8, "path")
            for s in path_slugs(p):
                add(s.kind, s.slug, s.slug, s.start, s.end, 0.9, "path_slug", claim=False)
            if p.is_file and p.normalized.endswith(".py"):
                module = _python_module(p.normalized)
                if module:
                    add("module", module, module.lower(), p.start, p.end, 0.8, "path_module", claim=False)
        if pre or "#" in masked:
            for m in _ISSUE.finditer(masked):
                add("issue", m["n"], m["n"], m.start(), m.end(), 0.9, "issue")
        for rx, conf, needs in _MODULE_RULES:
            if pre or any(w in masked for w in needs):
                for m in rx.finditer(masked):
                    group = "dotted" if m.groupdict().get("dotted") else "name"
                    add("module", m[group], m[group].lower(), m.start(group), m.end(group), conf, "module")
        if dot:
            for m in _DOTTED_RE.finditer(masked):
                name = m["name"]
                if all(len(part) == 1 for part in name.split(".")):
                    continue  # e.g., i.e., a.m.
                add("symbol", name, name.lower(), m.start(), m.end(), 0.7, "dotted")
        if pre or "()" in masked:
            for m in _CALL.finditer(masked):
                add("symbol", m["name"], m["name"].lower(), m.start(), m.end(), 0.75, "call")
        if pre or "`" in masked:
            for m in _CODE_SPAN.finditer(masked):
                add("symbol", m["name"], m["name"].lower(), m.start("name"), m.end("name"), 0.8, "code_span")
        if pre or (masked.lower() != masked and _CAMEL_CORE.search(masked)):   # camelCase needs a capital letter
            for m in _CAMEL.finditer(masked):
                add("symbol", m["name"], m["name"].lower(), m.start(), m.end(), 0.6, "camel")
        for type_, name, rx in self.gazetteer:
            for m in rx.finditer(masked):
                add(type_, name, name.lower().strip(), m.start(), m.end(), 0.9, "gazetteer")
        concepts = _concepts(metadata)
        tokens = _Tokens(text) if concepts else None
        for concept in concepts:
            span = tokens.find(concept) or (None, None)
            add("concept", concept, concept.lower(), *span, 1.0, "concept", claim=False)
        out.sort(key=lambda x: (x.position if x.position is not None else len(text), x.type, x.normalized))
        return out


def _python_module(path: str) -> str | None:
    """`pkg/sub/mod.py` -> `pkg.sub.mod`, `pkg/__init__.py` -> `pkg`; None unless every part is an identifier."""
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) if parts and all(_IDENT_ONLY.match(x) for x in parts) else None


def _has_email_at(text: str) -> bool:
    """Whether an `@` of `text` sits between characters an e-mail address allows (diff hunk headers, `@@`,
    and decorators do not), found with `str.find`: most texts hold few `@`, if any."""
    at = text.find("@", 1)
    while at != -1:
        if _EMAIL_AT.match(text, at - 1):
            return True
        at = text.find("@", at + 1)
    return False


def _concepts(metadata: Mapping[str, Any] | None) -> list[str]:
    values = (metadata or {}).get("concepts") or []
    if isinstance(values, str):
        values = [values]
    return [" ".join(str(v).split()) for v in values if isinstance(v, str) and v.strip()]


def mention_context(text: str, start: int | None, end: int | None, chars: int = CONTEXT_CHARS) -> str:
    """Up to `chars` characters either side of the mention, whitespace collapsed."""
    if start is None:
        return ""
    return " ".join(text[max(0, start - chars): min(len(text), end + chars)].split())
