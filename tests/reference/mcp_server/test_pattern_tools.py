"""Pattern tools (seed 000 §5.2): load, list, scan indexed content and memories; expected matches from `re`."""
from __future__ import annotations

import re

from reference.keys import hash64
from tests.reference.mcp_server.conftest import open_server

TODO = r"TODO\(\w+\)"
FIXME = r"FIXME:[^\n]*"


def re_matches(patterns: list[str], data: bytes) -> list[tuple[int, int, int]]:
    """(start, end, pattern index) of every match, the order the tools report them."""
    found = [(m.start(), m.end(), i) for i, p in enumerate(patterns) for m in re.finditer(p.encode(), data)]
    return sorted(found, key=lambda t: (t[0], t[2]))


def test_load_then_list_shows_the_set_with_builtins(mcp):
    info = mcp.call("pattern_load", pattern_set_id="pat:todo", patterns=[TODO, FIXME], description="open work",
                    tags=["hygiene"])
    assert (info["id"], info["pattern_count"], info["patterns"], info["tags"]) == ("pat:todo", 2, [TODO, FIXME],
                                                                                    ["hygiene"])
    listed = {s["id"]: s for s in mcp.call("pattern_list")}
    assert {"pat:todo", "pat:secrets", "pat:security-smells"} <= set(listed)
    assert listed["pat:todo"]["description"] == "open work"


def test_scan_a_file_by_key_hash_and_by_key(mcp, tmp_path):
    text = "x = 1  # TODO(ana) split\ny = 2\n# FIXME: unicode é here\nz = 3  # TODO(bo)\n"
    (tmp_path / "w.py").write_text(text, encoding="utf-8")
    mcp.call("jit_index_file", path="w.py")
    mcp.call("pattern_load", pattern_set_id="pat:todo", patterns=[TODO, FIXME])
    by_hash = mcp.call("pattern_scan", pattern_set_id="pat:todo", target_key=hash64("file:w.py"))
    by_key = mcp.call("pattern_scan", pattern_set_id="pat:todo", target="file:w.py")
    data = text.encode("utf-8")
    expected = re_matches([TODO, FIXME], data)
    assert [(m["start"], m["end"], m["pattern_index"]) for m in by_hash] == expected
    assert by_key == by_hash
    assert [m["text"] for m in by_hash] == [data[s:e].decode() for s, e, _ in expected]


def test_scan_a_memory_scans_its_text(mcp):
    mem = mcp.call("memory_write_structured", text="call eval( user_input ) here, then exec (code)")
    hits = mcp.call("pattern_scan", pattern_set_id="pat:security-smells", target=mem["id"])
    assert [m["text"] for m in hits] == ["eval(", "exec ("]
    assert hits[0]["start"] == len("call ")


def test_scan_memories_filters_then_reports_each_match(mcp):
    a = mcp.call("memory_write_structured", text="TODO(ana) retry the upload", task="task:debug")["id"]
    mcp.call("memory_write_structured", text="TODO(bo) but not debug", task="task:refactor")
    mcp.call("memory_write_structured", text="nothing to do", task="task:debug")
    mcp.call("_harness_advance_clock", seconds=1.0)      # oldest first: c is written after a
    c = mcp.call("memory_write_structured", text="FIXME: flaky, TODO(cy) too", task="task:debug",
                 context=["context:testing"])["id"]
    mcp.call("pattern_load", pattern_set_id="pat:todo", patterns=[TODO, FIXME])
    found = mcp.call("pattern_scan_memories", pattern_set_id="pat:todo", task="task:debug")
    assert [f["id"] for f in found] == [a, c]
    assert [(m["start"], m["end"], m["pattern_index"]) for m in found[1]["matches"]] == re_matches(
        [TODO, FIXME], b"FIXME: flaky, TODO(cy) too")
    only_testing = mcp.call("pattern_scan_memories", pattern_set_id="pat:todo", context=["context:testing"])
    assert [f["id"] for f in only_testing] == [c]


def test_a_loaded_set_reaches_other_servers_on_the_folder_and_survives_restart(served):
    ctx, mcp = served
    mcp.call("pattern_load", pattern_set_id="pat:todo", patterns=[TODO])
    other_ctx, other = open_server(ctx.data_dir)
    try:
        assert "pat:todo" in {s["id"] for s in other.call("pattern_list")}
        other.call("pattern_load", pattern_set_id="pat:todo", patterns=[TODO, FIXME])
        assert next(s for s in mcp.call("pattern_list") if s["id"] == "pat:todo")["pattern_count"] == 2
    finally:
        other.close()
        other_ctx.close()


def test_a_bad_pattern_keeps_the_previous_version(mcp):
    mcp.call("pattern_load", pattern_set_id="pat:todo", patterns=[TODO])
    mcp.error("pattern_load", pattern_set_id="pat:todo", patterns=[TODO, "(a)\\1"])
    assert next(s for s in mcp.call("pattern_list") if s["id"] == "pat:todo")["patterns"] == [TODO]
