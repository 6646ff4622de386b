"""Bad definitions and bad patterns: clear errors, nothing of the set loaded."""
from __future__ import annotations

import pytest

from reference.errors import StoreError
from reference.patterns import PatternError, PatternMatch, PatternSetManager


@pytest.fixture
def manager(tmp_path):
    m = PatternSetManager(tmp_path, builtins=False)
    m.load({"id": "pat:mine", "patterns": ["old"]})
    return m


BAD = [
    ("(unclosed", "missing ), unterminated subpattern", "Missing close parenthesis"),
    (r"foo(?=bar)", "look-ahead/look-behind", "Zero-width assertions are not supported"),
    (r"(?<!x)foo", "look-ahead/look-behind", "Zero-width assertions are not supported"),
    (r"(a)b\1", "back-references", "Back-references are unsupported"),
    (r"(?P<q>['\"]).*(?P=q)", "back-references", "Back-references are unsupported"),
    (r"(?>ab)c", "atomic groups", "Atomic groups are unsupported"),
    (r"a++b", "possessive quantifiers", "Possessive quantifiers are not supported"),
    (r"x*", "empty string", "Pattern matches empty buffer"),
    (r"a{,3}b", "write '{0,n}'", "accepts it but would read it differently"),
    (r"[[:alpha:]]+", "POSIX classes", None),
]


@pytest.mark.parametrize("bad,ours,theirs", BAD)
def test_bad_pattern_names_set_index_and_reason(manager, bad, ours, theirs):
    before = manager.get("pat:mine")
    with pytest.raises(PatternError) as err:
        manager.load({"id": "pat:mine", "patterns": ["fine", "also fine", bad]})
    exc = err.value
    assert isinstance(exc, StoreError)
    assert exc.set_id == "pat:mine" and exc.index == 2
    msg = str(exc)
    assert "'pat:mine'" in msg and "pattern #2" in msg and ours in msg
    if theirs:
        assert theirs in msg
    # nothing of the new version is loaded; the old one still answers
    assert manager.get("pat:mine") is before
    assert manager.scan("pat:mine", b"old fine") == [PatternMatch(0, "old", 0, 3, "pattern-0")]


def test_bad_pattern_in_new_set_loads_nothing(manager):
    with pytest.raises(PatternError):
        manager.load({"id": "pat:fresh", "patterns": ["ok", "(a)\\1"]})
    assert "pat:fresh" not in manager
    assert [s["id"] for s in manager.list()] == ["pat:mine"]


@pytest.mark.parametrize("definition,fragment", [
    ({"patterns": ["a"]}, "needs a string 'id'"),
    ({"id": "mem:00000001", "patterns": ["a"]}, "'pat:' namespace"),
    ({"id": "pat:Bad Slug", "patterns": ["a"]}, "not a valid key"),
    ({"id": "pat:x", "patterns": []}, "non-empty list"),
    ({"id": "pat:x", "patterns": ["a", 3]}, "pattern #1"),
    ({"id": "pat:x", "patterns": ["a"], "patern": 1}, "unknown field(s) 'patern'"),
    ({"id": "pat:x", "patterns": ["a", "b"], "names": ["one"]}, "'names' has 1 entries"),
    ({"id": "pat:x", "patterns": ["a", "b"], "names": ["n", "n"]}, "repeated: n"),
    ({"id": "pat:x", "patterns": ["a"], "names": ["Has Space"]}, "name #0"),
    ({"id": "pat:x", "patterns": ["a"], "flags": ["utf8"]}, "unknown flag(s) 'utf8'"),
    ({"id": "pat:x", "patterns": ["a"], "tags": "security"}, "'tags' must be a list"),
    (["pat:x"], "must be a mapping"),
])
def test_bad_definition_is_rejected(manager, definition, fragment):
    with pytest.raises(PatternError) as err:
        manager.load(definition)
    assert fragment in str(err.value)
    assert [s["id"] for s in manager.list()] == ["pat:mine"]
