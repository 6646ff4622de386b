"""Identifier-like names of a text (the text half of the same-subject rule)."""
import pytest

from reference.knowledge.names import different_names, names


@pytest.mark.parametrize("text,expected", [
    ("Component comp3 handles the schema path; it failed in build 1003.", {"comp3"}),
    ("Set max_retries in src/net/retry.py and README.md, see resetMailer.send and os.path.",
     {"max_retries", "src/net/retry.py", "readme.md", "resetmailer.send", "os.path"}),
    ("Tagged task:debug on GitHub.", {"task:debug", "github"}),
    # plain words, hyphenated words, numbers with units, dates, issue numbers, e.g., and/or: no names
    ("The follow-up, e.g. client/server and/or retries, waits 200ms at 10% since 2021-06-19 (#282).", set()),
])
def test_names(text, expected):
    assert names(text) == expected


def test_different_names_needs_names_on_both_sides_and_none_shared():
    assert different_names(frozenset({"comp3"}), frozenset({"comp7"}))
    assert not different_names(frozenset({"comp3"}), frozenset({"comp3", "comp7"}))
    assert not different_names(frozenset(), frozenset({"comp7"}))
    assert not different_names(frozenset({"comp3"}), frozenset())
