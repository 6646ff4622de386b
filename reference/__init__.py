"""Reference store for coding-agent memory, as the five design seeds describe it.

The package knows nothing of the harness in `bench/`. Its entry point is
`reference.store.MemoryStore`; the graph layer lives in `reference.graph`, the
pattern sets in `reference.patterns`.
"""

# the composition root: register every layer's schema steps with the tracker (a lower layer never imports a higher one)
from reference import schema_steps as _schema_steps  # noqa: E402,F401
