"""No tool reads outside the server's --root or writes outside its data folder (reference.path_policy).

Every tool that takes a path is tried with an absolute path, `..`, `~`, a
symlinked file and a symlinked folder that lead outside; each is refused with
an error naming the argument and the rule, and nothing of the outside file is
stored (a refused call leaves the store as it was).
"""
from __future__ import annotations

import json
import os

import pytest

from tests.reference.mcp_server.conftest import open_server

SECRET = "OUTSIDE_SECRET_7f3a"


@pytest.fixture
def world(tmp_path, monkeypatch):
    """(ctx, mcp, repo, outside): a server rooted at repo/, with links from repo/ to outside/."""
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / "src").mkdir(parents=True)
    outside.mkdir()
    (repo / "src" / "ok.py").write_text("def ok():\n    return 1\n")
    (outside / "secret.py").write_text(f"KEY = '{SECRET}'\n")
    (outside / "snap.jsonl").write_text(json.dumps({"path": "x.py", "text": SECRET}) + "\n")
    (repo / "file_link.py").symlink_to(outside / "secret.py")
    (repo / "dir_link").symlink_to(outside, target_is_directory=True)
    (repo / "snap_link.jsonl").symlink_to(outside / "snap.jsonl")
    monkeypatch.setenv("HOME", str(outside))
    ctx, mcp = open_server(tmp_path / "data", root=repo)
    yield ctx, mcp, repo, outside
    mcp.close()
    ctx.close()


def stored_text(ctx) -> str:
    """Every byte of the data folder's tracker and blob, as text (to look for the secret)."""
    ctx.store.tracker.checkpoint()
    return b"".join(p.read_bytes() for p in ctx.data_dir.rglob("*") if p.is_file()).decode("latin-1")


ESCAPES = [
    # (tool, arguments); `{out}` is the outside folder
    ("jit_index_file", {"path": "{out}/secret.py"}),
    ("jit_index_file", {"path": "{out}/secret.py", "root": "{out}"}),
    ("jit_index_file", {"path": "/etc/passwd", "root": "/etc"}),
    ("jit_index_file", {"path": "../outside/secret.py"}),
    ("jit_index_file", {"path": "src/../../outside/secret.py"}),
    ("jit_index_file", {"path": "~/secret.py"}),
    ("jit_index_file", {"path": "secret.py", "root": "~"}),
    ("jit_index_file", {"path": "file_link.py"}),
    ("jit_index_file", {"path": "dir_link/secret.py"}),
    ("jit_index_file", {"path": "secret.py", "root": "dir_link"}),
    ("jit_index_file", {"path": "secret.py", "root": ".."}),
    ("jit_index_directory", {"path": "{out}"}),
    ("jit_index_directory", {"path": "/etc", "glob": "passwd"}),
    ("jit_index_directory", {"path": ".."}),
    ("jit_index_directory", {"path": "~"}),
    ("jit_index_directory", {"path": "dir_link"}),
    ("jit_index_directory", {"path": "file_link.py"}),
    ("jit_index_directory", {"path": "src", "glob": "../../outside/*.py"}),
    ("jit_index_directory", {"path": ".", "glob": "../outside/*.py"}),
    ("jit_index_directory", {"path": ".", "glob": "/etc/*"}),
    ("jit_index_directory", {"path": ".", "glob": "~/*.py"}),
    ("register_file", {"path": "/etc/hostname", "root": "/"}),
    ("register_file", {"path": "{out}/secret.py"}),
    ("register_file", {"path": "../outside/secret.py"}),
    ("register_file", {"path": "~/secret.py"}),
    ("register_file", {"path": "file_link.py"}),
    ("register_file", {"path": "dir_link/secret.py"}),
    ("project_index_snapshot", {"path": "{out}/snap.jsonl"}),
    ("project_index_snapshot", {"path": "../outside/snap.jsonl"}),
    ("project_index_snapshot", {"path": "~/snap.jsonl"}),
    ("project_index_snapshot", {"path": "snap_link.jsonl"}),
    ("project_index_snapshot", {"path": "dir_link/snap.jsonl"}),
]


def fill(args: dict, outside) -> dict:
    return {k: v.replace("{out}", str(outside)) for k, v in args.items()}


@pytest.mark.parametrize("tool, args", ESCAPES, ids=[f"{t}-{i}" for i, (t, _) in enumerate(ESCAPES)])
def test_a_path_outside_the_root_is_refused_naming_it_and_the_rule(world, tool, args):
    ctx, mcp, _, outside = world
    args = fill(args, outside)
    text = mcp.error(tool, **args)
    assert "rule:" in text and "internal error" not in text, text
    named = [k for k in args if f"argument '{k}'" in text]
    assert named, text                                    # names the argument ...
    assert repr(args[named[0]][:80])[1:-1] in text        # ... and (a prefix of) the path
    assert SECRET not in stored_text(ctx)
    assert ctx.store.stats()["counts"]["files"] == 0


def test_paths_inside_the_root_still_work(world):
    ctx, mcp, repo, _ = world
    assert mcp.call("jit_index_file", path="src/ok.py")["file_keys"] == ["file:src/ok.py"]
    assert mcp.call("jit_index_file", path=str(repo / "src" / "ok.py"), root="src")["file_keys"] == ["file:ok.py"]
    assert mcp.call("register_file", path="src/ok.py", root=str(repo))["key"] == "file:src/ok.py"
    (repo / "inner_link.py").symlink_to(repo / "src" / "ok.py")   # a symlink that stays inside is followed
    assert mcp.call("jit_index_file", path="inner_link.py")["file_keys"] == ["file:src/ok.py"]
    (repo / "snap.jsonl").write_text(json.dumps({"path": "y.py", "text": "def y(): pass\n"}) + "\n")
    assert mcp.call("project_index_snapshot", path="snap.jsonl")["files"] == 1


def test_a_directory_walk_does_not_follow_symlinks_out_of_the_root(world):
    ctx, mcp, _, _ = world
    out = mcp.call("jit_index_directory", path=".", glob="**/*.py")
    assert out["file_keys"] == ["file:src/ok.py"]
    out = mcp.call("jit_index_directory", path=".", glob="*/*.py")   # names dir_link/secret.py explicitly
    assert out["file_keys"] == ["file:src/ok.py"]
    assert [e[0] for e in out["errors"]] == ["dir_link/secret.py"] and "not inside" in out["errors"][0][1]
    assert SECRET not in stored_text(ctx)


def test_snapshots_are_written_by_name_under_the_data_folder_only(world, tmp_path):
    ctx, mcp, repo, outside = world
    mcp.call("graph_put_node", id="file:a.py", type="file")
    for bad in ("../x", "/tmp/x", "a/b", "~x", ".hidden", "", "x" * 200):
        text = mcp.error("graph_export_snapshot", name=bad)
        assert "argument 'name'" in text and "rule:" in text, text
    text = mcp.error("graph_export_snapshot", name="run", path=str(outside / "x.snap"))
    assert "'path'" in text and not (outside / "x.snap").exists()
    (ctx.data_dir / "snapshots").mkdir(exist_ok=True)
    victim = outside / "victim.txt"
    victim.write_text("keep me")
    (ctx.data_dir / "snapshots" / "evil.snap").symlink_to(victim)
    text = mcp.error("graph_export_snapshot", name="evil")
    assert "symlink" in text and "rule:" in text
    assert victim.read_text() == "keep me" and (ctx.data_dir / "snapshots" / "evil.snap").is_symlink()
    (ctx.data_dir / "snapshots" / "tmpevil.snap.tmp").symlink_to(victim)   # the writer's rename source
    assert "symlink" in mcp.error("graph_export_snapshot", name="tmpevil")
    assert victim.read_text() == "keep me"
    text = mcp.error("snapshot_get_node", name="evil", id="file:a.py")     # read through it: refused too
    assert "outside the data folder" in text
    assert mcp.call("graph_export_snapshot", name="good")["nodes"] == 1


@pytest.mark.parametrize("tool", ["snapshot_get_node", "snapshot_get_out", "snapshot_get_in"])
@pytest.mark.parametrize("name", ["../graph/data", "/etc/passwd", "~/x", "a/../../b"])
def test_snapshot_reads_take_names_not_paths(world, tool, name):
    _, mcp, _, _ = world
    key = {"snapshot_get_node": "id", "snapshot_get_out": "src", "snapshot_get_in": "dst"}[tool]
    text = mcp.error(tool, name=name, **{key: "file:a.py"})
    assert "argument 'name'" in text and "is not a name" in text, text


def test_pattern_set_ids_cannot_name_a_path(world):
    ctx, mcp, _, outside = world
    for bad in ("pat:../../outside/x", "pat:/etc/x", "../x"):
        assert "pattern_set_id" in mcp.error("pattern_load", pattern_set_id=bad, patterns=["abc"])
    assert sorted(p.name for p in (ctx.data_dir / "pattern_sets").glob("*")) == []
    assert list(outside.glob("*.json")) == []


def test_a_symlinked_snapshot_folder_is_refused(world):
    ctx, mcp, _, outside = world
    (ctx.data_dir / "snapshots").symlink_to(outside, target_is_directory=True)
    text = mcp.error("graph_export_snapshot", name="run")
    assert "not a plain folder" in text and not (outside / "run.snap").exists()


def test_pattern_sets_are_not_written_through_a_symlink(world):
    ctx, mcp, _, outside = world
    victim = outside / "victim.json"
    victim.write_text("{}")
    (ctx.data_dir / "pattern_sets").mkdir(exist_ok=True)
    (ctx.data_dir / "pattern_sets" / "mine.json").symlink_to(victim)
    text = mcp.error("pattern_load", pattern_set_id="pat:mine", patterns=["abc"])
    assert "symlink" in text and victim.read_text() == "{}"
    assert all(p["id"] != "pat:mine" for p in mcp.call("pattern_list"))   # refused: nothing loaded
    assert mcp.call("pattern_load", pattern_set_id="pat:other", patterns=["abc"])["pattern_count"] == 1


def test_home_inside_the_root_is_allowed(world, monkeypatch):
    ctx, mcp, repo, _ = world
    monkeypatch.setenv("HOME", str(repo / "src"))
    assert mcp.call("jit_index_file", path="~/ok.py")["file_keys"] == ["file:src/ok.py"]
    assert os.path.expanduser("~") == str(repo / "src")


def test_a_symlink_planted_in_the_data_folder_is_never_read(world):
    """Issue 25: `DATA/pattern_sets/x.json -> /elsewhere` was opened and its content returned by pattern_list;
    a planted `.hsdb` cache link is a miss, replaced by a real file, its target untouched."""
    ctx, mcp, _, outside = world
    victim = outside / "victim.json"
    victim.write_text(json.dumps({"id": "pat:victim", "description": "outside-file-content", "patterns": ["zzz"]}))
    folder = ctx.data_dir / "pattern_sets"
    folder.mkdir(exist_ok=True)
    (folder / "x.json").symlink_to(victim)
    listed = json.dumps(mcp.call("pattern_list"))
    assert "outside-file-content" not in listed and "pat:victim" not in listed
    mcp.call("pattern_load", pattern_set_id="pat:real", patterns=["abc"])
    cache = ctx.data_dir / "patterns"
    digest_file = sorted(p for p in cache.glob("*.hsdb") if not p.is_symlink())[-1]
    bait = outside / "bait.hsdb"
    bait.write_bytes(digest_file.read_bytes())
    digest_file.unlink()
    digest_file.symlink_to(bait)
    from reference.patterns.database_cache import DatabaseCache
    assert DatabaseCache(cache).get(digest_file.stem) is None
