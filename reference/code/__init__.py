"""The code index: files, symbols and chunks — parsing, indexing and searching them (README.md here)."""
from reference.code.indexer import Indexer, IndexResult, InvalidPath

__all__ = ["Indexer", "IndexResult", "InvalidPath"]
