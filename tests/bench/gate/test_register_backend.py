"""`register_backend`: programmatic registration of a Backend subclass."""
import pytest

from bench.backends.interface import Backend
from bench.backends.registry import (available_backends, backend_class, create_backend, register_backend,
                                     unregister_backend)


class Dummy(Backend):
    name = "dummy-registered"
    options = ("fast",)


def test_register_create_and_unregister():
    register_backend("dummy-registered", Dummy)
    try:
        assert "dummy-registered" in available_backends()
        assert backend_class("dummy-registered") is Dummy
        assert create_backend("dummy-registered:fast").label == "dummy-registered:fast"
    finally:
        unregister_backend("dummy-registered")
    assert "dummy-registered" not in available_backends()
    with pytest.raises(KeyError, match="unknown backend 'dummy-registered'"):
        backend_class("dummy-registered")


def test_register_refuses_bad_input():
    with pytest.raises(TypeError, match="not a subclass"):
        register_backend("x", object)
    with pytest.raises(ValueError, match="taken by a built-in"):
        register_backend("reference", Dummy)
    with pytest.raises(ValueError, match="no ':'"):
        register_backend("a:b", Dummy)
