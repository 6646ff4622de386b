"""The older tools seed 000 §0 keeps: free-form memories in threads, and the JIT code tools."""
from __future__ import annotations

import textwrap

from reference.keys import hash64

SOURCE = textwrap.dedent('''\
    """Payment helpers."""


    def round_half_even(amount):
        return round(amount, 2)


    class InvoiceRenderer:
        def render_pdf(self, invoice):
            return b"%PDF"
    ''')


def test_threads_become_tags_and_are_listed_with_counts(mcp):
    a1 = mcp.call("memory_write", text="we agreed to keep the v1 API until June", thread="planning")
    mcp.call("_harness_advance_clock", seconds=30.0)
    a2 = mcp.call("memory_write", text="June deadline moved to July", thread="planning", tags=["deadline"])
    b1 = mcp.call("memory_write", text="flaky test in CI is the clock", thread="ci")
    free = mcp.call("memory_write", text="unthreaded note about the clock")
    assert a2["tags"] == ["deadline", "thread:planning"] and free["tags"] == []
    assert mcp.call("memory_list_threads") == [
        {"thread": "ci", "count": 1, "last_written_at": b1["created_at"]},
        {"thread": "planning", "count": 2, "last_written_at": a1["created_at"] + 30.0},
    ]
    in_planning = mcp.call("memory_search", query="deadline June", thread="planning")
    assert {h["id"] for h in in_planning} == {a1["id"], a2["id"]}
    everywhere = {h["id"] for h in mcp.call("memory_search", query="clock", top_k=10)}
    assert {b1["id"], free["id"]} <= everywhere
    assert "thread" in mcp.error("memory_write", text="x", thread="  ")


def test_index_file_then_search_code_and_symbols(served, tmp_path):
    ctx, mcp = served
    (tmp_path / "pay").mkdir()
    (tmp_path / "pay" / "money.py").write_text(SOURCE)
    result = mcp.call("jit_index_file", path="pay/money.py")          # relative to the server root (tmp_path)
    assert result["files_indexed"] == 1 and result["file_keys"] == ["file:pay/money.py"]
    assert result["symbols"] == 3            # round_half_even, InvoiceRenderer, InvoiceRenderer.render_pdf
    top = mcp.call("symbol_search", query="render_pdf", top_k=3)[0]
    assert top["id"] == "sym:pay/money.py#InvoiceRenderer.render_pdf:method:9:10"
    code = [h["id"] for h in mcp.call("code_search", query="round half even amount", top_k=5)]
    assert set(code) == {"file:pay/money.py", "chunk:pay/money.py:0"}      # the file is one chunk
    kinds = {h["kind"] for h in mcp.call("jit_search", query="invoice renderer", top_k=20, types=["symbol"])}
    assert kinds == {"symbol"}
    again = mcp.call("jit_index_file", path=str(tmp_path / "pay" / "money.py"), root=str(tmp_path))
    assert again["files_unchanged"] == 1 and again["files_indexed"] == 0


def test_index_directory_keys_are_relative_to_that_directory(mcp, tmp_path):
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "a.py").write_text("def alpha():\n    return 1\n")
    (repo / "b.py").write_text("def beta():\n    return 2\n")
    (repo / ".hidden").mkdir()
    (repo / ".hidden" / "c.py").write_text("def gamma():\n    return 3\n")
    result = mcp.call("jit_index_directory", path="repo")
    assert sorted(result["file_keys"]) == ["file:b.py", "file:pkg/a.py"]
    assert mcp.call("symbol_search", query="beta", top_k=1)[0]["id"] == "sym:b.py#beta:function:1:2"


def test_register_file_stores_a_record_without_symbols(mcp, tmp_path):
    (tmp_path / "NOTES.md").write_text("Deploys happen on Tuesdays after the freeze.\n")
    row = mcp.call("register_file", path="NOTES.md")
    assert row["key"] == "file:NOTES.md" and row["key_hash"] == hash64("file:NOTES.md")
    assert mcp.call("symbol_search", query="Deploys", top_k=5) == []
    assert mcp.call("jit_search", query="deploys tuesdays freeze", top_k=1, types=["file"])[0]["id"] == "file:NOTES.md"
