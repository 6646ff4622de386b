"""Scan results follow `re.finditer` semantics; expected spans computed by hand."""
from __future__ import annotations

import re

import pytest

from reference.patterns import PatternSetManager
from reference.patterns.match_confirmer import ConfirmPlan, confirm_events


@pytest.fixture(scope="module")
def manager():
    return PatternSetManager(None, builtins=False)


def spans(manager, patterns, data, flags=()):
    manager.load({"id": "pat:t", "patterns": patterns, "flags": list(flags)})
    return [(m.pattern_index, m.start, m.end) for m in manager.scan("pat:t", data)]


@pytest.mark.parametrize("pattern,data,expected", [
    # a later start whose end Hyperscan attributes to an earlier start
    (r"x|x?zy", b"xzy", [(0, 1), (1, 3)]),
    # alternation order, not longest match
    (r"a|ab", b"ab ab", [(0, 1), (3, 4)]),
    # non-overlapping within one pattern
    (r"aa", b"aaaaa", [(0, 2), (2, 4)]),
    (r"<.+?>", b"<a><b>", [(0, 3), (3, 6)]),
    (r"<.+>", b"<a><b>", [(0, 6)]),
    (r"\bcat\b", b"cat concat cat.", [(0, 3), (11, 14)]),
    (r"end$", b"end\nend", [(4, 7)]),
    (r"end$", b"end\n", [(0, 3)]),
    # Python's \Z is the very end; Hyperscan's also allows a final newline
    (r"a\Z", b"a\n", []),
    (r"a\Z", b"ba", [(1, 2)]),
    # crosses lines and is unbounded: needs Hyperscan's start of match
    (r"begin[\s\S]*?end", b"begin\nx\nend begin end", [(0, 11), (12, 21)]),
    # bounded width, no start tracking
    (r"ab{1,3}c", b"abbbc abc abbbbc", [(0, 5), (6, 9)]),
    # unbounded but stays on one line
    (r"#.*TODO", b"# a TODO b TODO\n# none\n#TODO", [(0, 15), (23, 28)]),
    (r"\d+", b"a1 22 333", [(1, 2), (3, 5), (6, 9)]),
])
def test_single_pattern(manager, pattern, data, expected):
    assert spans(manager, [pattern], data) == [(0, s, e) for s, e in expected]


def test_patterns_overlap_each_other_and_sort_by_start_then_index(manager):
    assert spans(manager, ["o+", "foo", "f"], b"foo") == [(1, 0, 3), (2, 0, 1), (0, 1, 3)]


def test_multiline_and_caseless_flags(manager):
    assert spans(manager, [r"^key=\w+$"], b"KEY=1\nkey=2\n", ["multiline", "caseless"]) == [(0, 0, 5), (0, 6, 11)]
    assert spans(manager, [r"^key=\w+$"], b"KEY=1\nkey=2\n") == []


def test_dotall_flag(manager):
    assert spans(manager, [r"a.b"], b"a\nb", ["dotall"]) == [(0, 0, 3)]
    assert spans(manager, [r"a.b"], b"a\nb") == []


def test_offsets_are_bytes_in_utf8(manager):
    data = "é password".encode()
    assert spans(manager, ["password"], data) == [(0, 3, 11)]


def test_cut_artefact_is_retried_on_the_whole_buffer():
    # A component [0, 1) cut at 3 sees b"ab\n", where `$` fires before the final
    # newline and `a.$` would give (0, 2); on the whole buffer only `a` matches.
    plan = ConfirmPlan(re.compile(rb"a.$|a"), som=True, width=0, line_bounded=False)
    assert confirm_events([(0, 0, 1, 0, None)], [plan], b"ab\nc") == [(0, 0, 1)]


def test_cut_artefact_without_whole_buffer_match_moves_on():
    # Cut at 4, b"abc\n" lets `a..$` match at 0; on the whole buffer nothing
    # matches at 0, and the walk must go on to find `b` at 1.
    plan = ConfirmPlan(re.compile(rb"a..$|b"), som=True, width=0, line_bounded=False)
    assert confirm_events([(0, 0, 2, 0, None)], [plan], b"abc\nde") == [(1, 0, 2)]
