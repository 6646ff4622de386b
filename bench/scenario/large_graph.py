"""The large tier's graph scenario, `graph-scale`: generated into the cache folder on first use.

`scenarios/generators/graph_scale.py` writes it from `scenarios/spec/graph_scale.toml`
(50k nodes / 500k live edges, about 52 MB, so it is not committed). `path_for`
builds it into `large.cache_dir(root)` the first time it is named and reuses it
while the spec and the generator's source (by content, `<name>.stamp` beside
it) are unchanged. About 6 s of CPU to build.
"""
from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

from bench.scenario.loader import ScenarioError

NAMES = ("graph-scale",)
GENERATOR_VERSION = "1"


def _sources(root: Path) -> list[Path]:
    return [root / "scenarios" / "generators" / "graph_scale.py", root / "scenarios" / "spec" / "graph_scale.toml"]


def _generator(root: Path):
    path = _sources(root)[0]
    spec = importlib.util.spec_from_file_location("codemem_graph_scale_generator", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def path_for(name: str, root: Path, cache: Path) -> Path | None:
    """The cached file of `name` in `cache` (built now if missing or stale); None if `name` is not one of NAMES."""
    if name not in NAMES:
        return None
    sources = _sources(root)
    for src in sources:
        if not src.is_file():
            raise ScenarioError(f"large scenario {name!r} needs {src}, which is missing")
    h = hashlib.sha256(GENERATOR_VERSION.encode())
    for src in sources:
        h.update(src.name.encode() + b"\0" + src.read_bytes())
    stamp = h.hexdigest()[:16]
    path, stamp_path = cache / f"{name}.jsonl", cache / f"{name}.stamp"
    if path.exists() and stamp_path.exists() and stamp_path.read_text().strip() == stamp:
        return path
    gen = _generator(root)
    gen.write(gen.load_spec(sources[1]), cache)
    stamp_path.write_text(stamp + "\n")
    return path
