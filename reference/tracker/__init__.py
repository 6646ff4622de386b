"""`tracker.db`: keys, files, symbols, chunks, memories and FTS5 on SQLite (see tracker.py)."""
from reference.tracker.code_tables import ChunkRow, CodeTables, FileRow, SymbolRow
from reference.tracker.codec import from_db, to_db
from reference.tracker.connections import TrackerClosed
from reference.tracker.filters import InvalidFilter, MemoryFilter, check_where_metadata, fts_match
from reference.tracker.keys_table import KIND_OF_NAMESPACE, KeysTable
from reference.tracker.memories_table import MemoriesTable
from reference.tracker.migrations import LATEST, SchemaTooNew
from reference.tracker.tracker import Tracker

__all__ = [
    "ChunkRow", "CodeTables", "FileRow", "SymbolRow", "from_db", "to_db", "TrackerClosed", "InvalidFilter",
    "MemoryFilter", "check_where_metadata", "fts_match", "KIND_OF_NAMESPACE", "KeysTable", "MemoriesTable",
    "LATEST", "SchemaTooNew", "Tracker",
]
