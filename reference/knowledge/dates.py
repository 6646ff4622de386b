"""Dates in text (absolute and relative) and time arguments.

Absolute forms: ISO `2026-01-25` (optionally with a time), US `1/25/2026`
(month first, as the seed's JavaScript `new Date` reads it) and month names
(`Jan 25, 2026`, `25 January 2026`). Relative forms are resolved against a
reference time, the memory's recorded time from the injected clock, never
the wall clock: today/tonight/this morning, yesterday, tomorrow, last/next
week (7 days), last/next month (calendar month, day clamped), last year,
`N days|weeks|months|years ago`, `in N days|weeks`, `last <weekday>` (the
latest such day strictly before the reference day). All dates are UTC days.
"""
from __future__ import annotations

import calendar
import functools
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any

from reference.knowledge.errors import InvalidTime

_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS |= {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
_MONTHS["sept"] = 9
_MONTH_RE = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?"
             r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10}
_N = r"(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)"
_WEEKDAYS = [d.lower() for d in calendar.day_name]

ISO_RE = re.compile(r"(?<![\d\-/])(\d{4})-(\d{2})-(\d{2})"
                    r"(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\d\-])")
US_RE = re.compile(r"(?<![\d/\w])(\d{1,2})/(\d{1,2})/(\d{4})(?![\d/])")
MONTH_FIRST_RE = re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)
DAY_FIRST_RE = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH_RE})\.?,?\s+(\d{{4}})\b", re.I)
_FOUR_DIGITS = re.compile(r"\d{4}")
_MONTH_WORD = re.compile(_MONTH_RE, re.I)   # every month-name date has one
_SPACE_YEAR = re.compile(r"\s\d{4}")         # and its year follows whitespace
# the digits every ISO / US date holds, without the regexes' look-behinds (which cost a test at every character)
_ISO_CORE = re.compile(r"\d{4}-\d\d-\d\d")
_US_CORE = re.compile(r"\d/\d\d?/\d{4}")
_MONTH_PREFIXES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# Each rule runs only on a text holding a character or word all its matches hold (an ISO date a "-", a US
# date a "/", ...): a substring test costs a fraction of the scan. False: every rule scans (tests compare both).
PREFILTER = True
_RELATIVE = [
    (re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", re.I), lambda m, d: d),
    (re.compile(r"\byesterday\b", re.I), lambda m, d: d - timedelta(days=1)),
    (re.compile(r"\btomorrow\b", re.I), lambda m, d: d + timedelta(days=1)),
    (re.compile(r"\blast week\b", re.I), lambda m, d: d - timedelta(days=7)),
    (re.compile(r"\bnext week\b", re.I), lambda m, d: d + timedelta(days=7)),
    (re.compile(r"\blast month\b", re.I), lambda m, d: add_months(d, -1)),
    (re.compile(r"\bnext month\b", re.I), lambda m, d: add_months(d, 1)),
    (re.compile(r"\blast year\b", re.I), lambda m, d: add_months(d, -12)),
    (re.compile(rf"\b{_N} (day|week|month|year)s? ago\b", re.I), lambda m, d: shift(d, -_count(m[1]), m[2])),
    (re.compile(rf"\bin {_N} (day|week)s?\b", re.I), lambda m, d: shift(d, _count(m[1]), m[2])),
    (re.compile(r"\blast (" + "|".join(_WEEKDAYS) + r")\b", re.I), lambda m, d: last_weekday(d, m[1])),
]

# For each rule of `_RELATIVE`, words one of which every match contains: a text without any skips the rule
_RELATIVE_NEEDS = [("today", "tonight", "morning", "afternoon", "evening"), ("yesterday",), ("tomorrow",),
                   ("last week",), ("next week",), ("last month",), ("next month",), ("last year",), ("ago",),
                   ("day", "week"), ("last ",)]
assert len(_RELATIVE_NEEDS) == len(_RELATIVE)
_RELATIVE_WORDS = tuple(w for needs in _RELATIVE_NEEDS for w in needs)   # one test rules out every rule


@dataclass(frozen=True)
class DateMatch:
    """A date found in text: where, the surface text, the UTC day it means and the rule that found it."""

    start: int
    end: int
    surface: str
    day: date
    rule: str          # iso | us | month_name | relative

    @property
    def relative(self) -> bool:
        return self.rule == "relative"


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS[word.lower()]


def add_months(d: date, months: int) -> date:
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    return date(year, month, min(d.day, calendar.monthrange(year, month)[1]))


def shift(d: date, n: int, unit: str) -> date:
    unit = unit.lower()
    if unit == "day":
        return d + timedelta(days=n)
    if unit == "week":
        return d + timedelta(days=7 * n)
    return add_months(d, n if unit == "month" else 12 * n)


def last_weekday(d: date, name: str) -> date:
    back = (d.weekday() - _WEEKDAYS.index(name.lower())) % 7 or 7
    return d - timedelta(days=back)


def utc_day(ts: float) -> date:
    return datetime.fromtimestamp(ts, tz=timezone.utc).date()


def day_start(d: date) -> float:
    """Unix seconds of 00:00 UTC on day `d`."""
    return datetime(d.year, d.month, d.day, tzinfo=timezone.utc).timestamp()


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _has_month(text: str) -> bool:
    if text.isascii():   # there re.I and lower() agree
        low = text.lower()
        return any(m in low for m in _MONTH_PREFIXES)
    return _MONTH_WORD.search(text) is not None


def absolute_dates(text: str) -> list[DateMatch]:
    """ISO, US and month-name dates in `text`, by position; invalid calendar dates are skipped."""
    return list(_absolute_dates(text))


@functools.lru_cache(maxsize=8)   # the extractor and the document date read the same text in turn
def _absolute_dates(text: str) -> tuple[DateMatch, ...]:
    out: list[DateMatch] = []
    pre = not PREFILTER
    if not _FOUR_DIGITS.search(text):   # every absolute form has a four-digit year
        return ()
    if pre or ("-" in text and _ISO_CORE.search(text)):
        for m in ISO_RE.finditer(text):
            if (day := _safe_date(int(m[1]), int(m[2]), int(m[3]))) is not None:
                out.append(DateMatch(m.start(), m.end(), m[0], day, "iso"))
    if pre or ("/" in text and _US_CORE.search(text)):
        for m in US_RE.finditer(text):
            if (day := _safe_date(int(m[3]), int(m[1]), int(m[2]))) is not None:
                out.append(DateMatch(m.start(), m.end(), m[0], day, "us"))
    if pre or (_SPACE_YEAR.search(text) and _has_month(text)):
        for rx, (mi, di) in ((MONTH_FIRST_RE, (1, 2)), (DAY_FIRST_RE, (2, 1))):
            for m in rx.finditer(text):
                day = _safe_date(int(m[3]), _MONTHS[m[mi].lower().rstrip(".")], int(m[di]))
                if day is not None:
                    out.append(DateMatch(m.start(), m.end(), m[0], day, "month_name"))
    return tuple(sorted(out, key=lambda x: (x.start, -x.end)))


def relative_dates(text: str, reference: float) -> list[DateMatch]:
    """Relative date expressions resolved against the UTC day of `reference` (Unix seconds)."""
    return list(_relative_dates(text, reference))


@functools.lru_cache(maxsize=8)
def _relative_dates(text: str, reference: float) -> tuple[DateMatch, ...]:
    low = text.lower() if text.isascii() and PREFILTER else None   # ASCII: there re.I and lower() agree
    if low is not None and not any(w in low for w in _RELATIVE_WORDS):
        return ()
    ref_day = utc_day(reference)
    out = [DateMatch(m.start(), m.end(), m[0], fn(m, ref_day), "relative")
           for (rx, fn), needs in zip(_RELATIVE, _RELATIVE_NEEDS)
           if low is None or any(w in low for w in needs) for m in rx.finditer(text)]
    return tuple(sorted(out, key=lambda x: (x.start, -x.end)))


def parse_time_arg(value: Any, what: str) -> float | None:
    """A time argument as Unix seconds: None, a number, `YYYY-MM-DD` or an ISO-8601 datetime."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise InvalidTime(f"{what}: expected an ISO-8601 date or Unix seconds, got {value!r}")
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        s = value.strip()
        try:
            if len(s) == 10:
                return day_start(date.fromisoformat(s))
            dt = datetime.fromisoformat(s.replace("Z", "+00:00"))
        except ValueError:
            raise InvalidTime(f"{what}: {value!r} is not an ISO-8601 date (YYYY-MM-DD) or datetime") from None
        if dt.tzinfo is None:
            dt = dt.replace(tzinfo=timezone.utc)
        return dt.timestamp()
    raise InvalidTime(f"{what}: expected an ISO-8601 date or Unix seconds, got {type(value).__name__}")
