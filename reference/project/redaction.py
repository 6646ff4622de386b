"""The secret redactor of the project layer: the built-in `pat:secrets`, compiled on first use.

Compiling the Hyperscan database takes a noticeable fraction of a second, so
a store that never records a commit never pays for it. The compiled database
is cached under `<data_dir>/patterns/` like every pattern set of the store.
`redact_metadata` redacts every string (and dict key) of a metadata value.
"""
from __future__ import annotations

from reference.patterns.lazy_redactor import SECRETS_FILE, LazySecretsRedactor, redact_json

redact_metadata = redact_json

__all__ = ["LazySecretsRedactor", "SECRETS_FILE", "redact_metadata"]
