"""Operation groups beyond memory and code, one module per capability area.

Each module holds a mixin whose methods a backend implements when it declares
that area's capability (e.g. `GraphOps` for `Capability.GRAPH`). The base
methods raise NotImplementedError; the harness never calls them on a backend
that did not declare the capability.
"""
