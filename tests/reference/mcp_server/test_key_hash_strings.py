"""Key hashes (u64) are also given as strings, and key-hash arguments take the string form."""
from __future__ import annotations

import pytest

from reference.mcp_server.tools.key_hash import parse
from reference.mcp_server.tools.results import MAX_SAFE, with_strings

BIG = (1 << 64) - 1


def test_written_and_found_memories_carry_string_key_hashes(served):
    _, mcp = served
    entries = [mcp.call("memory_write_structured", text=f"token refresh race {i}") for i in range(8)]
    big = [e for e in entries if e["key_hash"] > MAX_SAFE]
    assert big, "a u64 hash of 8 keys is above 2^53 with near certainty"
    e = big[0]
    assert e["key_hash_str"] == str(e["key_hash"]) and float(e["key_hash"]) != e["key_hash"]
    assert mcp.call("memory_get", memory_id=e["id"])["key_hash_str"] == e["key_hash_str"]
    hits = mcp.call("memory_search_structured", query="token refresh race", top_k=3)
    assert hits and all(h["key_hash_str"] == str(h["key_hash"]) for h in hits)
    listed = mcp.call("memory_list_structured", limit=3)
    assert all(m["key_hash_str"] == str(m["key_hash"]) and m["symbol_keys_str"] == [] for m in listed)


def test_symbol_keys_accept_decimal_strings_exactly(served):
    _, mcp = served
    e = mcp.call("memory_write_structured", text="refs a symbol", symbol_keys=[str(BIG), 7])
    assert e["symbol_keys"] == [BIG, 7] and e["symbol_keys_str"] == [str(BIG), "7"]


def test_pattern_scan_takes_the_target_key_as_a_string(served):
    _, mcp = served
    e = mcp.call("memory_write_structured", text="the token is refreshed twice")
    mcp.call("pattern_load", pattern_set_id="pat:t", patterns=["token"])
    by_int = mcp.call("pattern_scan", pattern_set_id="pat:t", target_key=e["key_hash"])
    by_str = mcp.call("pattern_scan", pattern_set_id="pat:t", target_key=e["key_hash_str"])
    assert by_int == by_str and by_str[0]["text"] == "token"


@pytest.mark.parametrize("bad", ["-1", "abc", "1" * 25, str(1 << 64), "1e5", "٣"])
def test_bad_key_hash_strings_are_refused_naming_the_argument(served, bad):
    _, mcp = served
    text = mcp.error("memory_write_structured", text="x", symbol_keys=[bad])
    assert "symbol_keys" in text and len(text) < 300
    text = mcp.error("pattern_scan", pattern_set_id="pat:secrets", target_key=bad)
    assert "target_key" in text


def test_with_strings_covers_nested_fields_and_any_big_integer():
    out = with_strings({"key_hash": 5, "hits": [{"entry": {"key_hash": BIG}}], "count": 3, "flag": True,
                        "offset": 1 << 60, "ids": [1, 1 << 60]})
    assert out["key_hash_str"] == "5" and out["hits"][0]["entry"]["key_hash_str"] == str(BIG)
    assert out["offset_str"] == str(1 << 60) and out["ids_str"] == ["1", str(1 << 60)]
    assert "count_str" not in out and "flag_str" not in out
    assert parse(" 42 ", "k") == 42 and parse(BIG, "k") == BIG
