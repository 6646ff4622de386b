"""Time arguments, relative dates and the document-date precedence of seed 001 §4."""
from datetime import date, datetime, timezone

import pytest

from reference.knowledge.dates import add_months, last_weekday, parse_time_arg
from reference.knowledge.document_date import extract_document_date
from reference.knowledge.errors import InvalidTime

RECORDED = datetime(2026, 3, 31, 12, 0, tzinfo=timezone.utc).timestamp()


def day(s: str) -> float:
    return datetime.fromisoformat(s).replace(tzinfo=timezone.utc).timestamp()


def test_parse_time_arg_forms():
    assert parse_time_arg(None, "x") is None
    assert parse_time_arg(1_700_000_000, "x") == 1_700_000_000.0
    assert parse_time_arg("2026-01-25", "x") == day("2026-01-25")
    assert parse_time_arg("2026-01-25T10:30:00Z", "x") == day("2026-01-25T10:30:00")
    assert parse_time_arg("2026-01-25T12:30:00+02:00", "x") == day("2026-01-25T10:30:00")


@pytest.mark.parametrize("bad", ["25/01/2026", "yesterday", "", True, [1]])
def test_bad_time_args_name_the_argument(bad):
    with pytest.raises(InvalidTime, match="temporalFilter.after"):
        parse_time_arg(bad, "temporalFilter.after")


def test_month_and_weekday_arithmetic():
    assert add_months(date(2026, 3, 31), -1) == date(2026, 2, 28)
    assert add_months(date(2024, 1, 31), 1) == date(2024, 2, 29)
    assert add_months(date(2026, 1, 15), -12) == date(2025, 1, 15)
    assert last_weekday(date(2026, 1, 26), "monday") == date(2026, 1, 19)  # strictly before
    assert last_weekday(date(2026, 1, 26), "sunday") == date(2026, 1, 25)


@pytest.mark.parametrize("text,meta,want,source", [
    ("---\ntitle: x\ndate: 2025-12-01\n---\nbody on 2025-11-11", {}, "2025-12-01", "front_matter"),
    ("---\ndate: 12/24/2025\n---\nbody", {}, "2025-12-24", "front_matter"),
    ("body on 2025-11-11", {"source_path": "notes/2025-10-01_retro.md"}, "2025-10-01", "file_name"),
    ("logged 1/2/2026, fixed on 2025-11-11", {}, "2025-11-11", "content_iso"),
    ("retro from 1/2/2026", {}, "2026-01-02", "content_us"),
    ("meeting on Jan 5, 2026", {}, "2026-01-05", "content_month_name"),
    ("we shipped it yesterday", {}, "2026-03-30", "content_relative"),
    ("no date here", {}, None, "none"),
])
def test_document_date_precedence(text, meta, want, source):
    ts, got_source = extract_document_date(text, meta, RECORDED)
    assert got_source == source
    assert ts == (None if want is None else day(want))
