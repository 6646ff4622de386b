"""Reference store for coding-agent memory, as the five design seeds describe it.

The package knows nothing of the harness in `bench/`. Its entry point is
`reference.store.MemoryStore`; the graph layer lives in `reference.graph`, the
pattern sets in `reference.patterns`.
"""
