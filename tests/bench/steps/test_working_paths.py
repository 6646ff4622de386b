"""`memory_search_structured`'s `paths` reach only a backend declaring `memory.working_paths`."""
import json

from bench.backends.capabilities import Capability as C
from bench.backends.reference.backend import ReferenceBackend
from bench.backends.registry import register_backend
from bench.run import run_suite
from bench.scenario.loader import load_scenario

CALLS: list[dict] = []


class Recording(ReferenceBackend):
    """The reference store recording the keyword arguments of each search."""

    name = "test-paths-recording"
    options = ()

    def search_memories(self, *args, **kwargs):
        CALLS.append(dict(kwargs))
        return super().search_memories(*args, **kwargs)


class NoPaths(Recording):
    """The same without the capability, and with the interface's older signature (no `paths`)."""

    name = "test-paths-without"
    capabilities = ReferenceBackend.capabilities - {C.WORKING_PATHS}

    def search_memories(self, query=None, task=None, context=None, insights=None, tags=None, top_k=10,
                        where_metadata=None):
        CALLS.append({})
        return ReferenceBackend.search_memories(self, query, task, context, insights, tags, top_k, where_metadata)


def _scenario(tmp_path):
    lines = [{"scenario": "paths-probe", "format": 1, "start_time": 1700000000, "oracle": None},
             {"tool": "memory_write_structured", "as": "a", "args": {"text": "cookie refresh fix",
                                                                       "metadata": {"files_changed": ["s.py"]}}},
             {"tool": "memory_search_structured", "id": "q", "args": {"query": "cookie", "paths": ["s.py"]},
              "expect": {"relevant": ["a"]}}]
    path = tmp_path / "paths-probe.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return load_scenario(path, tmp_path)


def test_paths_are_passed_only_with_the_capability(tmp_path):
    register_backend("test-paths-recording", Recording)
    register_backend("test-paths-without", NoPaths)
    sc = _scenario(tmp_path)
    CALLS.clear()
    with_cap = run_suite("test-paths-recording", [sc], tmp_path / "a").scenarios["paths-probe"]
    assert CALLS == [{"paths": ["s.py"]}] and with_cap["steps"]["error"] == 0
    CALLS.clear()
    without = run_suite("test-paths-without", [sc], tmp_path / "b").scenarios["paths-probe"]
    assert CALLS == [{}] and without["steps"]["error"] == 0 and without["steps"]["unsupported"] == 0
    assert with_cap["quality"]["ndcg@10"] == without["quality"]["ndcg@10"] == 1.0
