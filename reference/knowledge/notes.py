"""Notes on disk as memories: one `.md`/`.txt` file = one memory (seed 001 §1 input "Files").

`NoteIndexer(layer, root).index_file(path)` reads the file (UTF-8) and, when
its bytes changed, writes a new memory with `metadata = {"kind": "note",
"source_path": <path relative to root>, "content_hash": <BLAKE2b-128 hex>}`
and then deletes the memory of the previous version, so a changed file
replaces its memory and a failed write never loses the old one. The knowledge
layer's write listener gives the new memory entities, dates (the file name's
`YYYY-MM-DD` is a document date source) and relationships. A deleted or
emptied file loses its memory. A file's memory is found by
`where_metadata={"source_path": [...]}`.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from reference.knowledge.errors import KnowledgeError

NOTE_EXTENSIONS = (".md", ".txt")


class NoteIndexer:
    """Indexes the notes under `root` into the layer's store."""

    def __init__(self, layer: Any, root: str | Path, extensions: Iterable[str] = NOTE_EXTENSIONS) -> None:
        self.layer, self.store = layer, layer.store
        self.root = Path(root).resolve()
        self.extensions = tuple(e.lower() for e in extensions)
        if not self.root.is_dir():
            raise KnowledgeError(f"notes folder {self.root} does not exist or is not a directory")

    def wants(self, path: str | Path) -> bool:
        """A note file under root (by extension; no hidden path components)."""
        p = Path(path)
        try:
            rel = p.resolve().relative_to(self.root)
        except ValueError:
            return False
        return p.suffix.lower() in self.extensions and not any(part.startswith(".") for part in rel.parts)

    def relative(self, path: str | Path) -> str:
        return Path(path).resolve().relative_to(self.root).as_posix()

    def memory_of(self, rel: str) -> Any:
        rows = self.store.list_memories(limit=2, where_metadata={"source_path": [rel]})
        return rows[0] if rows else None

    def index_file(self, path: str | Path) -> str | None:
        """Bring the file's memory up to date; its memory id, or None when the file is gone or empty."""
        if not self.wants(path):
            raise KnowledgeError(f"{path}: not a note under {self.root} with extension {', '.join(self.extensions)}")
        rel, p = self.relative(path), Path(path)
        try:
            data = p.read_bytes()
        except FileNotFoundError:
            self.remove_file(path)
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise KnowledgeError(f"{p}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        old = self.memory_of(rel)
        if not text.strip():
            self.remove_file(path)
            return None
        digest = hashlib.blake2b(data, digest_size=16).hexdigest()
        if old is not None and old.metadata.get("content_hash") == digest:
            return old.id
        new = self.store.write_memory(text, metadata={"kind": "note", "source_path": rel, "content_hash": digest})
        if old is not None:
            self.store.delete_memory(old.id)
        return new.id

    def remove_file(self, path: str | Path) -> bool:
        """Delete the memory of a note that no longer exists; True if there was one."""
        old = self.memory_of(self.relative(path))
        return old is not None and self.store.delete_memory(old.id)

    def scan(self) -> dict[str, str | None]:
        """Index every note under root (sorted by path); relative path -> memory id."""
        out: dict[str, str | None] = {}
        for p in sorted(self.root.rglob("*")):
            if p.is_file() and self.wants(p):
                out[self.relative(p)] = self.index_file(p)
        return out
