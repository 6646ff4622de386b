"""Structured memory tools (seed 000 §5.1) through a real MCP client session."""
from __future__ import annotations

import re

from reference.keys import hash64
from reference.rankers import Query
from tests.reference.mcp_server.conftest import START, open_server

NOTES = [  # (text, task, context, insights, tags), written 60 s apart
    ("token refresh races with logout in the auth client", "task:debug", ["context:auth", "context:frontend"],
     ["insight:pitfall"], ["race"]),
    ("invoices are rounded half-even before tax", "task:implement_feature", ["context:billing"],
     ["insight:decision"], []),
    ("the nightly export job must finish before 6am", "task:infra_update", ["context:infra", "context:data"],
     ["insight:constraint"], ["cron"]),
    ("login form keeps the email after a failed attempt", "task:debug", ["context:frontend"], [], ["ux"]),
]


def write_notes(mcp):
    ids = []
    for i, (text, task, context, insights, tags) in enumerate(NOTES):
        if i:
            mcp.call("_harness_advance_clock", seconds=60.0)
        ids.append(mcp.call("memory_write_structured", text=text, task=task, context=context, insights=insights,
                            tags=tags)["id"])
    return ids


def test_write_returns_the_entry_and_get_reads_it_back(mcp):
    entry = mcp.call("memory_write_structured", text="cache keys include the locale", task="task:debug",
                     context=["context:backend"], insights=["insight:pitfall"], tags=["cache"],
                     symbol_keys=[2**64 - 1, 12345])
    assert re.fullmatch(r"mem:[0-9a-f]{8}", entry["id"])
    assert entry["key_hash"] == hash64(entry["id"])
    assert entry["created_at"] == START
    assert (entry["text"], entry["task"], entry["context"], entry["insights"], entry["tags"], entry["symbol_keys"]) == (
        "cache keys include the locale", "task:debug", ["context:backend"], ["insight:pitfall"], ["cache"],
        [2**64 - 1, 12345])
    got = mcp.call("memory_get", memory_id=entry["id"])
    assert got == entry


def test_get_of_an_unknown_id_is_null(mcp):
    assert mcp.call("memory_get", memory_id="mem:00000000") is None


def test_get_of_an_unknown_id_says_so_in_its_text(mcp):
    """A client that reads only the text content sees why nothing came back (it was empty)."""
    result = mcp.raw("memory_get", {"memory_id": "mem:00000000"})
    assert not result.is_error and result.structured_content == {"result": None}
    assert " ".join(c.text for c in result.content) == "no memory with id 'mem:00000000'"


def test_list_is_newest_first_with_filters_and_pages(mcp):
    ids = write_notes(mcp)
    newest_first = ids[::-1]
    assert [m["id"] for m in mcp.call("memory_list_structured")] == newest_first
    assert [m["id"] for m in mcp.call("memory_list_structured", task="task:debug")] == [ids[3], ids[0]]
    assert [m["id"] for m in mcp.call("memory_list_structured", context=["context:frontend"])] == [ids[3], ids[0]]
    assert [m["id"] for m in mcp.call("memory_list_structured", context=["context:frontend", "context:auth"])] == [ids[0]]
    assert [m["id"] for m in mcp.call("memory_list_structured", limit=2, offset=1)] == newest_first[1:3]
    assert [m["created_at"] for m in mcp.call("memory_list_structured")] == [START + 180, START + 120, START + 60, START]


def test_search_applies_every_filter_then_ranks_by_the_query(mcp):
    ids = write_notes(mcp)
    hits = mcp.call("memory_search_structured", query="token refresh logout race", top_k=4)
    assert hits[0]["id"] == ids[0]
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    only_debug = mcp.call("memory_search_structured", query="token refresh", task="task:debug")
    assert {h["id"] for h in only_debug} <= {ids[0], ids[3]}
    assert mcp.call("memory_search_structured", query="rounding", insights=["insight:decision"])[0]["id"] == ids[1]
    assert [h["id"] for h in mcp.call("memory_search_structured", tags=["cron"])] == [ids[2]]
    assert mcp.call("memory_search_structured", query="x", context=["context:api"]) == []


def test_search_without_query_lists_newest_first_with_zero_scores(mcp):
    ids = write_notes(mcp)
    hits = mcp.call("memory_search_structured", top_k=3)
    assert [(h["id"], h["score"]) for h in hits] == [(ids[3], 0.0), (ids[2], 0.0), (ids[1], 0.0)]


def test_scores_cross_the_protocol_unchanged(served):
    ctx, mcp = served
    write_notes(mcp)
    # a query three notes match (the default ranker lists only memories something matched: no prior alone)
    query = "export token login"
    over_mcp = [(h["id"], h["score"]) for h in mcp.call("memory_search_structured", query=query)]
    direct = [(h.id, h.score) for h in ctx.ranker.search(Query(query))]   # the server's ranker
    assert over_mcp == direct and len(direct) >= 3


def test_metadata_extension_and_where_metadata_filter(mcp):
    main = mcp.call("memory_write_structured", text="flaky upload retried", metadata={"branch": "main"})["id"]
    mcp.call("memory_write_structured", text="flaky upload retried twice", metadata={"branch": "feature/x"})
    bare = mcp.call("memory_write_structured", text="flaky upload retried later")["id"]
    found = mcp.call("memory_search_structured", query="flaky upload", where_metadata={"branch": ["main", None]})
    assert {h["id"] for h in found} == {main, bare}
    assert mcp.call("memory_get", memory_id=main)["metadata"] == {"branch": "main"}


def test_secrets_are_redacted_before_they_are_stored(served, tmp_path):
    ctx, mcp = served
    entry = mcp.call("memory_write_structured", text='db password = "hunter2hunter2" in settings',
                     tags=["token ghp_" + "a" * 36])
    stored = mcp.call("memory_get", memory_id=entry["id"])
    assert "hunter2hunter2" not in stored["text"] and "[REDACTED:" in stored["text"]
    assert "a" * 36 not in stored["tags"][0]
    assert b"hunter2hunter2" not in (ctx.data_dir / "blob.dat").read_bytes()
    plain_ctx, plain = open_server(tmp_path / "plain", redact=False)
    try:
        kept = plain.call("memory_write_structured", text='db password = "hunter2hunter2" in settings')
        assert "hunter2hunter2" in kept["text"]
    finally:
        plain.close()
        plain_ctx.close()
