"""Do the fitted ranking constants transfer to a repository the fit never saw? Leave one dataset out and see.

    python3 -m bench.calibration.transfer [--data DIR]   # about 10 minutes: three fits of each stage below

The committed constants (`reference/lexical/params.py` `TUNED`, `MOMENT`, galaxybrain's re-rank, the default
ranker) are fitted jointly on the calibration split of the three datasets. A user's repository is none of
them, and the benchmark's held-out histories are other repositories too. So, for each dataset in turn, this
runs `lexical.fit` and then `files.fit_files` on the other two datasets' calibration scenarios alone (their
tables are not printed), then scores the left-out dataset's blame, history and files calibration scenarios
three ways. Memory Lane's ranker mode (`lane.py`, fitted on blame, history and blame-paths) and the project
layer's branch ranking (`lane.py --project`, on branches) are chosen the same way over their recorded grids, each
with the committed lexical constants, as their own stages take them:

- **left out**: the constants and the default ranker that the fit without this dataset chose;
- **joint**: the committed constants (`TUNED`, `FILES_TUNED`, `DEFAULT_RANKER`, `LANE`, `BRANCH_WEIGHT` and
  `BRANCH_PARAMS`), fitted with this dataset among the three;
- the harness's **BM25** and **recency** baselines (`bench/baselines`) on the same scenarios.

The gap between "left out" and "joint" is what fitting on a repository gained on that same repository; the
gap between "left out" and BM25 is what the design gains where nothing was fitted. Only calibration
scenarios are read (nothing scored), and nothing is written or chosen: the command reports.
"""
from __future__ import annotations

import io
import sys
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean

from bench.calibration import files, lane, lexical, scenarios
from bench.calibration.scenarios import DATASETS

RANKERS = ("oracle-hybrid", "galaxybrain", "rrf")


@dataclass(frozen=True)
class Fold:
    """What a fit chose: the lexical parameters, galaxybrain's (candidates, weight), the default ranker, MOMENT,
    the files task's `FileParams` (None: not fitted)."""

    params: object
    rerank: tuple[int, float]
    default: str
    moment: float
    files: object = None

    def describe(self) -> str:
        p = self.params
        return (f"default {self.default}; k1 {p.k1:g}, b {p.b:g}, vector {p.vector_weight:g}, expansion "
                f"{p.expand_top}/{p.expand_weight:g}/{p.expand_norm:g}, named {p.named_top}/{p.named_weight:g}, "
                f"recency {p.recency_weight:g} over {p.recency_scale:g} ({p.recency_form}), MOMENT {self.moment:g}, "
                f"re-rank {self.rerank[0]}/{self.rerank[1]:g}"
                + (f"; files {self.files}" if self.files is not None else ""))


def committed() -> Fold:
    """The constants in `reference/` now."""
    from reference.lexical.params import FILES_TUNED, MOMENT, RERANK_CANDIDATES, RERANK_WEIGHT, TUNED
    from reference.rankers.registry import DEFAULT_RANKER
    return Fold(TUNED, (RERANK_CANDIDATES, RERANK_WEIGHT), DEFAULT_RANKER, MOMENT, FILES_TUNED)


def fit_without(held: str, streams: dict[tuple[str, str], lexical.Stream],
                file_streams: dict[str, files.FileStream] | None = None) -> Fold:
    """`lexical.fit` on every calibration stream ((dataset, task) -> stream) but `held`'s, then (given
    `file_streams`, dataset -> stream) `files.fit_files` on every files stream but `held`'s with what it chose;
    their tables go nowhere."""
    train = [st for (d, _), st in streams.items() if d != held]
    params, rerank, default, moment = lexical.fit(train, out=io.StringIO())
    fp = None
    if file_streams:
        fp = files.fit_files([st for d, st in file_streams.items() if d != held], params, out=io.StringIO(),
                             moment=moment)
    return Fold(params, rerank, default, moment, fp)


def score(st: lexical.Stream, fold: Fold) -> dict[str, float]:
    """Mean nDCG@10 of each ranker of `RANKERS` on one stream under `fold`'s constants."""
    return {r: lexical.evaluate(st, fold.params, r, fold.rerank, fold.moment) for r in RANKERS}


def baselines(path: Path) -> dict[str, float]:
    """The harness's BM25 and recency nDCG@10 on the scenario file at `path`."""
    from bench.baselines import scenario_baselines
    base = scenario_baselines(scenarios.load(path))
    return {name: base[name]["ndcg@10"] for name in ("bm25", "recency")}


def run(folder: Path, out=sys.stdout) -> dict[str, dict]:
    """Every fold: what it chose and each held-out scenario's figures; printed as tables, and returned."""
    paths = {(d, t): folder / f"{d}-{t}-calibration.jsonl" for d in DATASETS for t in lexical.TASKS}
    file_paths = {d: folder / f"{d}-files-calibration.jsonl" for d in DATASETS}
    streams = {key: lexical.load_stream(path) for key, path in paths.items()}
    file_streams = {d: files.load_file_stream(path) for d, path in file_paths.items()}
    joint = committed()
    rows, file_rows, folds = {}, {}, {}
    for held in DATASETS:
        fold = folds[held] = fit_without(held, streams, file_streams)
        print(f"- without {held}: {fold.describe()}", file=out, flush=True)
        for t in lexical.TASKS:
            st = streams[(held, t)]
            mine, theirs = score(st, fold), score(st, joint)
            rows[f"{held}-{t}-calibration"] = {"left out": mine, "joint": theirs, "default": fold.default,
                                               "left": mine[fold.default], "joint default": theirs[joint.default],
                                               **baselines(paths[(held, t)])}
        st = file_streams[held]
        file_rows[f"{held}-files-calibration"] = {
            "left out": files.evaluate_files(st, fold.params, fold.files, fold.moment),
            "joint": files.evaluate_files(st, joint.params, joint.files, joint.moment), **baselines(file_paths[held])}
    print(f"- joint (committed): {joint.describe()}\n", file=out)
    print("| held-out scenario | default, left out | default, joint | BM25 | recency | left out - BM25 | "
          + " | ".join(f"{r}, left out / joint" for r in RANKERS) + " |\n" + "|---" * (6 + len(RANKERS)) + "|",
          file=out)
    for name, row in rows.items():
        print(f"| {name} | {row['left']:.3f} ({row['default']}) | {row['joint default']:.3f} | {row['bm25']:.3f} | "
              f"{row['recency']:.3f} | {row['left'] - row['bm25']:+.3f} | "
              + " | ".join(f"{row['left out'][r]:.3f} / {row['joint'][r]:.3f}" for r in RANKERS) + " |", file=out)
    mean = _means(rows, "left", "joint default")
    print(f"| mean of the six | {mean['left']:.4f} | {mean['joint']:.4f} | {mean['bm25']:.4f} | "
          f"{mean['recency']:.4f} | {mean['left'] - mean['bm25']:+.4f} |" + " |" * len(RANKERS), file=out)
    _table(file_rows, "files (one path for every ranker)", out)
    files_mean = _means(file_rows, "left out", "joint")
    lane_rows, branch_rows = lane_transfer(folder, out), branch_transfer(folder, out)
    return {"folds": folds, "rows": rows, "mean": mean, "file_rows": file_rows, "files_mean": files_mean,
            "lane_rows": lane_rows, "branch_rows": branch_rows}


def lane_transfer(folder: Path, out=sys.stdout) -> dict[str, dict]:
    """Memory Lane's ranker mode chosen without each dataset (`lane.choose` over the other datasets' recorded
    scenarios), scored on that dataset's blame, history and blame-paths calibration scenarios; printed."""
    recorded = {(d, t): lane.record(d, t) for d in DATASETS for t in lane.TASKS}
    return _grid_transfer("Memory Lane", "semantic, expand_norm, expansion, recency, half-life", "Memory Lane",
                          recorded, lane.grid_scores(recorded), lane.committed_setting(), folder, out)


def branch_transfer(folder: Path, out=sys.stdout) -> dict[str, dict]:
    """The project layer's branch ranking (`lane.py --project`) chosen without each dataset, scored on that
    dataset's branches calibration scenario; printed."""
    recorded = {(d, "branches"): lane.record_project(d) for d in DATASETS}
    return _grid_transfer("branch ranking", "branch weight, expansion, recency, half-life",
                          "project memory in the branch filter", recorded, lane.project_grid_scores(recorded),
                          lane.committed_project_setting(), folder, out)


def _grid_transfer(label: str, axes: str, what: str, recorded: dict[tuple[str, str], list],
                   per: dict[tuple, dict[tuple[str, str], float]], committed: tuple, folder: Path,
                   out) -> dict[str, dict]:
    """A grid stage left out one dataset at a time: `recorded` ((dataset, task) -> judged queries) and `per`
    (setting -> (dataset, task) -> mean nDCG@10), the choice made over the other datasets' scenarios as the stage
    makes it (`lane.choose`, one query's share a tie), each held-out scenario's figure under it; printed."""
    if committed not in per:
        raise ValueError(f"transfer: the committed {label} {committed} is not a setting of its grid in lane.py")
    rows = {}
    for held in DATASETS:
        train = [k for k in recorded if k[0] != held and recorded[k]]
        chosen = lane.choose({s: fmean(v[k] for k in train) for s, v in per.items()},
                             1.0 / sum(len(recorded[k]) for k in train), committed)
        print(f"- {label} without {held}: ({axes}) {chosen}", file=out)
        for key in recorded:
            if key[0] == held and key in per[chosen]:
                name = f"{held}-{key[1]}-calibration"
                rows[name] = {"left out": per[chosen][key], "joint": per[committed][key],
                              **baselines(folder / f"{name}.jsonl")}
    print(f"- {label} joint (committed): {committed}", file=out)
    _table(rows, what, out)
    return rows


def _table(rows: dict[str, dict], what: str, out) -> None:
    """One stage's held-out rows and their mean, as a table."""
    print(f"\n| held-out scenario | {what}, left out | joint | BM25 | recency | left out - BM25 |\n"
          "|---|---|---|---|---|---|", file=out)
    for name, row in rows.items():
        print(f"| {name} | {row['left out']:.3f} | {row['joint']:.3f} | {row['bm25']:.3f} | {row['recency']:.3f} | "
              f"{row['left out'] - row['bm25']:+.3f} |", file=out)
    mean = _means(rows, "left out", "joint")
    print(f"| mean of the {len(rows)} | {mean['left']:.4f} | {mean['joint']:.4f} | {mean['bm25']:.4f} | "
          f"{mean['recency']:.4f} | {mean['left'] - mean['bm25']:+.4f} |\n", file=out)


def _means(rows: dict[str, dict], left: str, joint: str) -> dict[str, float]:
    """The mean over `rows` of the left-out figure (key `left`), the joint one (key `joint`) and the baselines."""
    return {"left": fmean(r[left] for r in rows.values()), "joint": fmean(r[joint] for r in rows.values()),
            **{b: fmean(r[b] for r in rows.values()) for b in ("bm25", "recency")}}


def main(argv: list[str] | None = None) -> int:
    return scenarios.stage_main(argv, "bench.calibration.transfer", __doc__, run)


if __name__ == "__main__":
    sys.exit(main())
