"""Index Python source into the store: file records, symbols, line chunks, their vectors.

For each file (path relative to the root, POSIX separators):
- `file:{rel}`: the file's text (after the redactor) appended to `blob.dat`;
- `sym:{rel}#{qualname}:{kind}:{start}:{end}` for every function, async
  function, class and method (`ast`), pointing into the file's record;
- `chunk:{rel}:{n}`: windows of 40 lines overlapping by 10, also pointing
  into the file's record, and copied into the chunk FTS index;
- a vector for each of them in the vector cache.
A file that does not parse is still stored as file + chunks and reported in
`IndexResult.parse_errors`. A file whose bytes are unchanged (same BLAKE2b
content hash as recorded) is skipped; a changed file replaces its symbols and
chunks. `content_hash` is the hash of the bytes on disk, before redaction.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from reference.blob import Blob
from reference.clock import Clock
from reference.code.units import extract_symbols, line_chunks, line_starts
from reference.embed import Embedder
from reference.errors import StoreError
from reference.keys import chunk_key, file_key, sym_key
from reference.tracker import ChunkRow, FileRow, SymbolRow, Tracker
from reference.vectors.search import KIND_TAGS
from reference.vectors import VectorCache


class InvalidPath(StoreError, ValueError):
    """A path is outside the index root or is not a readable file."""


@dataclass
class IndexResult:
    """What an indexing call did; `errors` lists files that could not be stored at all."""

    files_indexed: int = 0
    files_unchanged: int = 0
    symbols: int = 0
    chunks: int = 0
    file_keys: list[str] = field(default_factory=list)
    parse_errors: list[tuple[str, str]] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)

    def merge(self, other: "IndexResult") -> "IndexResult":
        self.files_indexed += other.files_indexed
        self.files_unchanged += other.files_unchanged
        self.symbols += other.symbols
        self.chunks += other.chunks
        self.file_keys += other.file_keys
        self.parse_errors += other.parse_errors
        self.errors += other.errors
        return self

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def relative_path(path: str | Path, root: str | Path) -> tuple[Path, str]:
    """(absolute path, repo-relative POSIX path); `InvalidPath` if it leaves the root."""
    root_p = Path(root).resolve()
    p = Path(path)
    p = (p if p.is_absolute() else root_p / p).resolve()
    try:
        rel = p.relative_to(root_p).as_posix()
    except ValueError:
        raise InvalidPath(f"{p} is not inside the index root {root_p}") from None
    if not p.is_file():
        raise InvalidPath(f"{p} is not a readable file")
    return p, rel


class Indexer:
    """Writes code units through the tracker, blob and vector cache of one store."""

    def __init__(self, tracker: Tracker, blob: Blob, vectors: VectorCache, embedder: Embedder, clock: Clock,
                 redactor: Callable[[str], str] | None = None, chunk_lines: int = 40, chunk_overlap: int = 10) -> None:
        self.tracker, self.blob, self.vectors, self.embedder = tracker, blob, vectors, embedder
        self.clock, self.redactor = clock, redactor
        self.chunk_lines, self.chunk_overlap = chunk_lines, chunk_overlap

    def index_file(self, path: str | Path, root: str | Path, *, symbols: bool = True) -> IndexResult:
        """Index one file (`symbols=False`: file record and vector only, as `register_file`)."""
        abs_path, rel = relative_path(path, root)
        rel = self._stored(rel)
        raw = abs_path.read_bytes()
        content_hash = hashlib.blake2b(raw, digest_size=16).hexdigest()
        mode = "indexed" if symbols else "registered"
        fkey = file_key(rel)
        result = IndexResult(file_keys=[fkey])
        old = self.tracker.code.get_file(self.tracker.conn(), rel)
        if old is not None and old.content_hash == content_hash and (old.mode == "indexed" or not symbols):
            result.files_unchanged = 1
            return result
        text = raw.decode("utf-8", errors="replace")
        if self.redactor is not None:
            text = self.redactor(text)
        content = text.encode("utf-8")
        starts = line_starts(text)
        units: list[tuple[str, str, Any, str]] = []  # (key, kind, unit, text to embed)
        if symbols:
            try:
                for s in extract_symbols(text):
                    key = sym_key(rel, s.qualname, s.kind, s.start, s.end)
                    body = content[starts[s.start - 1]: starts[s.end]].decode("utf-8", "replace")
                    units.append((key, "symbol", s, f"{rel} {s.qualname} {s.kind}\n{body}"))
            except (SyntaxError, ValueError) as exc:  # ValueError: source with NUL bytes
                result.parse_errors.append((rel, f"{type(exc).__name__}: {exc}"))
            for c in line_chunks(len(starts) - 1, self.chunk_lines, self.chunk_overlap):
                body = content[starts[c.start - 1]: starts[c.end]].decode("utf-8", "replace")
                units.append((chunk_key(rel, c.chunk_id), "chunk", c, body))
        units = list({u[0]: u for u in units}.values())  # a key appears once
        vecs = self.embedder.embed([f"{rel}\n{text}"] + [u[3] for u in units])
        ref = self.blob.append(content)
        now = self.clock.now()
        with self.tracker.tx() as conn:
            fh = self.tracker.keys.register(conn, fkey, "file")
            hashes = [self.tracker.keys.register(conn, key, kind) for key, kind, _, _ in units]
            removed = set(self.tracker.code.delete_children(conn, rel))
            self.tracker.code.upsert_file(conn, FileRow(rel, fh, content_hash, len(raw), ref.offset, len(content),
                                                        now, mode))
            sym_rows, chunk_rows, chunk_texts = [], [], []
            for (key, kind, u, body), h in zip(units, hashes):
                off, length = ref.offset + starts[u.start - 1], starts[u.end] - starts[u.start - 1]
                if kind == "symbol":
                    sym_rows.append(SymbolRow(key, h, rel, u.qualname, u.kind, u.start, u.end, off, length))
                else:
                    chunk_rows.append(ChunkRow(key, h, rel, u.chunk_id, u.start, u.end, off, length))
                    chunk_texts.append(body)
            self.tracker.code.insert_symbols(conn, sym_rows)
            self.tracker.code.insert_chunks(conn, chunk_rows, chunk_texts)
            all_hashes = [fh] + hashes
            self.vectors.remove_many(sorted(removed - set(all_hashes)))
            keep = np.linalg.norm(vecs, axis=1) > 0  # a text without words has no vector
            tags = [KIND_TAGS["file"]] + [KIND_TAGS[kind] for _, kind, _, _ in units]
            if keep.any():
                self.vectors.put_many([h for h, k in zip(all_hashes, keep) if k], vecs[keep],
                                      [t for t, k in zip(tags, keep) if k])
            if not keep[0]:
                self.vectors.remove(fh)
        result.files_indexed, result.symbols, result.chunks = 1, len(sym_rows), len(chunk_rows)
        return result

    def _stored(self, rel: str) -> str:
        """The relative path as keys and rows hold it: redacted (a file name can carry a secret)."""
        return self.redactor(rel) if self.redactor is not None else rel

    def index_directory(self, root: str | Path, glob: str = "**/*.py", *, include_hidden: bool = False) -> IndexResult:
        """Index every file under `root` matching `glob`, in sorted path order.

        Paths with a component starting with "." (".git", ".venv") or named
        "__pycache__" are skipped unless `include_hidden`. A file that cannot be
        indexed is listed in `errors` and the walk goes on.
        """
        root_p = Path(root).resolve()
        if not root_p.is_dir():
            raise InvalidPath(f"index root {root_p} is not a directory")
        result = IndexResult()
        for p in sorted(root_p.glob(glob)):
            parts = p.relative_to(root_p).parts
            if not include_hidden and any(x.startswith(".") or x == "__pycache__" for x in parts[:-1] + parts[-1:]):
                continue
            if not p.is_file():
                continue
            try:
                result.merge(self.index_file(p, root_p))
            except (StoreError, OSError) as exc:
                result.errors.append((p.relative_to(root_p).as_posix(), f"{type(exc).__name__}: {exc}"))
        return result

    def register_file(self, path: str | Path, root: str | Path) -> dict[str, Any]:
        """Store the file record and its vector only (no symbols or chunks); return the file row."""
        self.index_file(path, root, symbols=False)
        rel = self._stored(relative_path(path, root)[1])
        row = self.tracker.code.get_file(self.tracker.conn(), rel)
        assert row is not None
        return {"key": file_key(rel), **asdict(row)}
