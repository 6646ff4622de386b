"""Property: a scan equals a plain loop of `re.finditer` over the same patterns.

The model below is independent of the scanner: one `re.finditer` per
pattern over the whole text, matches sorted by (start, pattern index). Texts
are built from fragments of the strings the patterns target, cut at random
places, mixed with noise that stresses boundaries (quotes, `=`, newlines,
vertical tab, word characters next to literals).
"""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from reference.patterns import PatternSetManager
from reference.patterns.pattern_checker import re_flags_of

SMELL_TARGETS = [
    "eval(x)", "exec (code)", "subprocess.call(cmd, shell=True)", "password = 'hunter2'",
    "subprocess.run(\n    cmd,\n    shell=True)", "subprocess.Popen(args, shell = True)", "os.system('ls')",
    "os.popen(c)", "pickle.loads(blob)", "cPickle.load(f)", "marshal.loads(b)", "yaml.load(stream)",
    "yaml.load(open(path))", "yaml.load(f, Loader=yaml.Loader)", "yaml.load(f, Loader=SafeLoader)",
    "yaml.unsafe_load(s)", "hashlib.md5(password.encode())", "sha1(user_pwd)",
    "hashlib.new('sha1', passwd)", "requests.get(u, verify=False)", "ssl._create_unverified_context()",
    "ssl.CERT_NONE", "api_key = 'abcd1234'", "cur.execute(f\"SELECT * FROM t WHERE id={i}\")",
    "cur.execute(\"SELECT * FROM t WHERE id=%s\" % uid)", "\"SELECT * FROM users WHERE id=\" + uid",
    "\"DELETE FROM t WHERE id={}\".format(x)", "tempfile.mktemp()", "DEBUG = True",
    "app.run(host, debug=True)", "'0.0.0.0'", "os.chmod(path, 0o777)", "__import__('os')",
    "{'verify_signature': False}", "tar.extractall(dest)", "import telnetlib", "requests.post('http://x')",
    "el.innerHTML = html", "document.writeln(s)", "retrieval(", "DEBUG=Truex",
]
SECRET_TARGETS = [
    "sk-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV", "AKIAIOSFODNN7EXAMPLE",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----",
    "-----BEGIN PGP PRIVATE KEY BLOCK-----", "sk-proj-abcDEF123_ghiJKL456-mnoPQR789",
    "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789AB", "sk-1234567890abcdef", "ASIAY34FZKBOKMUTVV7A",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "gho_abcdefghijklmnopqrstuvwxyz0123456789",
    "github_pat_11ABCDEFG0123456789_abcdef", "glpat-abcdefghij0123456789", "xoxb-1234567890-abcdefghij",
    "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXX", "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", "SG.abcdefghijklmnopqrstuv.ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq",
    "npm_abcdefghijklmnopqrstuvwxyz0123456789", "pypi-AgEIcHlwaS5vcmc" + "x" * 52, "AccountKey=" + "A" * 86 + "==",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
    "Authorization: Bearer abcdef0123456789abcdef", "authorization: basic dXNlcjpwYXNzd29yZA==",
    "postgres://admin:s3cr3tpw@db", "password = \"hunter22\"", "api_key: 'abcd1234efgh5678'",
    "export GITHUB_TOKEN=abc123def456", "DB_PASSWORD=x y", "[REDACTED:jwt]",
    "password=hunter2", "token = get_token()", "password=None", "secret: self.key", "api_key=API_KEY",
]
NOISE = st.text(alphabet=" \t\n\x0b\r=:'\"()[]{}.,-_/+@#%aZz09é", max_size=6)


def texts(targets):
    cut = st.tuples(st.sampled_from(targets), st.integers(0, 30), st.integers(1, 70)).map(lambda t: t[0][t[1]:t[1] + t[2]])
    piece = st.one_of(st.sampled_from(targets), cut, NOISE)
    return st.lists(piece, max_size=10).map(lambda parts: "".join(parts).encode("utf-8"))


def model(patterns, flags, data, names=(), allow=()):
    """Every `re.finditer` match, minus those an allow-list entry vetoes (README: "Allow-lists")."""
    out = []
    for i, pattern in enumerate(patterns):
        vetoes = [re.compile(a.encode()) for entry in allow if names[i] in entry["names"] for a in entry["patterns"]]
        for m in re.finditer(pattern.encode("utf-8"), data, re_flags_of(flags)):
            if m.end() <= m.start():
                continue
            lo, hi = m.span("secret") if "secret" in m.re.groupindex and m.start("secret") >= 0 else m.span()
            if any((v := veto.match(data, lo)) is not None and v.end() >= hi for veto in vetoes):
                continue
            out.append((m.start(), i, m.end()))
    return sorted(out)


def scanned(manager, set_id, data):
    return [(m.start, m.pattern_index, m.end) for m in manager.scan(set_id, data)]


PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("set_id,targets", [("pat:security-smells", SMELL_TARGETS), ("pat:secrets", SECRET_TARGETS)])
def test_targets_are_matched(shared_manager, set_id, targets):
    # the fragments really exercise the sets: every pattern matches somewhere in them
    ps = shared_manager.get(set_id)
    hit = {m.pattern_index for m in shared_manager.scan(set_id, "\n".join(targets).encode())}
    assert hit == set(range(len(ps.patterns)))


@PROPERTY
@given(data=texts(SMELL_TARGETS))
def test_security_smells_agree_with_re(shared_manager, data):
    ps = shared_manager.get("pat:security-smells")
    assert scanned(shared_manager, ps.id, data) == model(ps.patterns, ps.flags, data)


@PROPERTY
@given(data=texts(SECRET_TARGETS))
def test_secrets_agree_with_re(shared_manager, data):
    ps = shared_manager.get("pat:secrets")
    assert scanned(shared_manager, ps.id, data) == model(ps.patterns, ps.flags, data, ps.names, ps.allow)


# patterns chosen to hit every confirmation path: tracked start, bounded width,
# one-line windows, alternation order, laziness, anchors and `\Z`
TRICKY = [r"x|x?zy", r"a|ab", r"a.*?b", r"a[\s\S]*?b", r"ab{1,3}", r"\bab\b", r"b+$", r"(?m)^a+",
          r"a\s+b", r"[ab]{2,4}c?", r"a\Z", r"\Aa", r"z[^x]*x", r"(?:ab|a)(?:bc|c)", r"y\n?$"]


@pytest.fixture(scope="module")
def tricky_manager():
    m = PatternSetManager(None, builtins=False)
    m.load({"id": "pat:tricky", "patterns": TRICKY})
    m.load({"id": "pat:tricky-ml", "patterns": TRICKY[:-3], "flags": ["multiline", "dotall", "caseless"]})
    return m


@PROPERTY
@given(data=st.text(alphabet="abcxyzA \n", max_size=40).map(str.encode))
def test_tricky_patterns_agree_with_re(tricky_manager, data):
    for set_id in ("pat:tricky", "pat:tricky-ml"):
        ps = tricky_manager.get(set_id)
        assert scanned(tricky_manager, set_id, data) == model(ps.patterns, ps.flags, data)
