"""`Redactor`: replace every secret in a text with `[REDACTED:<pattern name>]`.

The lead calls it on every write path (memories, indexed files, commit
summaries) before anything reaches storage. Rules:

- Every match of the set (default `pat:secrets`) is redacted. If the pattern
  has a group named `secret`, only that group is replaced (so
  `password = "hunter2"` keeps its key: `password = "[REDACTED:password-assignment]"`),
  else the whole match.
- Overlapping spans are merged into one marker; it names the span that starts
  first (then the longest, then the lowest pattern index).
- A match lying inside a marker already in the text is ignored.
- Idempotent: `redact(redact(t).text).text == redact(t).text`. A marker can
  change what its neighbours match (`\\bAIza...` right after a secret that
  ended in a letter starts matching once that secret is a marker), so the
  redacted text is scanned again, new spans are mapped back to the input and
  the output rebuilt, until a scan finds nothing new (one extra scan in the
  usual case).
- Offsets in `hits` are character offsets into the input text. Matching runs
  on UTF-8 bytes; a span that would cut a character is widened to whole
  characters. Redaction scans do not emit telemetry events.

A `Redactor` reads its set from any `CompiledSets` (a `PatternSetManager`, which itself holds
a `Redactor` to screen the definitions it loads): this module does not import the manager.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Protocol

from reference.patterns.compiled_set import CompiledSet

MARKER = re.compile(rb"\[REDACTED:[a-z0-9_\-]+\]")
SECRETS = "pat:secrets"
MAX_PASSES = 16  # each pass only adds spans, so this bounds a pathological pattern set, not normal use

Span = tuple[int, int, int, str]  # start, end, pattern index, name (byte offsets)


@dataclass(frozen=True)
class RedactionHit:
    """One secret found: which pattern, and where in the input text (characters)."""

    name: str
    pattern_index: int
    start: int
    end: int


@dataclass(frozen=True)
class RedactionResult:
    """The redacted text and the secrets found in the input (never their values)."""

    text: str
    hits: tuple[RedactionHit, ...]

    @property
    def redacted(self) -> bool:
        return bool(self.hits)


class CompiledSets(Protocol):
    """Where a `Redactor` finds its set, looked up at every call (a reloaded set is used at once)."""

    def compiled(self, pattern_set_id: str) -> CompiledSet:
        """The runnable set; `UnknownPatternSet` if it is not loaded."""
        ...


def marker(name: str) -> bytes:
    return f"[REDACTED:{name}]".encode()


class Redactor:
    """Redacts the matches of one pattern set (`pat:secrets` by default)."""

    def __init__(self, manager: CompiledSets, pattern_set_id: str = SECRETS) -> None:
        self.manager = manager
        self.pattern_set_id = pattern_set_id
        manager.compiled(pattern_set_id)  # fail now, not on the first write, if the set is missing

    def redact(self, text: str) -> RedactionResult:
        """Return the text with every secret replaced by a marker, and the hits."""
        data = text.encode("utf-8", "surrogatepass")
        if len(data) < self.manager.compiled(self.pattern_set_id).min_width:
            return RedactionResult(text, ())   # shorter than any match (a tag, a branch name): nothing to scan
        spans = set(self._spans(data))
        if not spans:
            return RedactionResult(text, ())
        for _ in range(MAX_PASSES):
            out, groups = _render(data, spans)
            new = {_to_input(span, groups) for span in self._spans(out)} - spans
            if not new:
                break
            spans |= new
        to_char = _CharOffsets(data)
        hits = tuple(RedactionHit(n, i, to_char(s), to_char(e)) for s, e, i, n in sorted(spans))
        return RedactionResult(out.decode("utf-8", "surrogatepass"), hits)

    def _spans(self, data: bytes) -> list[Span]:
        """Spans to replace in `data`, widened to whole characters, minus those inside markers."""
        cs = self.manager.compiled(self.pattern_set_id)
        matches = cs.scan(data)  # no telemetry: redaction is part of a write
        if not matches:
            return []
        markers = [m.span() for m in MARKER.finditer(data)]
        starts = [s for s, _ in markers]
        out = []
        for m in matches:
            start, end = cs.value_span(m.pattern_index, data, m.start, m.end)
            k = bisect.bisect_right(starts, start) - 1
            if start == end or (k >= 0 and end <= markers[k][1]):
                continue
            while start > 0 and data[start] & 0xC0 == 0x80:
                start -= 1
            while end < len(data) and data[end] & 0xC0 == 0x80:
                end += 1
            out.append((start, end, m.pattern_index, m.name))
        return out


def _render(data: bytes, spans: set[Span]) -> tuple[bytes, list[tuple[int, int, int, int]]]:
    """The text with each merged group replaced, and (in_start, in_end, out_start, out_end) per group."""
    ordered = sorted(spans, key=lambda s: (s[0], -s[1], s[2]))
    pieces, groups, pos, size = [], [], 0, 0
    k = 0
    while k < len(ordered):
        start, end, _, name = ordered[k]  # the first of a group names its marker
        k += 1
        while k < len(ordered) and ordered[k][0] < end:
            end = max(end, ordered[k][1])
            k += 1
        pieces.append(data[pos:start])
        size += start - pos
        mark = marker(name)
        pieces.append(mark)
        groups.append((start, end, size, size + len(mark)))
        size += len(mark)
        pos = end
    pieces.append(data[pos:])
    return b"".join(pieces), groups


def _to_input(span: Span, groups: list[tuple[int, int, int, int]]) -> Span:
    """Map a span of rendered output back to input offsets; a cut marker maps to its whole group."""
    start, end, index, name = span
    return (_map(start, groups, True), _map(end, groups, False), index, name)


def _map(pos: int, groups: list[tuple[int, int, int, int]], is_start: bool) -> int:
    k = bisect.bisect_right([g[2] for g in groups], pos if is_start else pos - 1) - 1
    if k < 0:
        return pos
    in_start, in_end, out_start, out_end = groups[k]
    if (is_start and pos < out_end) or (not is_start and pos <= out_end):
        return in_start if is_start else in_end
    return in_end + (pos - out_end)


class _CharOffsets:
    """Maps byte offsets of UTF-8 `data` (at character boundaries) to character offsets."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.ascii = data.isascii()

    def __call__(self, offset: int) -> int:
        if self.ascii:
            return offset
        return len(self.data[:offset].decode("utf-8", "surrogatepass"))
