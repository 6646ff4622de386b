"""Indexing Python files: keys, slices into the file record, chunks, re-indexing, bad files."""
from __future__ import annotations

import textwrap

import pytest

from reference.clock import LogicalClock
from reference.code.units import line_chunks, line_starts
from reference.errors import KeyCollision
from reference.code.indexer import InvalidPath
from reference.keys import hash64
from reference.store import MemoryStore

SOURCE = textwrap.dedent('''\
    import os


    @decorator
    def top(a):
        def inner():
            return a
        return inner


    class Widget:
        """A widget."""

        def render(self):
            return "w"

        async def fetch(self):
            return 1


    async def main():
        pass
''')
# by hand from SOURCE above: (qualname, kind, first line incl. decorators, last line)
EXPECTED_SYMBOLS = [
    ("top", "function", 4, 8),
    ("top.inner", "function", 6, 7),
    ("Widget", "class", 11, 18),
    ("Widget.render", "method", 14, 15),
    ("Widget.fetch", "method", 17, 18),
    ("main", "async_function", 21, 22),
]


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "mod.py").write_text(SOURCE)
    return root


@pytest.fixture
def store(tmp_path):
    s = MemoryStore.open(tmp_path / "data", clock=LogicalClock(1000.0))
    yield s
    s.close()


def lines_of(text: str, start: int, end: int) -> str:
    return "".join(text.splitlines(keepends=True)[start - 1: end])


def test_symbols_keys_and_slices(store, repo):
    res = store.index_file(repo / "pkg" / "mod.py", repo)
    assert (res.files_indexed, res.symbols, res.chunks, res.parse_errors) == (1, 6, 1, [])
    rows = store.tracker.code.symbols_of(store.tracker.conn(), "pkg/mod.py")
    got = sorted((r.name, r.kind, r.start_line, r.end_line) for r in rows)
    assert got == sorted(EXPECTED_SYMBOLS)
    for name, kind, start, end in EXPECTED_SYMBOLS:
        key = f"sym:pkg/mod.py#{name}:{kind}:{start}:{end}"
        assert store.tracker.resolve_type(hash64(key)) == "symbol"
        assert store.read_content(hash64(key)).decode() == lines_of(SOURCE, start, end)
    assert store.read_content(hash64("file:pkg/mod.py")).decode() == SOURCE
    assert hash64("file:pkg/mod.py") in store.vectors


def test_symbol_slices_point_into_the_file_record(store, repo):
    store.index_file(repo / "pkg" / "mod.py", repo)
    conn = store.tracker.conn()
    f = store.tracker.code.get_file(conn, "pkg/mod.py")
    for r in store.tracker.code.symbols_of(conn, "pkg/mod.py"):
        assert f.blob_offset <= r.blob_offset and r.blob_offset + r.blob_length <= f.blob_offset + f.blob_length
    assert len(store.blob.records()) == 1  # no copy of symbol text


def test_chunk_windows(store, tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    text = "".join(f"x{i} = {i}\n" for i in range(1, 101))
    (root / "big.py").write_text(text)
    store.index_file(root / "big.py", root)
    chunks = store.tracker.code.chunks_of(store.tracker.conn(), "big.py")
    # 40-line windows, 10 lines overlap: 1-40, 31-70, 61-100 (by hand)
    assert [(c.chunk_id, c.start_line, c.end_line) for c in chunks] == [(0, 1, 40), (1, 31, 70), (2, 61, 100)]
    assert store.read_content(hash64("chunk:big.py:1")).decode() == lines_of(text, 31, 70)
    # "x65" is on line 65, inside windows 1 and 2; equal-length windows tie on bm25, broken by key
    assert [h.id for h in store.code_keyword_search("x65")] == ["chunk:big.py:1", "chunk:big.py:2"]


def test_line_units_by_hand():
    assert line_starts("ab\nc\r\nd") == [0, 3, 6, 7]
    assert line_starts("é\n") == [0, 3]
    assert [(c.start, c.end) for c in line_chunks(45, 40, 10)] == [(1, 40), (31, 45)]
    assert line_chunks(0) == []
    with pytest.raises(ValueError):
        line_chunks(10, 10, 10)


def test_unparseable_file_is_stored_as_file_and_chunks(store, tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    (root / "bad.py").write_text("def broken(:\n    pass\n")
    res = store.index_file(root / "bad.py", root)
    assert res.files_indexed == 1 and res.symbols == 0 and res.chunks == 1
    assert res.parse_errors and res.parse_errors[0][0] == "bad.py" and "SyntaxError" in res.parse_errors[0][1]
    assert store.read_content(hash64("chunk:bad.py:0")).decode() == "def broken(:\n    pass\n"


def test_non_utf8_and_nul_bytes_do_not_crash(store, tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    (root / "bin.py").write_bytes(b"x = 1\n\xff\xfe\x00\n")
    res = store.index_file(root / "bin.py", root)
    assert res.files_indexed == 1 and res.parse_errors


def test_unchanged_file_is_a_no_op_and_a_changed_file_replaces_its_units(store, repo):
    path = repo / "pkg" / "mod.py"
    store.index_file(path, repo)
    size = store.blob.size()
    vec_rows = store.vectors.stats()["rows"]
    again = store.index_file(path, repo)
    assert (again.files_indexed, again.files_unchanged) == (0, 1)
    assert store.blob.size() == size and store.vectors.stats()["rows"] == vec_rows
    path.write_text("def only():\n    return 2\n")
    res = store.index_file(path, repo)
    assert (res.files_indexed, res.symbols, res.chunks) == (1, 1, 1)
    rows = store.tracker.code.symbols_of(store.tracker.conn(), "pkg/mod.py")
    assert [r.key for r in rows] == ["sym:pkg/mod.py#only:function:1:2"]
    old = hash64("sym:pkg/mod.py#Widget.render:method:14:15")
    assert old not in store.vectors
    assert store.tracker.resolve_type(old) == "symbol"  # the key stays registered
    assert [h.id for h in store.symbol_search("render")] == ["sym:pkg/mod.py#only:function:1:2"]


def test_register_file_then_index_adds_symbols(store, repo):
    row = store.register_file(repo / "pkg" / "mod.py", repo)
    assert row["key"] == "file:pkg/mod.py" and row["mode"] == "registered" and row["size"] == len(SOURCE)
    assert store.tracker.counts()["symbols"] == 0
    res = store.index_file(repo / "pkg" / "mod.py", repo)
    assert res.symbols == 6
    store.register_file(repo / "pkg" / "mod.py", repo)  # same content: keeps the symbols
    assert store.tracker.counts()["symbols"] == 6


def test_index_directory_skips_hidden_and_reports_errors(store, repo):
    (repo / ".venv").mkdir()
    (repo / ".venv" / "lib.py").write_text("def hidden(): pass\n")
    (repo / "pkg" / "weird#name.py").write_text("x = 1\n")  # '#' cannot appear in a file key
    (repo / "a.py").write_text("def a(): pass\n")
    res = store.index_directory(repo)
    assert sorted(res.file_keys) == ["file:a.py", "file:pkg/mod.py"]
    assert [p for p, _ in res.errors] == ["pkg/weird#name.py"]
    assert store.tracker.resolve_type(hash64("file:.venv/lib.py")) is None


def test_paths_outside_the_root_are_refused(store, repo, tmp_path):
    (tmp_path / "outside.py").write_text("x = 1\n")
    with pytest.raises(InvalidPath, match="not inside"):
        store.index_file(tmp_path / "outside.py", repo)
    with pytest.raises(InvalidPath, match="not a readable file"):
        store.index_file(repo / "missing.py", repo)


def test_redactor_applies_to_indexed_code(tmp_path, repo):
    (repo / "cfg.py").write_text('API_KEY = "sk-SECRET123"\n')
    s = MemoryStore.open(tmp_path / "d2", clock=LogicalClock(), redactor=lambda t: t.replace("sk-SECRET123", "[R]"))
    s.index_directory(repo)
    s.close()
    for f in (p for p in (tmp_path / "d2").rglob("*") if p.is_file()):
        assert b"SECRET123" not in f.read_bytes(), f.name


def test_key_collision_while_indexing_writes_nothing(tmp_path, repo):
    s = MemoryStore.open(tmp_path / "d3", clock=LogicalClock(), hash_fn=lambda key: 5)
    with pytest.raises(KeyCollision, match="file:pkg/mod.py"):
        s.index_file(repo / "pkg" / "mod.py", repo)  # the file key and its first symbol share hash 5
    assert s.tracker.counts() == {"keys": 0, "memories": 0, "files": 0, "symbols": 0, "chunks": 0}
    assert len(s.vectors) == 0
    s.close()
