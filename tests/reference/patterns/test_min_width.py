"""A set's `min_width`: data shorter than any match is not scanned, with the same (empty) result."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from reference.patterns import PatternSetManager
from reference.patterns.redactor import Redactor


@pytest.fixture(scope="module")
def manager(tmp_path_factory):
    m = PatternSetManager(tmp_path_factory.mktemp("minw"), builtins=False)
    m.load({"id": "pat:w", "patterns": ["ab+c", "x{3,}", "\\bzz", "é{2}"]})
    return m


def test_min_width_is_the_shortest_match_of_the_set(manager):
    cs = manager.compiled("pat:w")
    assert cs.min_width == 2   # "\\bzz": the word boundary takes no byte ("é{2}" takes four)
    assert [m.pattern_index for m in cs.scan(b"zz")] == [2]
    assert cs.scan(b"z") == [] and cs.scan(b"") == []


@settings(max_examples=300)
@given(data=st.text(alphabet="abcxqz é", max_size=7).map(lambda t: t.encode()))
def test_scan_equals_re_on_short_data(manager, data):
    pats = ["ab+c", "x{3,}", "\\bzz", "é{2}"]
    want = sorted((m.start(), i, m.end()) for i, p in enumerate(pats) for m in re.finditer(p.encode(), data))
    assert [(m.start, m.pattern_index, m.end) for m in manager.compiled("pat:w").scan(data)] == want


def test_builtin_secrets_width_skips_short_values_and_still_redacts_the_shortest_secret(shared_manager):
    red = Redactor(shared_manager)
    width = shared_manager.compiled("pat:secrets").min_width
    assert width == len("pwd=abc")   # the shortest secret the set finds: exactly at the bound, still redacted
    assert red.redact("pwd=abc").text == "pwd=[REDACTED:unquoted-assignment]"
    assert red.redact("a://b:c@").text == "a://b:[REDACTED:url-credentials]@"
    assert red.redact("main").text == "main" and red.redact("main").hits == ()
