"""The extractor's and the date finders' substring prefilters never change what is found.

Each rule runs only on a text holding a character or word all its matches hold; these tests
extract the same texts with the prefilters off (every rule scans every text) and compare.
"""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.knowledge import dates, extractor
from reference.knowledge.document_date import extract_document_date
from reference.knowledge.extractor import EntityExtractor

REF = datetime(2026, 1, 26, 15, 0, tzinfo=timezone.utc).timestamp()
# pieces that trigger every rule (and near misses of each), joined by separators the rules care about
PIECES = ["https://example.com/a/b.py", "bob@x.org", "sym:src/x.py#Foo:class:1:9", "file:src/x.py", "project:alpha",
          "2026-01-25", "2026-13-40T10:00Z", "1/25/2026", "Jan 25, 2026", "25th January 2026", "Sept. 3 2025",
          "yesterday", "3 days ago", "in two weeks", "last Friday", "This morning", "src/features/auth/session.ts",
          "docs/", "and/or", "README.md", "setup.cfg", "from a.b import c", "import os.path", "module foo.bar",
          "package baz", "authClient.refresh()", "i.e.", "refresh_token()", "`getUserName`", "getCartTotal", "iOS",
          "ÉCOLE", "café", "Paris", "token", "race", "1234", "item2024", "x", "()", "`", ":", "/", ".", "-", "@",
          # near misses of the digit cores (ISO, US) and of the slug words and camel core
          "2026-01-2", "x2026-01-25", "1/25/26", "11/5/2026", "٢٠٢٦-٠١-٢٥", "Project:x", "lib:", "aBc", "aB", "xYZ", "@@ -1,3 +1,4 @@",
          "@pytest", "a@b", "x@", "@y.org", "a.@b.c", "ü@ß.de", "+@-.x"]
SEPS = [" ", "\n", "", ", ", ";", "`", "(", ")"]
texts = st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(SEPS)), max_size=12).map(
    lambda parts: "".join(p + s for p, s in parts))


def _extract_both(text: str, ex: EntityExtractor, monkeypatch) -> tuple:
    results = []
    for on in (True, False):
        monkeypatch.setattr(extractor, "PREFILTER", on)
        monkeypatch.setattr(dates, "PREFILTER", on)
        dates._absolute_dates.cache_clear()
        dates._relative_dates.cache_clear()
        mentions = ex.extract(text, REF, {"concepts": ["token race"]})
        results.append(([(m, m.metadata) for m in mentions], extract_document_date(text, None, REF),
                         dates.absolute_dates(text), dates.relative_dates(text, REF)))
    return tuple(results)


@settings(max_examples=300, deadline=None)
@given(text=texts)
def test_prefilters_find_what_every_scan_finds(text):
    ex = EntityExtractor({"place": ["Paris"]})
    with pytest.MonkeyPatch.context() as mp:
        with_pre, without = _extract_both(text, ex, mp)
    assert with_pre == without


def test_the_pieces_find_something_with_and_without_prefilters(monkeypatch):
    """The comparison above is not between two empty answers."""
    text = " ".join(PIECES)
    with_pre, without = _extract_both(text, EntityExtractor({"place": ["Paris"]}), monkeypatch)
    rules = {m.rule for m, _ in with_pre[0]}
    assert {"sym_key", "file_key", "slug", "date_iso", "date_us", "date_month_name", "date_relative", "path",
            "path_slug", "module", "dotted", "call", "code_span", "camel", "gazetteer", "concept"} <= rules
    assert with_pre == without


MARKER_PIECES = ["Instead of", "no LONGER", "not anymore", "Replaced", "replaces", "supersedes", "superseded",
                 "deprecated", "switched to", "Changed from", "now uses", "now is", "was wrong", "Correction",
                 "Revert", "reverts", "REVERTED", "also", "Additionally", "in addition", "furthermore", "Moreover",
                 "as well", "therefore", "thus",
                 "Hence", "so we conclude", "which means", "This means", "combining", "together these", "conclusion",
                 "JANUARY", "Sept", "dec", "may", "token", "now", "switched", "ſo", "K", "2026"]
marker_texts = st.lists(st.tuples(st.sampled_from(MARKER_PIECES), st.sampled_from([" ", "", ".", "\n"])),
                        max_size=8).map(lambda parts: "".join(p + s for p, s in parts))


@settings(max_examples=300, deadline=None)
@given(text=marker_texts)
def test_marker_prefilters_never_hide_a_match(text):
    from reference.knowledge import contradiction as c
    from reference.knowledge import relations as r
    for rx, words in ((c._MARKER, c.MARKER_WORDS), (c._ADDITIVE, c.ADDITIVE_WORDS),
                      (r._CONCLUSION, r._CONCLUSION_WORDS)):
        assert c.may_match(text, words) or rx.search(text) is None
    assert dates._has_month(text) or dates._MONTH_WORD.search(text) is None
    assert r._concludes(text) == (r._CONCLUSION.search(text) is not None)
