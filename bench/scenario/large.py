"""The large tier's scenarios: generated from the real histories into a cache folder on first use.

The `large` suite (scenarios/suites.json) names scenarios that are not
committed (they are tens of MB): `<data>-<task>-hunks` is the history task
`<task>` of `scenarios/data/<data>` at hunk granularity
(scenarios/generators/history/hunks.py). `path_for(name)` builds it, with its
judgements, into the cache folder the first time it is asked for and returns
the file; the generator is deterministic, so a cached file is reused as long
as its data and the generator's source (by content) match (`.stamp` beside it).

Cache folder: `$CODEMEM_BENCH_CACHE/scenarios` if that variable is set, else
`<project root>/.cache/scenarios` (git-ignored) in a checkout, `~/.cache/codemem-bench/scenarios` for an
installed wheel. Delete it to rebuild.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from bench.scenario import large_graph
from bench.scenario.history_generator import history_generator
from bench.scenario.loader import ScenarioError

GENERATOR_VERSION = "1"
DATASETS = ("sqlite-utils", "httpx", "attrs")


def cache_dir(root: Path) -> Path:
    env = os.environ.get("CODEMEM_BENCH_CACHE")
    if env:
        return Path(env) / "scenarios"
    if root.name == "codemem_bench_data":   # an installed wheel: never write into site-packages
        return Path.home() / ".cache" / "codemem-bench" / "scenarios"
    return root / ".cache" / "scenarios"


def parse(name: str) -> tuple[str, str] | None:
    """(data, task) of a large scenario name, or None if `name` is not one."""
    HUNK_TASKS = history_generator().HUNK_TASKS
    if not name.endswith("-hunks"):
        return None
    stem = name[: -len("-hunks")]
    for data in DATASETS:
        task = stem[len(data) + 1:]
        if stem.startswith(data + "-") and task in HUNK_TASKS:
            return data, task
    return None


def generated(name: str) -> bool:
    """True if `name` is a large-tier scenario built on first use (history hunks or the graph tier)."""
    return name in large_graph.NAMES or parse(name) is not None


def _stamp(data_dir: Path, root: Path) -> str:
    """A digest of the data's files and the generator's source: a change to either rebuilds."""
    h = hashlib.sha256(GENERATOR_VERSION.encode())
    sources = sorted((root / "scenarios" / "generators" / "history").glob("*.py"))
    for f in sorted(data_dir.glob("*.jsonl")) + [data_dir / "meta.json"] + sources:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def path_for(name: str, root: Path) -> Path | None:
    """The cached file of large scenario `name` (built now if missing or stale); None if `name` is not one."""
    if name in large_graph.NAMES:  # the graph tier has a generator of its own
        return large_graph.path_for(name, root, cache_dir(root))
    parsed = parse(name)
    if parsed is None:
        return None
    data, task = parsed
    data_dir = root / "scenarios" / "data" / data
    if not data_dir.is_dir():
        raise ScenarioError(f"large scenario {name!r} needs {data_dir}, which is missing")
    out = cache_dir(root)
    path, stamp_path, stamp = out / f"{name}.jsonl", out / f"{name}.stamp", _stamp(data_dir, root)
    if path.exists() and stamp_path.exists() and stamp_path.read_text().strip() == stamp:
        return path
    gen = history_generator()
    lines, qrels = gen.generate(gen.load(data_dir), task, granularity="hunk")
    gen.common.write_outputs(name, lines, qrels, out, out / "oracle_data")
    stamp_path.write_text(stamp + "\n")
    return path
