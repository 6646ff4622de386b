"""Single-byte fault injection over a whole store, in the manner of SQLite's own tests (issue 11).

`build(dir)` writes a small store (memories, an indexed code folder, a graph,
whose data.mdb is compacted to its live pages);
`answers(dir)` opens it fresh and runs every read, recording each result or
the error it raised; `flip_run(...)` copies the store, flips one byte of one
file at a time (seeded positions) and classifies every read as:

    same     the original answer
    error    a `StoreError` whose message names the flipped file
    wrong    anything else: a different answer, a raw library exception, an
             error naming no file or another file

and records whether `verify_store` named the file. Run the measurement with

    CODEMEM_FAULT_FLIPS=100 python3 -m tests.reference.faults

(the test file runs a few positions per file by default).
"""
from __future__ import annotations

import os
import random
import shutil
import sqlite3
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from reference.clock import LogicalClock
from reference.errors import StoreError
from reference.graph import GraphStore
from reference.store import MemoryStore
from reference.verify import verify_store

FILES = ("tracker.db", "blob.dat", "vectors.f32", "vectors.keys", "vectors.tags", "vectors.sums", "graph/data.mdb")
SNAPSHOT = "snapshots/s.snap"
# every file the store writes, for whole-file damage (issue 25): the flipped files, a snapshot, the manifest
STORE_FILES = (*FILES, SNAPSHOT, "manifest.json")
WHOLE = ("cut 1 byte", "cut 100 bytes", "cut half", "extend", "delete")
TASKS = ("task:debug", "task:refactor", "task:optimize")
CONTEXTS = ("context:auth", "context:api", "context:data")
NODES = [f"file:src/mod{i}.py" for i in range(8)]
CODE = {
    "pkg/alpha.py": "def refresh_token(user):\n    return user.token\n\n\nclass Session:\n    def close(self):\n"
                    "        pass\n",
    "pkg/beta.py": "import os\n\n\ndef read_config(path):\n    with open(path) as fh:\n        return fh.read()\n",
    "pkg/gamma.py": "def retry(fn, times=3):\n    for _ in range(times):\n        fn()\n",
}


def build(root: Path) -> None:
    """Write the store that every flip starts from; the tracker is checkpointed by close."""
    src = root / "src"
    for rel, text in CODE.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    data = root / "data"
    with MemoryStore.open(data, clock=LogicalClock()) as s:
        for i in range(240 if os.environ.get("CODEMEM_FAULT_LARGE") == "1" else 24):
            s.write_memory(f"memory {i}: token refresh races in module {i % 5} while retrying",
                           task=TASKS[i % 3], context=[CONTEXTS[i % 3]], insights=["insight:pitfall"],
                           tags=[f"t{i % 4}"], metadata={"n": i, "branch": "main" if i % 2 else "dev"})
        s.index_directory(src, "**/*.py")
    with GraphStore.open(data / "graph", clock=LogicalClock()) as g:
        for i, n in enumerate(NODES):
            g.put_node(n, "file", {"i": i, "name": n})
        for i in range(len(NODES) - 1):
            g.put_edge(NODES[i], "imports", NODES[i + 1], {"w": i})
        g.put_edge(NODES[0], "imports", NODES[5])
        g.put_kv("proj", "policy", "max_depth", {"v": 3})
        g.put_kv("proj", "policy", "style", "pep8")
        (data / "snapshots").mkdir()
        g.export_snapshot(data / SNAPSHOT)
    _compact(data / "graph")
    with MemoryStore.open(data, clock=LogicalClock()):
        pass                     # closed again: manifest.json records the snapshot and the compacted graph


def _compact(directory: Path) -> None:
    """Rewrite data.mdb with only its live pages, so flips land in the data, not in pages
    that copy-on-write has already freed (those legitimately change nothing)."""
    import lmdb
    tmp = directory.parent / "graph-compact"
    tmp.mkdir()
    env = lmdb.open(str(directory), subdir=True, readonly=True, lock=False)
    try:
        env.copy(str(tmp), compact=True)
    finally:
        env.close()
    os.replace(tmp / "data.mdb", directory / "data.mdb")
    shutil.rmtree(tmp)


def _plain(x: Any) -> Any:
    if hasattr(x, "to_dict"):
        return _plain(x.to_dict())
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, "__dataclass_fields__"):
        return {k: _plain(getattr(x, k)) for k in x.__dataclass_fields__}
    return x


def answers(data: Path, ids: list[str] | None = None) -> dict[str, Any]:
    """Open the store fresh and run every read: name -> ("ok", result) or ("err", type, message)."""
    out: dict[str, Any] = {}

    def run(name: str, fn) -> None:
        try:
            out[name] = ("ok", _plain(fn()))
        except Exception as exc:  # noqa: BLE001 -- classifying every exception is the point
            out[name] = ("err", type(exc).__name__, str(exc)[:300], isinstance(exc, StoreError))

    try:
        s = MemoryStore.open(data, clock=LogicalClock(), redact=False)
    except Exception as exc:  # noqa: BLE001
        out["open store"] = ("err", type(exc).__name__, str(exc)[:300], isinstance(exc, StoreError))
        s = None
    if s is not None:
        with s:
            ids = ids if ids is not None else sorted(e.id for e in s.iter_memories())
            for mid in ids:
                run(f"get {mid}", lambda mid=mid: s.get_memory(mid))
            run("list", lambda: s.list_memories(limit=100))
            for t in TASKS:
                run(f"list {t}", lambda t=t: s.list_memories(task=t, limit=100))
            for c in CONTEXTS:
                run(f"search filtered {c}", lambda c=c: s.search_memories("token refresh", context=[c], top_k=5))
            run("search", lambda: s.search_memories("token refresh races retrying", top_k=8))
            run("search tag", lambda: s.search_memories("module", tags=["t1"], top_k=5))
            run("search meta", lambda: s.search_memories("module", where_metadata={"branch": ["main"]}, top_k=5))
            run("keyword", lambda: s.keyword_search("refresh module", top_k=8))
            run("search_all", lambda: s.search_all("read config file", top_k=8))
            run("code_search", lambda: s.code_search("retry function", top_k=5))
            run("symbol_search", lambda: s.symbol_search("refresh_token", top_k=5))
            run("code_keyword", lambda: s.code_keyword_search("open path", top_k=5))
            run("vector_scores", lambda: s.vector_scores("token", ids[:6]))
            for rel in CODE:
                run(f"content {rel}", lambda rel=rel: _content(s, rel))
    for n in NODES[:3]:
        run(f"snapshot node {n}", lambda n=n: _snapshot(data, "get_node", n))
        run(f"snapshot out {n}", lambda n=n: _snapshot(data, "get_out", n))
    try:
        g = GraphStore.open(data / "graph", clock=LogicalClock(), readonly=True)
    except Exception as exc:  # noqa: BLE001
        out["open graph"] = ("err", type(exc).__name__, str(exc)[:300], isinstance(exc, StoreError))
        return out
    with g:
        for n in NODES:
            run(f"node {n}", lambda n=n: g.get_node(n))
            run(f"out {n}", lambda n=n: g.get_out(n))
            run(f"in {n}", lambda n=n: g.get_in(n))
        run("edge", lambda: g.get_edge(NODES[0], "imports", NODES[1]))
        run("kv", lambda: g.get_kv_latest("proj", "policy", "max_depth"))
        run("list kv", lambda: g.list_kv("proj", "policy"))
    return out


def _snapshot(data: Path, method: str, *args: Any) -> Any:
    """A read of the snapshot as the MCP tools make it: a missing file is `NotFound` naming it."""
    from reference.errors import NotFound
    from reference.graph import SnapshotReader
    path = data / SNAPSHOT
    if not path.exists():
        raise NotFound(f"{path}: no such snapshot")
    with SnapshotReader.open(path) as snap:
        return getattr(snap, method)(*args)


def damage_whole(path: Path, how: str) -> None:
    """Cut (by 1 byte, 100 bytes, half), extend (by 100 bytes of 0x5a) or delete one file."""
    size = path.stat().st_size
    if how == "delete":
        path.unlink()
    elif how == "extend":
        with open(path, "ab") as fh:
            fh.write(b"\x5a" * 100)
    else:
        os.truncate(path, {"cut 1 byte": size - 1, "cut 100 bytes": max(0, size - 100), "cut half": size // 2}[how])


def whole_run(root: Path, file: str, how: str) -> dict[str, Any]:
    """Damage `file` of a copy of the store as `how` says; classify every read and whether verify named it."""
    base_dir = root / "data"
    base = answers(base_dir)
    ids = sorted(k[4:] for k in base if k.startswith("get "))
    work = root / "work"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(base_dir, work)
    damage_whole(work / file, how)
    report = verify_store(work)           # first: opening the store would record the damaged state anew
    got = answers(work, ids)
    counts = classify(base, got, file)
    named = any(Path(file).name in p.file for p in report.problems)
    return {"counts": counts, "verify_named": named, "verify_ok": report.ok,
            "report": [str(p) for p in report.problems[:3]]}


def _content(s: MemoryStore, rel: str) -> Any:
    from reference.keys import hash64
    row = s.tracker.code.get_file(s.tracker.conn(), rel)
    key = f"file:{rel}"
    return s.read_content(row.key_hash if row else hash64(key))


def classify(base: dict[str, Any], got: dict[str, Any], file: str) -> Counter:
    """Count same / error / wrong over the reads (an open that failed counts for every read)."""
    name = Path(file).name
    opened = {k: v for k, v in got.items() if k.startswith("open ")}
    c: Counter = Counter()
    for key, want in base.items():
        have = got.get(key)
        if have is None:
            have = next(iter(opened.values()), ("err", "missing", "read not run", False))
        if have == want:
            c["same"] += 1
        elif have[0] == "err" and have[3] and name in have[2]:
            c["error"] += 1
        else:
            c["wrong"] += 1
            c.setdefault("examples", [])
            if len(c["examples"]) < 3:
                c["examples"].append((key, str(want)[:120], str(have)[:200]))
    return c


_CORE = ("memories", "keys", "files", "symbols", "chunks", "sqlite_autoindex_", "idx_", "sqlite_master")


def data_pages(db: Path) -> tuple[list[int], int]:
    """(page numbers holding the store's own tables, indexes and FTS data, page size) of a tracker.db."""
    conn = sqlite3.connect(db)
    try:
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = sorted({p for name, p in conn.execute("SELECT name, pageno FROM dbstat")
                        if name.startswith(_CORE) or name.startswith(("memories_fts", "chunks_fts"))})
        return pages, size
    finally:
        conn.close()


def flip_run(root: Path, file: str, flips: int, seed: int = 11, targeted: bool = False) -> list[dict[str, Any]]:
    """Flip `flips` single bytes (one per copy) in `file` of the store under `root/data`.

    `targeted` (tracker.db only) picks positions inside the pages of the store's own
    tables, indexes and FTS data, skipping the empty pages of layers this store does not fill."""
    base_dir = root / "data"
    base = answers(base_dir)
    ids = sorted(k[4:] for k in base if k.startswith("get "))
    size = (base_dir / file).stat().st_size
    rng = random.Random(f"{seed}:{file}:{targeted}")
    pages, psize = data_pages(base_dir / file) if targeted else ([], 0)
    results = []
    for _ in range(flips):
        if targeted:
            pos = (rng.choice(pages) - 1) * psize + rng.randrange(psize)
        else:
            pos = rng.randrange(size)
        mask = rng.randrange(1, 256)
        work = root / "work"
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(base_dir, work)
        target = work / file
        with open(target, "r+b") as fh:
            fh.seek(pos)
            b = fh.read(1)[0]
            fh.seek(pos)
            fh.write(bytes([b ^ mask]))
        got = answers(work, ids)
        counts = classify(base, got, file)
        report = verify_store(work)
        named = any(Path(file).name in p.file for p in report.problems)
        others = sorted({p.file for p in report.problems if Path(file).name not in p.file})
        results.append({"pos": pos, "got": got, "counts": counts, "verify_named": named, "verify_others": others,
                        "report": [str(p) for p in report.problems[:3]]})
    return results


def main() -> int:
    import tempfile
    flips = int(os.environ.get("CODEMEM_FAULT_FLIPS", "100"))
    only = os.environ.get("CODEMEM_FAULT_FILES")  # e.g. "graph/data.mdb,blob.dat"
    root = Path(tempfile.mkdtemp(prefix="faults-"))
    build(root)
    print(f"{'file':16} {'flips':>5} {'wrong':>6} {'error':>6} {'same':>6} {'flips w/ wrong':>14} "
          f"{'flips w/ error':>14} {'unchanged':>9} {'verify named':>12}")
    bad = 0
    for file, targeted in [(f, False) for f in FILES] + [("tracker.db", True)]:
        if only and file not in only.split(","):
            continue
        res = flip_run(root, file, flips, targeted=targeted)
        label = file + (" (data pages)" if targeted else "")
        tot = Counter()
        for r in res:
            tot.update({k: v for k, v in r["counts"].items() if k != "examples"})
        fw = sum(1 for r in res if r["counts"]["wrong"])
        fe = sum(1 for r in res if r["counts"]["error"] and not r["counts"]["wrong"])
        un = sum(1 for r in res if not r["counts"]["wrong"] and not r["counts"]["error"])
        vn = sum(1 for r in res if r["verify_named"])
        print(f"{label:16} {len(res):5} {tot['wrong']:6} {tot['error']:6} {tot['same']:6} {fw:14} {fe:14} {un:9} "
              f"{vn:12}")
        for r in res:
            if r["counts"]["wrong"]:
                bad += 1
                print("   wrong at", r["pos"], r["counts"].get("examples"), file=sys.stderr)
            if (r["counts"]["error"] or r["counts"]["wrong"]) and not r["verify_named"]:
                print("   verify missed a flip the reads saw at", r["pos"], file=sys.stderr)
    shutil.rmtree(root, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
