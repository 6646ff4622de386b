"""The vector cache: `vectors.f32`, `.tags`, `.keys`, `.sums` and their in-memory index (README.md here).

`VectorCache` (`cache.py`) is the entry point; `search.py` names vector hits by their tracker rows.
"""
from reference.vectors.cache import VectorCache, VectorDimMismatch, VectorModelMismatch

__all__ = ["VectorCache", "VectorDimMismatch", "VectorModelMismatch"]
