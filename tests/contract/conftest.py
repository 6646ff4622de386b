"""Run every contract test against every registered backend (and any named in the environment).

`CODEMEM_BENCH_CONTRACT_BACKENDS=mystore,reference:memory-lane pytest tests/contract` points the
suite at chosen specs, including a third-party backend registered through the entry point group.

Two ways to get a backend:
- `opened` (memory modules): a fresh backend in its own folder for each test;
- `backend` (one module per capability, `CAPABILITY = C.X` at module level): one backend per spec
  for the whole module, opened once (reference-mcp starts its server once per module, not per
  test). Tests of such a module must not depend on what the module's other tests wrote; each uses
  names of its own. A spec that does not declare the module's capability skips every test of the
  module with the reason, before anything is opened.

A backend whose optional extra is not installed is not dropped: it shows as a skipped parameter
whose reason is the backend module's ImportError (which names the install line).
"""
import os

import pytest

from bench.backends.registry import available_backends, backend_class, create_backend
from reference.clock import LogicalClock
from reference.telemetry import ListSink

START = 1_700_000_000


def contract_params() -> list:
    """One pytest param per spec; a backend that cannot be imported is a param marked skip with the reason."""
    env = os.environ.get("CODEMEM_BENCH_CONTRACT_BACKENDS")
    if env:
        return [_param(s.strip()) for s in env.split(",") if s.strip()]
    params, seen = [], {}
    for name in available_backends():
        try:
            cls = backend_class(name)
        except ImportError as exc:  # optional backend whose extra is not installed: a visible skip
            params.append(pytest.param(name, id=name, marks=pytest.mark.skip(
                reason=f"backend {name!r} not installed: {exc}")))
            continue
        for s in [name, *(f"{name}:{opt}" for opt in cls.options)]:
            try:
                instance = create_backend(s)
            except ImportError as exc:   # e.g. an MCP peer server that is not installed: a visible skip
                params.append(pytest.param(s, id=s, marks=pytest.mark.skip(reason=f"{s} not installed: {exc}")))
                continue
            except ValueError:           # a name that is only valid with an option (mcp needs mcp:NAME)
                continue
            same = getattr(instance, "same_as", "") or s   # one server under two names runs once
            if same in seen:
                params.append(pytest.param(s, id=s, marks=pytest.mark.skip(
                    reason=f"{s} is the same server as {seen[same]}, which the contract suite runs")))
                continue
            seen[same] = s
            why = getattr(instance, "nondeterministic", "")
            if why:   # its answers vary from run to run: run it by naming it, never as a default gate
                params.append(pytest.param(s, id=s, marks=pytest.mark.skip(
                    reason=f"{s} answers nondeterministically ({' '.join(why.split())[:120]}...); run it with "
                           f"CODEMEM_BENCH_CONTRACT_BACKENDS={s}")))
                continue
            params.append(pytest.param(s, id=s))
    return params


def _param(spec: str):
    """A spec named in the environment; a peer server that is not installed is a visible skip there too."""
    try:
        create_backend(spec)
    except ImportError as exc:
        return pytest.param(spec, id=spec, marks=pytest.mark.skip(reason=f"{spec} not installed: {exc}"))
    return pytest.param(spec, id=spec)


PARAMS = contract_params()


@pytest.fixture(params=PARAMS)
def spec(request):
    return request.param


@pytest.fixture
def clock():
    return LogicalClock(START)


@pytest.fixture
def opened(spec, tmp_path, clock):
    """A fresh, open backend; closed after the test."""
    backend = create_backend(spec)
    backend.open(tmp_path / "store", clock, ListSink())
    yield backend
    backend.close()


def need(backend, *caps):
    """Skip the test, with the reason, unless `backend` declares every one of `caps`."""
    missing = [c.value for c in caps if c not in backend.capabilities]
    if missing:
        pytest.skip(f"{backend.label} does not declare {', '.join(missing)}")


@pytest.fixture(scope="module", params=PARAMS)
def module_spec(request):
    return request.param


@pytest.fixture(scope="module")
def backend_clock(module_spec):
    """The logical clock of the module's backend; tests move it forward, never back."""
    return LogicalClock(START)


class ModuleStore:
    """The module's open backend, its folder and clock; `reopen()` closes it and opens the folder anew."""

    def __init__(self, spec: str, folder, clock) -> None:
        self.spec, self.folder, self.clock = spec, folder, clock
        self.backend = self._open()

    def _open(self):
        instance = create_backend(self.spec)
        instance.open(self.folder, self.clock, ListSink())
        return instance

    def reopen(self):
        """A new instance of the spec on the same folder (what survives a restart); later tests get it too."""
        old, self.backend = self.backend, None
        old.close()
        self.backend = self._open()
        return self.backend

    def close(self) -> None:
        if self.backend is not None:
            self.backend.close()


@pytest.fixture(scope="module")
def module_store(request, module_spec, backend_clock, tmp_path_factory):
    """The module's backend for `module_spec`, opened once; skipped unless it declares the module's CAPABILITY."""
    caps = request.module.CAPABILITY
    need(create_backend(module_spec), *(caps if isinstance(caps, tuple) else (caps,)))
    name = f"{request.module.__name__.rsplit('.', 1)[-1]}-{module_spec.replace(':', '-')}"
    store = ModuleStore(module_spec, tmp_path_factory.mktemp(name) / "store", backend_clock)
    yield store
    store.close()


@pytest.fixture
def backend(module_store):
    """The module's open backend (see `module_store`)."""
    return module_store.backend
