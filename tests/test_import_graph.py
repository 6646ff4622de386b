"""The import graph of `reference/` and `bench/` keeps its rules: no circles, no reference -> bench, layers kept.

The graph is read from the source by `tests/import_graph.py` (its docstring says exactly what counts as an
import: deferred imports inside functions, `TYPE_CHECKING` imports and lazy package exports all do). The
last tests plant each kind of fault in a throw-away package and check the checker reports it, so a
checker that sees nothing cannot pass for a clean graph.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_graph import ImportGraph, under

ROOT = Path(__file__).resolve().parents[1]

# The layer table: each row is (lower layers, higher layers). No module under a lower name may reach a
# module under a higher one, directly or through any chain of imports. A name matches that module or package
# and everything inside it (`reference.blob` matches `reference.blob.frames`, not a `reference.blob_x`).
# When a package moves or a layer is added, edit this table; `test_every_name_of_the_layer_table_exists`
# fails on a name that no longer matches anything.
LAYERS: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
    # the store's lower layers never import the layers built on them (a higher layer registers its
    # schema steps and listeners with them instead), nor the facade
    (("reference.tracker", "reference.blob", "reference.vectors", "reference.keys"),
     ("reference.knowledge", "reference.lane", "reference.project", "reference.mcp_server", "reference.store")),
    # the store's parts never import the facade that holds them (reference/README.md, package map)
    (("reference.memories", "reference.code", "reference.vectors", "reference.blob", "reference.tracker"),
     ("reference.store",)),
    # the facade never imports the layers built on it
    (("reference.store",), ("reference.knowledge", "reference.lane", "reference.project")),
    # embedders, pattern sets and the graph sit below the store and its layers
    (("reference.embed", "reference.patterns", "reference.graph"),
     ("reference.store", "reference.knowledge", "reference.lane", "reference.project", "reference.mcp_server")),
    # the store and its layers never import the server over them or the offline check
    (("reference.store", "reference.knowledge", "reference.lane", "reference.project", "reference.rankers"),
     ("reference.mcp_server", "reference.verify")),
    # the lexical index and its ranking parts sit below every layer that ranks with them (rankers, Memory Lane,
    # project memory) and take the store as an argument
    (("reference.lexical",), ("reference.store", "reference.knowledge", "reference.lane", "reference.project",
                              "reference.rankers", "reference.mcp_server")),
    (("reference.tracker", "reference.blob", "reference.vectors", "reference.keys", "reference.memories",
      "reference.embed"), ("reference.lexical",)),
    # Memory Lane and project memory are siblings over the store: each ranks with reference/lexical, neither
    # imports the other
    (("reference.lane",), ("reference.project",)),
    (("reference.project",), ("reference.lane",)),
    # the harness's library packages never import its command line (commands are the top)
    (("bench.scenario", "bench.metrics", "bench.replay", "bench.steps", "bench.backends", "bench.report"),
     ("bench.cli",)),
]


@pytest.fixture(scope="module")
def graph() -> ImportGraph:
    return ImportGraph.read(ROOT, ("reference", "bench"))


@pytest.mark.parametrize("package", ["reference", "bench"])
def test_no_import_circle(graph, package):
    found = graph.circle_report(package)
    assert not found, (f"{len(found)} import circle(s) in {package}/ (break each by design: a class keeps its "
                       "methods, parts are composed or take what they need as arguments):\n" + "\n".join(found))


def test_reference_never_imports_bench(graph):
    found = graph.crossings("reference", ("bench",))
    assert not found, "reference/ imports bench/:\n" + "\n".join(map(str, found))


def test_lower_layers_never_reach_higher_ones(graph):
    found = graph.layer_violations(LAYERS)
    assert not found, "a lower layer reaches a higher one (the path of imports):\n" + "\n".join(found)


def test_every_name_of_the_layer_table_exists(graph):
    missing = [name for lower, higher in LAYERS for name in (*lower, *higher)
               if not any(under(m, (name,)) for m in graph.modules)]
    assert not missing, f"layer table names no module: {missing} (moved? update LAYERS)"


def test_the_graph_is_read(graph):
    """The real graph has its modules and edges (an empty read would pass every rule above)."""
    assert len(graph.modules) > 300 and len(graph.edges) > 1000
    assert any(e.source == "bench.cli.scenarios_cmd" and e.target == "bench.scenario.check" for e in graph.edges)


# -- the checker catches what it must: planted faults in a throw-away package ---------------------------------

def _package(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


CLEAN = {
    "pkg/__init__.py": "",
    "pkg/low/__init__.py": "",
    "pkg/low/base.py": "import os\n",
    "pkg/mid.py": "from pkg.low import base\n",
    "pkg/high/__init__.py": "",
    "pkg/high/top.py": "from pkg import mid\nfrom pkg.low.base import os\n",
}


def test_a_clean_package_has_nothing_to_report(tmp_path):
    g = ImportGraph.read(_package(tmp_path, CLEAN), ("pkg",))
    assert g.circles() == [] and g.layer_violations([(("pkg.low",), ("pkg.high",))]) == []
    assert {(e.source, e.target) for e in g.edges} == {("pkg.mid", "pkg.low.base"), ("pkg.high.top", "pkg.mid"),
                                                      ("pkg.high.top", "pkg.low.base")}


@pytest.mark.parametrize("a, b, kind", [
    ("from pkg import b\n", "from pkg.a import x\n", "module level"),
    ("import pkg.b\n", "def f():\n    from pkg.a import x\n    return x\n", "deferred inside a function"),
    ("from . import b\n", "from .a import x\n", "relative"),
    ("from pkg.b import y\n", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import X\n",
     "TYPE_CHECKING only"),
    ("import pkg.b.inner\n", "from pkg import a\n", "a name inside a module"),
])
def test_a_planted_circle_is_reported(tmp_path, a, b, kind):
    g = ImportGraph.read(_package(tmp_path, {**CLEAN, "pkg/a.py": a, "pkg/b.py": b}), ("pkg",))
    assert g.circles() == [["pkg.a", "pkg.b"]], kind
    assert len(g.circle_report("pkg")) == 1
    assert any(e.type_only for e in g.edges) == (kind == "TYPE_CHECKING only")


def test_a_circle_through_a_lazy_package_export_is_reported(tmp_path):
    files = {**CLEAN,
             "pkg/lazy/__init__.py": ("from pkg.low.exports import lazy_getattr\n"
                                      "_EXPORTS = {'Part': 'pkg.lazy.part', 'other': 'pkg.lazy.part:thing'}\n"
                                      "__getattr__ = lazy_getattr('pkg.lazy', _EXPORTS, globals())\n"),
             "pkg/low/exports.py": "def lazy_getattr(*a):\n    pass\n",
             "pkg/lazy/part.py": "from pkg.lazy import Other\n"}
    g = ImportGraph.read(_package(tmp_path, files), ("pkg",))
    assert g.circles() == [["pkg.lazy", "pkg.lazy.part"]]


def test_a_long_circle_is_one_component(tmp_path):
    files = {**CLEAN, **{f"pkg/m{i}.py": f"from pkg import m{(i + 1) % 5}\n" for i in range(5)}}
    g = ImportGraph.read(_package(tmp_path, files), ("pkg",))
    assert g.circles() == [[f"pkg.m{i}" for i in range(5)]]


def test_a_planted_layer_violation_is_reported_with_its_path(tmp_path):
    files = {**CLEAN, "pkg/low/base.py": "def f():\n    from pkg import mid\n",   # deferred, and indirect
             "pkg/mid.py": "import pkg.high.top\n", "pkg/high/top.py": ""}
    g = ImportGraph.read(_package(tmp_path, files), ("pkg",))
    assert g.layer_violations([(("pkg.low",), ("pkg.high",))]) == ["pkg.low.base -> pkg.mid -> pkg.high.top"]
    assert g.layer_violations([(("pkg.low",), ("pkg.nothing",))]) == []


def test_a_planted_import_of_the_harness_is_reported(tmp_path):
    files = {"reference/__init__.py": "", "reference/x.py": "def f():\n    import bench.y\n",
             "bench/__init__.py": "", "bench/y.py": ""}
    g = ImportGraph.read(_package(tmp_path, files), ("reference", "bench"))
    assert [str(e) for e in g.crossings("reference", ("bench",))] == ["reference.x:2 -> bench.y"]


def test_a_file_that_does_not_parse_is_named(tmp_path):
    with pytest.raises(SyntaxError, match=r"bad\.py"):
        ImportGraph.read(_package(tmp_path, {**CLEAN, "pkg/bad.py": "def (:\n"}), ("pkg",))
