"""`MemoryStore`, the reference store's facade over one data directory (README.md here)."""
from reference.store.memory_store import DATA_FILES, InvalidArgument, MemoryStore, StoreClosed

__all__ = ["DATA_FILES", "InvalidArgument", "MemoryStore", "StoreClosed"]
