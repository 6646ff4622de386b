"""`memory_write_batch`: several memories in one call store what the single-write calls store."""
from __future__ import annotations

from tests.reference.mcp_server.conftest import open_server

ITEMS = [dict(text="token refresh races on logout in src/auth/session.ts", task="task:debug",
              context=["context:auth"], tags=["auth"]),
         dict(text="invoice totals round half-even", insights=["insight:decision"], metadata={"branch": "main"}),
         dict(text="also retry the refresh once", symbol_keys=["18446744073709551615", 7])]


def _entries_without_time(entries):
    return [{k: v for k, v in e.items()} for e in entries]


def test_a_batch_stores_what_single_calls_store(tmp_path):
    ctx_a, one = open_server(tmp_path / "one", root=tmp_path)
    ctx_b, many = open_server(tmp_path / "many", root=tmp_path)
    try:
        singles = [one.call("memory_write_structured", **item) for item in ITEMS]
        batch = many.call("memory_write_batch", memories=ITEMS)
        assert _entries_without_time(batch) == _entries_without_time(singles)
        assert batch[2]["symbol_keys"] == [(1 << 64) - 1, 7]
        for e in batch:
            assert many.call("memory_get", memory_id=e["id"])["text"] == e["text"]
        hits_one = one.call("memory_search_structured", query="refresh logout", top_k=3)
        hits_many = many.call("memory_search_structured", query="refresh logout", top_k=3)
        assert [(h["id"], h["score"]) for h in hits_one] == [(h["id"], h["score"]) for h in hits_many]
    finally:
        for client, ctx in ((one, ctx_a), (many, ctx_b)):
            client.close()
            ctx.close()


def test_one_bad_item_stores_none_and_is_named(mcp):
    err = mcp.error("memory_write_batch", memories=[ITEMS[0], dict(text="x", colour="red")])
    assert "record 1" in err and "colour" in err and len(err) < 300
    err = mcp.error("memory_write_batch", memories=[ITEMS[0], dict(text="ok", task="task:nope")])
    assert "nope" in err
    assert mcp.call("memory_list_structured") == []


def test_more_than_256_items_are_refused_before_any_work(mcp):
    err = mcp.error("memory_write_batch", memories=[dict(text=f"note {i}") for i in range(257)])
    assert "257" in err and "256" in err
    assert mcp.call("memory_list_structured") == []
