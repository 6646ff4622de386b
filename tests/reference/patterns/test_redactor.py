"""Redaction of every built-in secret kind (hand-written examples), merging, idempotence."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from reference.patterns import PatternSetManager, RedactionHit, Redactor, UnknownPatternSet
from reference.telemetry import ListSink

B64_86 = "A" * 40 + "b" * 40 + "012345"
JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
KEY_BLOCK = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx0123\nabcdEFGH==\n-----END RSA PRIVATE KEY-----"

# (kind, input, expected output) -- every built-in secret name appears at least once
CASES = [
    ("openai-api-key", "key sk-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV here",
     "key [REDACTED:openai-api-key] here"),
    ("aws-access-key", "id=AKIAIOSFODNN7EXAMPLE;", "id=[REDACTED:aws-access-key];"),
    ("github-pat", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 ok", "token [REDACTED:github-pat] ok"),
    ("private-key-header", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk (truncated)",
     "[REDACTED:private-key-header]\nb3BlbnNzaC1rZXk (truncated)"),
    ("private-key-block", f"key:\n{KEY_BLOCK}\ndone", "key:\n[REDACTED:private-key-block]\ndone"),
    ("private-key-block", "-----BEGIN PGP PRIVATE KEY BLOCK-----\nxyz\n-----END PGP PRIVATE KEY BLOCK-----",
     "[REDACTED:private-key-block]"),
    ("openai-project-key", "sk-proj-abcDEF123_ghiJKL456-mnoPQR789", "[REDACTED:openai-project-key]"),
    ("anthropic-api-key", "ANTHROPIC sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789AB",
     "ANTHROPIC [REDACTED:anthropic-api-key]"),
    # seed 002's own unit-test text: its 48-character pattern misses this 16-character key
    ("sk-prefixed-key", "My API key is sk-1234567890abcdef", "My API key is [REDACTED:sk-prefixed-key]"),
    ("aws-temporary-key", "ASIAY34FZKBOKMUTVV7A", "[REDACTED:aws-temporary-key]"),
    ("aws-secret-key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
     "aws_secret_access_key = [REDACTED:aws-secret-key]\n"),
    ("github-token", "gho_abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED:github-token]"),
    ("github-fine-grained-pat", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
     "[REDACTED:github-fine-grained-pat]"),
    ("gitlab-token", "glpat-abcdefghij0123456789 ", "[REDACTED:gitlab-token] "),
    ("slack-token", "xoxb-1234567890-1234567890123-abcdefghijklmnopqrstuvwx",
     "[REDACTED:slack-token]"),
    ("slack-webhook", "post to https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX now",
     "post to [REDACTED:slack-webhook] now"),
    ("stripe-secret-key", "stripe.api_key = sk_live_4eC39HqLyjWDarjtT1zdp7dc",
     "stripe.api_key = [REDACTED:stripe-secret-key]"),
    ("google-api-key", "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", "[REDACTED:google-api-key]"),
    ("sendgrid-api-key", "SG.abcdefghijklmnopqrstuv.ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq",
     "[REDACTED:sendgrid-api-key]"),
    ("npm-token", "//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789",
     "//registry.npmjs.org/:_authToken=[REDACTED:npm-token]"),
    ("pypi-token", "pypi-AgEIcHlwaS5vcmc" + "x" * 60, "[REDACTED:pypi-token]"),
    ("azure-storage-key", f"AccountName=acct;AccountKey={B64_86}==;EndpointSuffix=core.windows.net",
     "AccountName=acct;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net"),
    ("jwt", f"session {JWT} end", "session [REDACTED:jwt] end"),
    ("bearer-token", "Authorization: Bearer abcdef0123456789abcdef", "Authorization: Bearer [REDACTED:bearer-token]"),
    ("basic-auth", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [REDACTED:basic-auth]"),
    ("url-credentials", "DATABASE_URL is postgres://admin:s3cr3tpw@db.internal:5432/app",
     "DATABASE_URL is postgres://admin:[REDACTED:url-credentials]@db.internal:5432/app"),
    ("password-assignment", 'password = "hunter22"', 'password = "[REDACTED:password-assignment]"'),
    ("secret-assignment", "api_key: 'abcd1234efgh5678'", "api_key: '[REDACTED:secret-assignment]'"),
    ("env-secret", "export GITHUB_TOKEN=abc123def456\n", "export GITHUB_TOKEN=[REDACTED:env-secret]\n"),
]


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


FRAGMENTS = [text for _, text, _ in CASES] + ["[REDACTED:jwt]", 'password = "', "Bearer ", "=", ":", "'", '"']
NOISE = st.text(alphabet=" \n\t=:'\"[]-_/+@.aZ09é", max_size=8)
PIECE = st.one_of(st.sampled_from(FRAGMENTS), NOISE,
                  st.tuples(st.sampled_from(FRAGMENTS), st.integers(0, 40), st.integers(0, 80)).map(
                      lambda t: t[0][t[1]:t[1] + t[2]]))


@settings(max_examples=150, deadline=None)
@given(st.lists(PIECE, max_size=8).map("".join))
def test_redaction_is_idempotent(redactor, text):
    once = redactor.redact(text)
    assert redactor.redact(once.text).text == once.text
