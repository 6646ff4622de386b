"""Redaction of every built-in secret kind (hand-written examples), merging, idempotence."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from reference.patterns import PatternError, PatternSetManager, RedactionHit, Redactor, UnknownPatternSet
from reference.telemetry import ListSink

from tests.reference.secret_samples import CASES, JWT, NOT_SECRETS, PLANTS


@pytest.fixture(scope="module")
def redactor(shared_manager):
    return Redactor(shared_manager)


def test_every_builtin_secret_has_a_case(shared_manager):
    assert {kind for kind, _, _ in CASES} == set(shared_manager.get("pat:secrets").names)


@pytest.mark.parametrize("kind,text,expected", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_redacts_each_kind(redactor, kind, text, expected):
    result = redactor.redact(text)
    assert result.text == expected
    assert kind in {h.name for h in result.hits}
    assert redactor.redact(result.text).text == expected  # idempotent
    assert redactor.redact(result.text).hits == ()


def test_every_builtin_secret_has_a_plant(shared_manager, redactor):
    assert [kind for kind, _, _ in PLANTS] == shared_manager.get("pat:secrets").names
    for kind, text, secret in PLANTS:
        result = redactor.redact(text)
        assert secret not in result.text and kind in {h.name for h in result.hits}, kind


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_ordinary_code_is_not_redacted(redactor, text):
    assert redactor.redact(text).hits == ()


def test_scan_of_the_secrets_set_agrees_with_redaction(shared_manager):
    assert shared_manager.scan("pat:secrets", b"password=None") == []
    assert [m.name for m in shared_manager.scan("pat:secrets", b"password=hunter2")] == ["unquoted-assignment"]


def test_allow_list_vetoes_only_named_patterns_and_covering_matches(tmp_path):
    manager = PatternSetManager(tmp_path, builtins=False)
    manager.load({"id": "pat:mine", "names": ["kv", "raw"],
                  "patterns": ["k=(?P<secret>[a-z_]+)", "v=[a-z_]+"],
                  "allow": [{"names": ["kv"], "patterns": ["[a-z_]+\\(", "ok"]}]})
    redact = Redactor(manager, "pat:mine").redact
    assert redact("k=get_x() v=get_x()").text == "k=get_x() [REDACTED:raw]()"
    assert redact("k=ok k=okay").text == "k=ok k=[REDACTED:kv]"  # 'ok' does not cover 'okay'


@pytest.mark.parametrize("allow,fragment", [
    ({"names": ["x"], "patterns": ["a"]}, "list of"),
    ([{"names": ["nope"], "patterns": ["a"]}], "unknown pattern"),
    ([{"names": ["x"], "patterns": ["("]}], "not a valid regex"),
    ([{"names": ["x"]}], "exactly the fields"),
    ([{"names": [], "patterns": ["a"]}], "non-empty lists"),
])
def test_bad_allow_lists_are_refused(tmp_path, allow, fragment):
    manager = PatternSetManager(tmp_path, builtins=False)
    with pytest.raises(PatternError, match=fragment):
        manager.load({"id": "pat:mine", "names": ["x"], "patterns": ["x+"], "allow": allow})
    assert "pat:mine" not in manager


def test_jwt_in_bearer_header_merges_into_one_marker(redactor):
    result = redactor.redact(f"Authorization: Bearer {JWT}")
    # both spans start at "eyJ" and are equally long; the lower pattern index (jwt) names the marker
    assert result.text == "Authorization: Bearer [REDACTED:jwt]"
    assert sorted(h.name for h in result.hits) == ["bearer-token", "jwt"]


def test_secret_inside_password_assignment_merges(redactor):
    result = redactor.redact('password = "xx AKIAIOSFODNN7EXAMPLE"')
    assert result.text == 'password = "[REDACTED:password-assignment]"'
    hits = {(h.name, h.start, h.end) for h in result.hits}
    assert hits == {("password-assignment", 12, 35), ("aws-access-key", 15, 35)}


def test_hits_are_character_offsets(redactor):
    text = "héllo AKIAIOSFODNN7EXAMPLE ünd"
    result = redactor.redact(text)
    assert result.text == "héllo [REDACTED:aws-access-key] ünd"
    assert result.hits == (RedactionHit("aws-access-key", 1, 6, 26),)
    assert text[6:26] == "AKIAIOSFODNN7EXAMPLE"


def test_clean_text_is_unchanged(redactor):
    text = "def password_hash(pw):\n    return bcrypt.hash(pw)  # tokens are rotated weekly\n"
    result = redactor.redact(text)
    assert result.text == text and result.hits == () and not result.redacted


def test_redaction_emits_no_telemetry(tmp_path):
    sink = ListSink()
    redactor = Redactor(PatternSetManager(tmp_path, sink))
    assert redactor.redact("AKIAIOSFODNN7EXAMPLE").redacted
    assert sink.events == []


def test_missing_set_fails_at_construction(tmp_path):
    with pytest.raises(UnknownPatternSet):
        Redactor(PatternSetManager(tmp_path, builtins=False))


def test_custom_set_with_default_names(tmp_path):
    manager = PatternSetManager(tmp_path, builtins=False)
    manager.load({"id": "pat:mine", "patterns": ["s3cr3t", "cr3t-x"]})
    result = Redactor(manager, "pat:mine").redact("a s3cr3t-x b")
    assert result.text == "a [REDACTED:pattern-0] b"
    assert [(h.name, h.start, h.end) for h in result.hits] == [("pattern-0", 2, 8), ("pattern-1", 4, 10)]


FRAGMENTS = [text for _, text, _ in CASES] + NOT_SECRETS[:8] + ["[REDACTED:jwt]", 'password = "', "Bearer ", "=", ":", "'", '"']
NOISE = st.text(alphabet=" \n\t=:'\"[]-_/+@.aZ09é", max_size=8)
PIECE = st.one_of(st.sampled_from(FRAGMENTS), NOISE,
                  st.tuples(st.sampled_from(FRAGMENTS), st.integers(0, 40), st.integers(0, 80)).map(
                      lambda t: t[0][t[1]:t[1] + t[2]]))


@settings(max_examples=150, deadline=None)
@given(st.lists(PIECE, max_size=8).map("".join))
def test_redaction_is_idempotent(redactor, text):
    once = redactor.redact(text)
    assert redactor.redact(once.text).text == once.text
