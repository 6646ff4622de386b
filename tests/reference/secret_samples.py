"""One sample of every secret kind `pat:secrets` knows, shared by the redaction tests.

`CASES`: (kind, input, expected redacted output), hand-written, for the redactor's own
tests. `PLANTS`: (kind, text, secret) with a distinct secret value per kind, long enough
that finding its bytes anywhere in a data folder means it leaked; the data-folder tests
write every `text` through every write path and grep for every `secret`.
"""
from __future__ import annotations

from pathlib import Path

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
    # escaped quotes: an assignment inside a string literal or a JSON document (issue 25's sweep)
    ("password-assignment", 'KEY = "password = \\"hunter22\\""', 'KEY = "password = \\"[REDACTED:password-assignment]\\""'),
    # a prefixed key name: no word boundary after `_`, so the key words take an optional prefix
    ("password-assignment", 'DB_PASSWORD = "hunter22"', 'DB_PASSWORD = "[REDACTED:password-assignment]"'),
    ("secret-assignment", 'AWS_SECRET = "abcd1234efgh5678"', 'AWS_SECRET = "[REDACTED:secret-assignment]"'),
    ("secret-assignment", 'GITHUB_TOKEN="abcd1234efgh5678"', 'GITHUB_TOKEN="[REDACTED:secret-assignment]"'),
    ("secret-assignment", "my_api_key: 'abcd1234efgh5678'", "my_api_key: '[REDACTED:secret-assignment]'"),
    ("secret-assignment", 'cfg.client_secret = "abcd1234efgh5678"', 'cfg.client_secret = "[REDACTED:secret-assignment]"'),
    ("env-secret", "GITHUB_TOKEN=abc123def456\n", "GITHUB_TOKEN=[REDACTED:env-secret]\n"),
    ("env-secret", "export GITHUB_TOKEN=abc123def456\n", "export GITHUB_TOKEN=[REDACTED:env-secret]\n"),
    ("unquoted-assignment", "password=hunter2", "password=[REDACTED:unquoted-assignment]"),
    ("unquoted-assignment", "secret: abc", "secret: [REDACTED:unquoted-assignment]"),
    ("unquoted-assignment", "token = xyz", "token = [REDACTED:unquoted-assignment]"),
    ("unquoted-assignment", "API_Key=AbC123xyz;", "API_Key=[REDACTED:unquoted-assignment];"),
    ("unquoted-assignment", "db.password := s3cr3t!", "db.password := [REDACTED:unquoted-assignment]"),
    ("unquoted-assignment", "GET /x?access_token=abc123&page=2", "GET /x?access_token=[REDACTED:unquoted-assignment]&page=2"),
]

# ordinary code and config around the same key words: none of it is a secret (the rule is
# in reference/patterns/README.md, "Assignments without quotes")
NOT_SECRETS = [
    "password=None", "f(password=None, token=null)", "password=password", "token = get_token()",
    "TOKEN = get_token()", "password: str", "def login(user: str, password: Optional[str] = None):",
    "token = tokens[i]", "password=self.cert", "password = url.password", "password=***",
    "self.refresh_token = refresh_token", "api_key=API_KEY", "permissions:\n  id-token: write",
    "persist-credentials: false", "token = await client.fetch()", "password = attr.ib()",
    "API_KEY = os.environ['API_KEY']", "DB_PASSWORD=None", "if password == typed:",
    "password := getpw()", "token: &str", "secret = $SECRET", "password=[REDACTED:x]", "pwd = os.getcwd()",
    "password=xxxx", "credentials = self.netrc.get_credentials(host)",
    'token_type = "bearer_access"', 'DB_PASSWORD_FIELD = "password_input"', 'get_password("user_name_here")',
    "db_password = get_password()", 'password_hash: "sha256"', "MIN_PASSWORD_LENGTH = 12",
]


def _plant(kind: str, text: str, secret: str) -> tuple[str, str, str]:
    assert secret in text
    return kind, text, secret


PLANT_B64 = "Q" * 40 + "r" * 40 + "987654"
PLANT_JWT = "eyJhbGciOiJQbGFudGVkIn0.eyJzdWIiOiJwbGFudGVkLTQyIn0.PlantedSignatureValue_42xyz"
PLANTS = [
    _plant("openai-api-key", "k sk-PLANTa1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9t0u1v2", "sk-PLANTa1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9t0u1v2"),
    _plant("aws-access-key", "id AKIAPLANTED0000XYZ98 ok", "AKIAPLANTED0000XYZ98"),
    _plant("github-pat", "ghp_PLANTEDabcdefghijklmnopqrstuvwxyz012", "ghp_PLANTEDabcdefghijklmnopqrstuvwxyz012"),
    _plant("private-key-header", "-----BEGIN PLANTEDHEADER KEY-----", "PLANTEDHEADER"),
    _plant("private-key-block", "-----BEGIN EC PRIVATE KEY-----\nPLANTEDkeybody42==\n-----END EC PRIVATE KEY-----",
           "PLANTEDkeybody42"),
    _plant("openai-project-key", "sk-proj-PLANTEDproj_0123456789abcdef", "sk-proj-PLANTEDproj_0123456789abcdef"),
    _plant("anthropic-api-key", "sk-ant-api03-PLANTEDant0123456789abcdefghijklmn", "sk-ant-api03-PLANTEDant0123456789abcdefghijklmn"),
    _plant("sk-prefixed-key", "key sk-PLANTED12345678zz", "sk-PLANTED12345678zz"),
    _plant("aws-temporary-key", "ASIAPLANTED00000TMP1", "ASIAPLANTED00000TMP1"),
    _plant("aws-secret-key", "aws_secret_access_key = PLANTEDsecretAccessKey0123456789abcdefgh",
           "PLANTEDsecretAccessKey0123456789abcdefgh"),
    _plant("github-token", "gho_PLANTEDghotoken0123456789abcdefghijkl", "gho_PLANTEDghotoken0123456789abcdefghijkl"),
    _plant("github-fine-grained-pat", "github_pat_PLANTEDfine_0123456789abcdefghij", "github_pat_PLANTEDfine_0123456789abcdefghij"),
    _plant("gitlab-token", "glpat-PLANTEDgitlab012345678 ", "glpat-PLANTEDgitlab012345678"),
    _plant("slack-token", "xoxb-PLANTED-slack-0123456789", "xoxb-PLANTED-slack-0123456789"),
    _plant("slack-webhook", "https://hooks.slack.com/services/TPLANTED/BPLANTED/PLANTEDwebhookpath",
           "TPLANTED/BPLANTED/PLANTEDwebhookpath"),
    _plant("stripe-secret-key", "sk_live_PLANTEDstripe0123456", "sk_live_PLANTEDstripe0123456"),
    _plant("google-api-key", "AIzaPLANTEDgoogle0123456789abcdefghijkl", "AIzaPLANTEDgoogle0123456789abcdefghijkl"),
    _plant("sendgrid-api-key", "SG.PLANTEDsendgrid0123456.PLANTEDsendgridSecondPart0123456789abcdefgh",
           "PLANTEDsendgridSecondPart0123456789abcdefgh"),
    _plant("npm-token", "npm_PLANTEDnpm0123456789abcdefghijklmnopq", "npm_PLANTEDnpm0123456789abcdefghijklmnopq"),
    _plant("pypi-token", "pypi-AgEIcHlwaS5vcmcPLANTEDpypi" + "z" * 40, "PLANTEDpypi" + "z" * 40),
    _plant("azure-storage-key", f"AccountKey={PLANT_B64}==;", PLANT_B64),
    _plant("jwt", f"session {PLANT_JWT} end", PLANT_JWT),
    _plant("bearer-token", "Authorization: Bearer PLANTEDbearer0123456789", "PLANTEDbearer0123456789"),
    _plant("basic-auth", "Authorization: Basic UExBTlRFRGJhc2ljYXV0aA==", "UExBTlRFRGJhc2ljYXV0aA"),
    _plant("url-credentials", "postgres://admin:PLANTEDurlpw42@db.internal/app", "PLANTEDurlpw42"),
    _plant("password-assignment", 'password = "PLANTEDquotedpw"', "PLANTEDquotedpw"),
    _plant("secret-assignment", "client_secret: 'PLANTEDquotedsecret'", "PLANTEDquotedsecret"),
    _plant("env-secret", "export DEPLOY_TOKEN=PLANTEDenvtoken42\n", "PLANTEDenvtoken42"),
    _plant("unquoted-assignment", "db password=PLANTEDhunter2 now", "PLANTEDhunter2"),
]
PLANTED_TEXT = "\n".join(text for _, text, _ in PLANTS)


def all_bytes(root: Path) -> bytes:
    """Every byte of every file under `root` (WAL, LMDB, blob, vectors, snapshots...)."""
    return b"".join(p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file())


def leaked(root: Path, plants=PLANTS) -> list[str]:
    """The kinds whose secret value appears anywhere in `root`, as UTF-8 bytes."""
    data = all_bytes(root)
    return [kind for kind, _, secret in plants if secret.encode() in data]
