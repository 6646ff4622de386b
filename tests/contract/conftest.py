"""Run every contract test against every registered backend (and any named in the environment).

`CODEMEM_BENCH_CONTRACT_BACKENDS=mystore,reference:memory-lane pytest tests/contract` points the
suite at chosen specs, including a third-party backend registered through the entry point group.
"""
import os

import pytest

from bench.backends.registry import available_backends, backend_class, create_backend
from reference.clock import LogicalClock
from reference.telemetry import ListSink


def _specs() -> list[str]:
    env = os.environ.get("CODEMEM_BENCH_CONTRACT_BACKENDS")
    if env:
        return [s.strip() for s in env.split(",") if s.strip()]
    specs = []
    for name in available_backends():
        try:
            cls = backend_class(name)
        except ImportError:  # optional backend whose extra is not installed
            continue
        specs.append(name)
        specs += [f"{name}:{opt}" for opt in cls.options]
    return specs


@pytest.fixture(params=_specs())
def spec(request):
    return request.param


@pytest.fixture
def clock():
    return LogicalClock(1_700_000_000)


@pytest.fixture
def opened(spec, tmp_path, clock):
    """A fresh, open backend; closed after the test."""
    backend = create_backend(spec)
    backend.open(tmp_path / "store", clock, ListSink())
    yield backend
    backend.close()


def need(backend, *caps):
    missing = [c.value for c in caps if c not in backend.capabilities]
    if missing:
        pytest.skip(f"{backend.label} does not declare {', '.join(missing)}")
