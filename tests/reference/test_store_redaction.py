"""Secrets planted in writes are redacted before they reach any byte of the data directory.

The second half plants one secret of every kind `pat:secrets` knows (tests/reference/secret_samples.py)
through every write path -- store API with the knowledge and project layers, `ingest-git` on a real
repository, every MCP tool that stores caller data (in process and over stdio), the graph, policy and a
snapshot -- and greps every byte of the data folder, WAL and LMDB files included.
"""
from pathlib import Path

import anyio

from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer
from reference.project import CommitInfo, ProjectMemory
from reference.store import MemoryStore
from tests.reference.secret_samples import PLANTED_TEXT, PLANTS, leaked

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


# -- every secret kind, every write path, every byte of the data folder ---------------------------

ONE_LINE = [text.strip() for _, text, _ in PLANTS if "\n" not in text.strip()]
BRANCH_KEY = "password=PLANTEDbranch42"   # a valid git branch name carrying a secret
SECRET_PATH = "cfg/token=PLANTEDpathtok9.ini"
EXTRA = [("branch", "", "PLANTEDbranch42"), ("path", "", "PLANTEDpathtok9"), ("session", "", "PLANTEDsess77")]
KINDS = {kind for kind, _, _ in PLANTS}


def plant_files(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.py").write_text(PLANTED_TEXT + "\n")
    (folder / SECRET_PATH).parent.mkdir(parents=True, exist_ok=True)
    (folder / SECRET_PATH.replace(".ini", ".py")).write_text("def f():\n    return 1\n")  # the name is the secret
    (folder / "notes.md").write_text("# notes\n" + "\n".join(ONE_LINE) + "\n")
    return folder


def assert_clean(data: Path) -> None:
    """No planted value anywhere under `data`; checked with the files as they are (WAL included)."""
    assert leaked(data, PLANTS + EXTRA) == []


def test_store_api_knowledge_and_project_layers_store_no_secret(tmp_path):
    src = plant_files(tmp_path / "src")
    data = tmp_path / "data"
    store = MemoryStore.open(data, clock=LogicalClock(1_700_000_000.0))
    try:
        KnowledgeLayer.for_store(store).learn(PLANTED_TEXT, concepts=ONE_LINE, source=ONE_LINE[0])
        project = ProjectMemory.for_store(store)
        project.switch_branch(BRANCH_KEY)
        e = store.write_memory(PLANTED_TEXT, task="task:security_review", tags=ONE_LINE[:5],
                               metadata={"note": PLANTED_TEXT, "list": ONE_LINE})
        store.update_metadata(e.id, {"later": PLANTED_TEXT})
        store.index_directory(src)
        message = ONE_LINE[1] + "\n\n" + PLANTED_TEXT
        w = project.record_commit(CommitInfo("a" * 40, (), BRANCH_KEY, 1_700_000_100, message.split("\n")[0],
                                             message, (SECRET_PATH, "src/settings.py")))
        project.create_placeholder("sess-password=PLANTEDsess77", PLANTED_TEXT, branch=BRANCH_KEY)
        assert w.branch == project.current_branch == "password=[REDACTED:unquoted-assignment]"
        assert project.search("settings", branch=BRANCH_KEY)  # the branch filter still finds its memories
        assert store.get_memory(w.memory_id).metadata["branch"] == w.branch
        assert_clean(data)   # with tracker.db-wal still holding the transactions
    finally:
        store.close()
    assert_clean(data)


def test_ingest_git_stores_no_secret(tmp_path):
    from bench.cli.main import main
    from tests.reference.project.git_repo import Repo

    repo_dir = tmp_path / "repo"
    repo_dir.mkdir()
    repo = Repo(repo_dir)
    repo.commit("Initial commit", {"README.md": "hello\n"})
    repo.git("checkout", "-q", "-b", BRANCH_KEY)
    repo.commit(f"Rotate {ONE_LINE[1]}\n\n{PLANTED_TEXT}", {"settings.py": PLANTED_TEXT + "\n", SECRET_PATH: "x\n"})
    repo.git("checkout", "-q", "main")
    repo.commit(f"Main work, token = PLANTEDhunter2\n\n{PLANTED_TEXT}", {"main.py": PLANTED_TEXT + "\n"})
    data = tmp_path / "data"
    assert main(["ingest-git", str(repo_dir), "--data", str(data), "--quiet"]) == 0
    assert main(["ingest-git", str(repo_dir), "--data", str(data), "--quiet", "--placeholder", "s1",
                 "--summary", PLANTED_TEXT]) == 0
    assert_clean(data)
    with MemoryStore.open(data, clock=LogicalClock(0.0)) as store:
        branches = {e.metadata["branch"] for e in ProjectMemory.for_store(store).memories()}
    assert branches == {"main", "password=[REDACTED:unquoted-assignment]"}


def mcp_calls(root: Path) -> list[tuple[str, dict]]:
    """One call of every tool that stores caller data, each carrying every planted kind it can."""
    nid = "file:src/" + ONE_LINE[0] + ".py"
    # one payload entry per planted kind: a payload string may hold at most 512 characters (limits.py)
    each = {f"k{i}": text for i, (_, text, _) in enumerate(PLANTS)}
    return [
        ("_harness_set_context", {"run_id": "run-password=PLANTEDsess77", "task_id": None}),
        ("memory_write_structured", {"text": PLANTED_TEXT, "tags": ONE_LINE[:4], "metadata": each,
                                     "insights": ["insight:decision"]}),
        ("memory-lane_store", {"information": PLANTED_TEXT, "entities": ["project:codemem"], "paths": [SECRET_PATH],
                               "tags": ONE_LINE[3:6]}),
        ("jit_index_file", {"path": str(root / "src" / "settings.py")}),
        ("jit_index_directory", {"path": str(root / "src"), "glob": "*.md"}),
        ("register_file", {"path": str(root / "src" / "notes.md")}),
        ("graph_put_node", {"id": nid, "type": "file", "payload": {**each, ONE_LINE[2]: ONE_LINE}}),
        ("graph_put_node", {"id": "file:src/other.py", "type": "file", "payload": {}}),
        ("graph_put_edge", {"src": nid, "rel": "imports", "dst": "file:src/" + ONE_LINE[3],
                            "payload": each}),
        ("graph_supersede", {"new_id": "file:src/other.py", "old_id": nid, "payload": each}),
        ("graph_delete_edge", {"src": nid, "rel": "imports", "dst": "file:src/" + ONE_LINE[3]}),
        ("policy_put", {"scope": "repo", "namespace": "decision", "key": ONE_LINE[4], "payload": each}),
        ("policy_put", {"scope": "repo " + ONE_LINE[5], "namespace": "decision", "key": "k", "payload": ONE_LINE}),
        ("policy_delete", {"scope": "repo", "namespace": "decision", "key": ONE_LINE[4]}),
        ("oracle_learn", {"pattern": PLANTED_TEXT, "concepts": ONE_LINE, "source": ONE_LINE[6]}),
        ("project_switch_branch", {"name": BRANCH_KEY}),
        ("project_placeholder", {"summary": PLANTED_TEXT, "session_id": "s-password=PLANTEDsess77"}),
        ("project_record_commit", {"sha": "b" * 40, "message": f"{ONE_LINE[7]}\n\n{PLANTED_TEXT}",
                                   "files": [SECRET_PATH], "branch": BRANCH_KEY}),
        ("graph_export_snapshot", {"name": "planted"}),
    ]


def test_mcp_tools_in_process_store_no_secret(tmp_path):
    from tests.reference.mcp_server.conftest import open_server

    plant_files(tmp_path / "src")
    ctx, client = open_server(tmp_path / "data", root=tmp_path)
    try:
        for tool, args in mcp_calls(tmp_path):
            client.call(tool, **args)
        assert list((tmp_path / "data").rglob("*.snap")), "the snapshot must be inside the data folder"
        assert_clean(tmp_path / "data")
    finally:
        client.close()
        ctx.close()
    assert_clean(tmp_path / "data")


def test_mcp_server_over_stdio_stores_no_secret(tmp_path):
    import sys

    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    plant_files(tmp_path / "src")
    data = tmp_path / "data"
    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "reference.mcp_server", "--data", str(data), "--root", str(tmp_path), "--clock", "logical:1736935800",
        "--tools", "all"])

    async def session():
        async with Client(stdio_client(params)) as client:
            for tool, args in mcp_calls(tmp_path):
                result = await client.call_tool(tool, args)
                assert not result.is_error, (tool, result.content)

    anyio.run(session)
    assert_clean(data)


def test_the_grep_finds_secrets_when_redaction_is_off(tmp_path):
    """The checks above could not pass vacuously: without redaction every kind is on disk."""
    from tests.reference.mcp_server.conftest import open_server

    plant_files(tmp_path / "src")
    ctx, client = open_server(tmp_path / "data", root=tmp_path, redact=False)
    try:
        for tool, args in mcp_calls(tmp_path):
            client.call(tool, **args)
    finally:
        client.close()
        ctx.close()
    assert set(leaked(tmp_path / "data", PLANTS)) == KINDS
