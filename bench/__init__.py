"""codemem-bench harness: backends, scenario replay, scoring, reports, regression gate, CLI.

Talks to every backend, the reference one included, only through
`bench.backends.interface`.
"""
