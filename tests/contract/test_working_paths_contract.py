"""Contract of `memory.working_paths`: `search_memories(..., paths=[...])` reads the agent's working files.

What the `<data>-blame-paths` scenarios rely on:
- `paths` is context, never a filter: a search with paths still returns memories that touched none of them.
- A memory whose metadata `files_changed` (seed 002's key) lists a working path ranks first among memories
  that match the query about as well or better but touched other files; without the paths it does not.
- The structured filters still apply with paths.
- A bad `paths` value (a string, a non-string element) is refused with ValueError.
The harness passes `paths` only to a backend declaring the capability; any other backend gets the query
alone (its figure on a `-paths` scenario is its figure without them).
"""
import pytest

from bench.backends import Capability as C

CAPABILITY = (C.WORKING_PATHS, C.MEMORY_WRITE, C.MEMORY_SEARCH)


def _ids(hits):
    return [h.id for h in hits]


@pytest.fixture(scope="module")
def notes(module_store, backend_clock):
    b = module_store.backend
    out = {"near": b.write_memory("Kwpsession tweak", task="task:refactor",   # the oldest, the weakest match
                                  metadata={"files_changed": ["src/kwp/session.py"]})}
    backend_clock.advance(10)
    for i in range(6):
        out[f"loud{i}"] = b.write_memory(f"Kwpsession cookie refresh race fixed in variant {i}", task="task:debug",
                                         metadata={"files_changed": [f"web/kwp_view{i}.py", f"tests/kwp{i}.py"]})
        backend_clock.advance(10)
    return out


def test_a_memory_that_touched_a_working_path_ranks_first(backend, notes):
    q = "Kwpsession cookie refresh race"
    assert _ids(backend.search_memories(q, top_k=3))[:1] != [notes["near"]]
    got = _ids(backend.search_memories(q, top_k=3, paths=["src/kwp/session.py"]))
    assert got[0] == notes["near"]
    assert len(got) == 3 and set(got[1:]) <= {v for k, v in notes.items() if k != "near"}   # not a filter


def test_filters_still_apply_with_paths(backend, notes):
    if C.MEMORY_FILTERS not in backend.capabilities:
        pytest.skip("no memory.filters")
    got = _ids(backend.search_memories("Kwpsession tweak", task="task:debug", top_k=10,
                                       paths=["src/kwp/session.py"]))
    assert got and notes["near"] not in got


@pytest.mark.parametrize("bad", ["src/kwp/session.py", [3]])
def test_bad_paths_are_refused(backend, notes, bad):
    with pytest.raises(ValueError):
        backend.search_memories("Kwpsession cookie", top_k=3, paths=bad)
