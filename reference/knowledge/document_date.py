"""Seed 001 §4 `extractDocumentDate`: when the fact happened, as opposed to when it was recorded.

Tried in order, the first that gives a valid date wins (`date_source` says which):
1. `front_matter`: a leading `---` block with a `date:` line (ISO date/datetime or M/D/YYYY);
2. `file_name`: a `YYYY-MM-DD` in the base name of the memory's source file
   (`metadata.source_path`, set by the note watcher), e.g. `2026-01-25_title.md`;
3. `content_iso`: the first ISO date anywhere in the text (the seed's second regex,
   which it applies to the content);
4. `content_us`: the first `M/D/YYYY` (the seed's last pattern); `content_month_name`: the
   first month-name date (`Jan 25, 2026`);
5. `content_relative`: the first relative expression (yesterday, 3 days ago, ...)
   resolved against the recorded time (an addition: agents write "yesterday").
None of them: no document date; the timeline then uses the recorded date.
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import PurePosixPath
from typing import Any

from reference.knowledge.dates import (ISO_RE, US_RE, absolute_dates, day_start, parse_time_arg,
                                       relative_dates)
from reference.knowledge.errors import InvalidTime

_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
_DATE_LINE = re.compile(r"^date[ \t]*:[ \t]*[\"']?([^\"'\r\n]+?)[\"']?[ \t]*$", re.M | re.I)
_NAME_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def front_matter_date(text: str) -> float | None:
    m = _FRONT_MATTER.match(text)
    if not m or not (line := _DATE_LINE.search(m.group(1))):
        return None
    value = line.group(1).strip()
    us = US_RE.fullmatch(value)
    if us:
        return _day(int(us[3]), int(us[1]), int(us[2]))
    try:
        return parse_time_arg(value, "front matter date")
    except InvalidTime:
        return None


def file_name_date(source_path: str | None) -> float | None:
    if not source_path:
        return None
    m = _NAME_DATE.search(PurePosixPath(source_path.replace("\\", "/")).name)
    return _day(int(m[1]), int(m[2]), int(m[3])) if m else None


def _day(y: int, m: int, d: int) -> float | None:
    try:
        return day_start(date(y, m, d))
    except ValueError:
        return None


def extract_document_date(text: str, metadata: dict[str, Any] | None, recorded: float) -> tuple[float | None, str]:
    """(document date as Unix seconds or None, the rule that found it or "none")."""
    if (ts := front_matter_date(text)) is not None:
        return ts, "front_matter"
    if (ts := file_name_date((metadata or {}).get("source_path"))) is not None:
        return ts, "file_name"
    found = absolute_dates(text)
    for rule, source in (("iso", "content_iso"), ("us", "content_us"), ("month_name", "content_month_name")):
        for m in found:
            if m.rule == rule:
                return day_start(m.day), source
    rel = relative_dates(text, recorded)
    if rel:
        return day_start(rel[0].day), "content_relative"
    return None, "none"


__all__ = ["ISO_RE", "extract_document_date", "file_name_date", "front_matter_date"]
