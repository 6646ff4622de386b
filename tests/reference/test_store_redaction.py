"""Secrets planted in writes are redacted before they reach any byte of the data directory."""
from pathlib import Path

from reference.clock import LogicalClock
from reference.store import MemoryStore

AWS = "AKIAIOSFODNN7EXAMPLE"
GH = "ghp_" + "Q7w8E9" * 6
SLACK = "xoxb-123456789012-123456789012-abcdefghijklmnopqrstuvwx"


def all_bytes(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file())


def test_planted_secrets_are_nowhere_on_disk(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "settings.py").write_text(f"KEY = '{AWS}'\n\ndef token():\n    return '{GH}'\n")
    data = tmp_path / "data"
    with MemoryStore.open(data, clock=LogicalClock()) as store:
        e = store.write_memory(f"rotated {SLACK} after the leak", tags=[f"leak-{AWS}"],
                               metadata={"note": f"was {GH}"})
        store.index_directory(src)
        assert SLACK not in e.text and "[REDACTED:" in e.text
        assert store.keyword_search("rotated leak")[0].id == e.id  # still searchable by its other words
    blob = all_bytes(data)
    for secret in (AWS, GH, SLACK):
        assert secret.encode() not in blob, secret
    assert b"rotated" in blob  # the rest of the memory is stored


def test_redaction_can_be_switched_off(tmp_path):
    with MemoryStore.open(tmp_path, clock=LogicalClock(), redact=False) as store:
        assert AWS in store.write_memory(f"key {AWS}").text
