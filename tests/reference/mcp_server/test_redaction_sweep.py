"""Every planted secret kind through every tool of `--tools all`, then every byte of the data folder grepped (issue 25).

The tools are taken from the live `tools/list` answer, not from a chosen list, and each tool's
arguments are built from its own input schema: every string, every string in a list and every
key and string of a JSON object carries the planted text (`secret_samples.PLANTS`). Tools whose
arguments must be a key, a name or an existing id are also called with a valid base call
(`BASE`) in which one argument at a time carries the plants: the whole text where the tool takes
free text, or one plant whose text is itself a valid token (`ghp_...`, `AKIA...`) as a name, or as a
path part of a key (`file:src/ghp_...`). A call may be refused (a malformed key); what matters is that the tool ran with the
plants at least once (asserted per tool) and that no secret's bytes, nor any file name, in the
data folder holds a secret afterwards. The code folder the path tools read also holds the plants.

`CODEMEM_SWEEP_EACH=1` calls every tool once per plant kind as well (a larger run: ~30x the calls).
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from tests.reference.mcp_server.conftest import START, open_server
from tests.reference.secret_samples import PLANTED_TEXT, PLANTS, all_bytes, leaked

# the plants whose whole text is a token a key or a name can hold (no space, quote or newline)
TOKEN_PLANTS = [text.strip() for _, text, _ in PLANTS if re.fullmatch(r"[A-Za-z0-9_.:/=+-]+", text.strip())]

# a valid call for tools whose arguments must be keys, ids or names; "{mem}" is a stored memory's id,
# "{lane}" a Memory Lane memory's id, "{pmem}" a project memory's id
BASE: dict[str, dict[str, Any]] = {
    "memory_write_structured": {"text": "note", "task": "task:debug", "context": ["context:auth"],
                                "insights": ["insight:pitfall"], "tags": ["t"], "metadata": {"k": "v"}},
    "memory_search_structured": {"query": "note", "tags": ["t"], "where_metadata": {"k": ["v"]}},
    "memory_get": {"memory_id": "{mem}"},
    "memory_list_structured": {"task": "task:debug"},
    "memory_write": {"text": "note", "thread": "th", "tags": ["t"]},
    "memory_search": {"query": "note", "thread": "th"},
    "memory_write_batch": {"memories": [{"text": "note", "tags": ["t"], "metadata": {"k": "v"}}]},
    "jit_index_file": {"path": "src/secrets.py"},
    "jit_index_directory": {"path": "src", "glob": "**/*.py"},
    "register_file": {"path": "src/notes.txt"},
    "pattern_load": {"pattern_set_id": "pat:sweep", "patterns": ["retry"], "description": "d", "tags": ["t"],
                     "names": ["n"]},
    "pattern_scan": {"pattern_set_id": "pat:sweep", "target": "{mem}"},
    "pattern_scan_memories": {"pattern_set_id": "pat:sweep", "task": "task:debug"},
    "graph_put_node": {"id": "file:src/a.py", "type": "file", "payload": {"k": "v"}, "scope": "repo",
                       "run_id": "r", "task_id": "t"},
    "graph_get_node": {"id": "file:src/a.py"},
    "graph_put_edge": {"src": "file:src/a.py", "rel": "imports", "dst": "file:src/b.py", "payload": {"k": "v"},
                       "run_id": "r", "task_id": "t"},
    "graph_get_edge": {"src": "file:src/a.py", "rel": "imports", "dst": "file:src/b.py"},
    "graph_get_out": {"src": "file:src/a.py"},
    "graph_get_in": {"dst": "file:src/b.py"},
    "graph_delete_edge": {"src": "file:src/a.py", "rel": "imports", "dst": "file:src/b.py", "run_id": "r",
                          "task_id": "t"},
    "graph_supersede": {"new_id": "file:src/c.py", "old_id": "file:src/a.py", "payload": {"k": "v"},
                        "run_id": "r", "task_id": "t"},
    "graph_diff_since": {"since": 0},
    "policy_put": {"scope": "repo", "namespace": "ns", "key": "k", "payload": {"k": "v"}, "run_id": "r",
                   "task_id": "t"},
    "policy_get": {"scope": "repo", "namespace": "ns", "key": "k"},
    "policy_list": {"scope": "repo", "namespace": "ns"},
    "policy_delete": {"scope": "repo", "namespace": "ns", "key": "k", "run_id": "r", "task_id": "t"},
    "graph_export_snapshot": {"name": "sweep"},
    "snapshot_get_node": {"name": "sweep", "id": "file:src/a.py"},
    "snapshot_get_out": {"name": "sweep", "src": "file:src/a.py"},
    "snapshot_get_in": {"name": "sweep", "dst": "file:src/b.py"},
    "oracle_search": {"query": "note", "entityFilter": ["feature:auth"]},
    "oracle_entities": {"type": "feature", "documentId": "{mem}"},
    "oracle_relationships": {"documentId": "{mem}"},
    "oracle_timeline": {},
    "oracle_learn": {"pattern": "note", "concepts": ["c"], "source": "s"},
    "memory-lane_store": {"information": "note", "type": "decision", "entities": ["feature:auth"],
                          "paths": ["src/a.py"], "tags": ["t"]},
    "memory-lane_find": {"query": "note", "entities": ["feature:auth"]},
    "memory-lane_feedback": {"memory_id": "{lane}", "signal": "helpful"},
    "memory-lane_inject": {"query": "note", "session_id": "s1"},
    "project_memory_search": {"query": "note", "branch": "main"},
    "project_placeholder": {"summary": "note", "session_id": "s1", "tool_name": "Edit",
                            "prev_commit_sha": "a" * 40},
    "project_locate_files": {"query": "note"},
    "project_index_snapshot": {"files": [{"path": "src/a.py", "text": "x = 1\n"}]},
    "project_gc": {"live_branches": ["main"]},
    "project_memory_get": {"memory_id": "{pmem}"},
    "project_switch_branch": {"name": "feature"},
    "project_record_commit": {"sha": "b" * 40, "message": "fix", "parent": "a" * 40, "files": ["src/a.py"],
                              "branch": "main", "time": int(START)},
    "_harness_set_clock": {"time": START + 10},
    "_harness_advance_clock": {"seconds": 1.0},
    "_harness_set_context": {"scope": "repo", "run_id": "r", "task_id": "t", "session_id": "s1"},
}

# what a delete tool needs live before each call: (the tool that puts it back, the arguments it shares)
UNDO = {"graph_delete_edge": ("graph_put_edge", ("src", "rel", "dst")),
        "policy_delete": ("policy_put", ("scope", "namespace", "key"))}


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref:
        return _resolve(root["$defs"][ref.rsplit("/", 1)[1]], root)
    return schema


def planted(schema: dict[str, Any], root: dict[str, Any], text: str) -> Any:
    """A value of `schema` carrying `text` wherever it holds a string (and as object keys)."""
    schema = _resolve(schema, root)
    options = [_resolve(s, root) for s in schema.get("anyOf", [])] or [schema]
    options = [s for s in options if s.get("type") != "null"] or options
    s = options[0]
    if "enum" in s:
        return s["enum"][0]
    kind = s.get("type")
    if kind == "string":
        return text
    if kind == "array":
        item = s.get("items", {})
        parts = [t for _, t, _ in PLANTS] if text == PLANTED_TEXT else [text]   # one plant per item
        return [planted(item, root, t) for t in parts]
    if kind == "object" or kind is None:
        if s.get("properties"):
            return {k: planted(v, root, text) for k, v in s["properties"].items()}
        parts = [t for _, t, _ in PLANTS] if text == PLANTED_TEXT else [text]
        return {"note": text, "items": parts, **{t: "key" for t in parts}, "nested": {"deep": text}}
    if kind == "integer":
        return max(1, s.get("minimum", 1))
    if kind == "number":
        return START + 5
    if kind == "boolean":
        return True
    return None


def calls(tool: Any, ids: dict[str, str], each: bool) -> list[dict[str, Any]]:
    """Argument sets for `tool`: the whole schema planted, then the base call with one argument planted."""
    schema = tool.input_schema
    props = schema.get("properties", {})
    texts = [PLANTED_TEXT] + ([t for _, t, _ in PLANTS] if each else [])
    out = [{k: planted(v, schema, t) for k, v in props.items()} for t in texts] if props else [{}]
    base = {k: (v.format(**ids) if isinstance(v, str) else v) for k, v in BASE.get(tool.name, {}).items()}
    for name, prop in props.items():
        for t in texts:
            out.append({**base, name: planted(prop, schema, t)})
        if isinstance(base.get(name), str):                       # a key or a name: a token spliced in
            for token in TOKEN_PLANTS:
                ns, colon, _ = base[name].partition(":")
                out.append({**base, name: f"{ns}:src/{token}" if colon else token})
        elif name == "memories":
            out.append({name: [{"text": t, "tags": [t], "metadata": {t: t}} for _, t, _ in PLANTS]})
        elif name == "files":
            out.append({name: [{"path": f"src/p{i}.py", "text": t} for i, (_, t, _) in enumerate(PLANTS)]})
    out.append(base)
    return out


def test_no_planted_secret_reaches_the_data_folder_through_any_tool(tmp_path):
    root = tmp_path
    src = root / "src"
    src.mkdir()
    body = "\n".join(f"KEY_{i} = {json.dumps(t)}" for i, (_, t, _) in enumerate(PLANTS))
    (src / "secrets.py").write_text(f'"""{PLANTED_TEXT}"""\n{body}\n\ndef f():\n    return 1\n')
    (src / "notes.txt").write_text(PLANTED_TEXT + "\n")
    (root / "snap.jsonl").write_text("".join(json.dumps({"path": f"src/p{i}.py", "text": t}) + "\n"
                                             for i, (_, t, _) in enumerate(PLANTS)))
    data = root / "data"
    ctx, mcp = open_server(data, root=root)
    each = os.environ.get("CODEMEM_SWEEP_EACH") == "1"
    try:
        ids = {"mem": mcp.call("memory_write_structured", text="seed note", task="task:debug")["id"],
               "lane": mcp.call("memory-lane_store", information="seed decision note")["id"],
               "pmem": mcp.call("project_placeholder", summary="seed summary")["memory_id"]}
        for node in ("file:src/a.py", "file:src/b.py", "file:src/c.py"):
            mcp.call("graph_put_node", id=node, type="file")
        tools = mcp.tools()
        assert len(tools) >= 53
        ran: dict[str, int] = {}
        for tool in tools:
            for args in calls(tool, ids, each):
                if tool.name == "project_index_snapshot" and "path" in args:
                    args = {**args, "path": "snap.jsonl"} if args["path"] == PLANTED_TEXT else args
                if tool.name in UNDO:                     # a delete needs something live to delete
                    again, keep = UNDO[tool.name]
                    mcp.raw(again, {k: v for k, v in args.items() if k in keep} | {"payload": {"k": "v"}})
                result = mcp.raw(tool.name, args)
                if not result.is_error:
                    ran[tool.name] = ran.get(tool.name, 0) + 1
                elif os.environ.get("CODEMEM_SWEEP_DEBUG"):
                    print(tool.name, sorted(args), result.content[0].text[:200])
        assert not [t.name for t in tools if t.name not in ran], "tools that never ran with the plants"
        mcp.call("_harness_checkpoint")
    finally:
        mcp.close()
        ctx.close()
    found = leaked(data)
    assert not found, f"secrets in the data folder: {found}"
    names = "\n".join(str(p.relative_to(data)) for p in data.rglob("*"))
    assert not [k for k, _, s in PLANTS if s in names], names
    assert len(all_bytes(data)) > 0
