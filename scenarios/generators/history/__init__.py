"""One generator for every history scenario of any format-2 data folder (scenarios/README.md, "History scenarios").

    python3 -m bench.cli.main scenarios build scenarios/data/httpx --out scenarios --oracle-out oracle_data

`build` writes `<out>/<data>-<task>.jsonl` for each task and the judgements of
the ranked ones in `<oracle_out>/<data>-<task>/qrels.tsv`. Given a git
repository (with a work tree, or bare: `NAME.git` is named NAME) instead of a
data folder, it first extracts one into `<out>/data/<name>/` (`extract.py`, blame computed with `git blame -w`). Deterministic: no
randomness, no clock; the same data gives byte-identical files. Nothing here
imports or reads `reference/`.
"""
from __future__ import annotations

import functools
from pathlib import Path

from . import blame, branches, cofile, dedup, files, hunks
from .common import layout_of
from .dataset import DataError, Dataset, load
from .sampling import SPLITS

TASKS = {"blame": blame.build, "files": files.build, "branches": branches.build, "dedup": dedup.build,
         "history": cofile.build, "blame-paths": functools.partial(blame.build, with_paths=True)}
RANKED = ("blame", "files", "branches", "history", "blame-paths")
GRANULARITIES = ("commit", "hunk")
HUNK_TASKS = ("blame", "history")   # the tasks whose memories are commit memories (files, branches, dedup record `commit`s)


def scenario_name(ds: Dataset, task: str, split: str = "scored", granularity: str = "commit") -> str:
    return (f"{ds.name}-{task}" + ("-hunks" if granularity == "hunk" else "")
            + ("-calibration" if split == "calibration" else ""))


def generate(ds: Dataset, task: str, split: str = "scored",
             granularity: str = "commit") -> tuple[list[dict], list[tuple[str, str, int]] | None]:
    """The lines (header first) and judgements of one task's scenario.

    `granularity="hunk"` adds, after each commit memory, one memory per hunk of
    its patch (`hunks.py`); queries and judgements are those of `"commit"`.
    """
    if task not in TASKS:
        raise DataError(f"unknown task {task!r}; known: {', '.join(TASKS)}")
    if split not in SPLITS:
        raise DataError(f"unknown split {split!r}; known: {', '.join(SPLITS)}")
    if granularity not in GRANULARITIES:
        raise DataError(f"unknown granularity {granularity!r}; known: {', '.join(GRANULARITIES)}")
    if granularity == "hunk" and task not in HUNK_TASKS:
        raise DataError(f"task {task!r} has no hunk granularity; tasks that do: {', '.join(HUNK_TASKS)}")
    lines, qrels = TASKS[task](ds, scenario_name(ds, task, split, granularity), split)
    if granularity == "hunk":
        lines = hunks.expand(lines, ds, layout_of(ds))
        lines[0]["description"] += " Hunk granularity: each commit memory is followed by one memory per hunk of its patch."
    return lines, qrels


def build(data_dir: str | Path, out: str | Path, oracle_out: str | Path | None = None,
          tasks: list[str] | None = None, split: str = "scored", granularity: str = "commit") -> list[str]:
    """Write the scenarios of `tasks` (default: all; the calibration split has no dedup) and return one note each."""
    from .common import write_outputs
    out = Path(out)
    bare = _is_bare_repository(Path(data_dir))
    if bare or (Path(data_dir) / ".git").exists():   # a git repository: extract its format-2 folder first
        from .dataset import dataset_name
        from .extract import extract
        folder = Path(data_dir).resolve()
        if bare and folder.name.lower().endswith(".git") and len(folder.name) > 4:   # `clone --bare` makes NAME.git
            folder = folder.with_name(folder.name[:-4])
        data_dir = extract(data_dir, out / "data" / dataset_name(folder))
    ds = load(data_dir)
    oracle_out = Path(oracle_out) if oracle_out is not None else out / "oracle_data"
    chosen = tasks or [t for t in TASKS if split == "scored" or t in RANKED]
    notes = []
    for task in chosen:
        lines, qrels = generate(ds, task, split, granularity)
        notes.append(write_outputs(lines[0]["scenario"], lines, qrels, out, oracle_out))
    return notes


def _is_bare_repository(folder: Path) -> bool:
    """A bare git repository (`git clone --bare`, a mirror): HEAD, objects/ and refs/ with no work tree."""
    return (folder / "HEAD").is_file() and (folder / "objects").is_dir() and (folder / "refs").is_dir()


__all__ = ["DataError", "GRANULARITIES", "HUNK_TASKS", "RANKED", "TASKS", "build", "generate", "load", "scenario_name"]
