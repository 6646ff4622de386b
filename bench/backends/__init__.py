"""Backends: the interface every memory backend implements, and the registry that finds them."""
from bench.backends.capabilities import Capability
from bench.backends.interface import Backend, Hit, Unsupported
from bench.backends.registry import available_backends, create_backend

__all__ = ["Backend", "Capability", "Hit", "Unsupported", "available_backends", "create_backend"]
