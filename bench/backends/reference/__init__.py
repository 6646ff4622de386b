"""The `reference` backend: the embedded reference store of `reference/`."""
