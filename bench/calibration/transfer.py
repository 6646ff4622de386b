"""Do the lexical constants transfer to a repository the fit never saw? Leave one dataset out and see.

    python3 -m bench.calibration.transfer [--data DIR]   # about 12 minutes: three fits of `lexical.py`

The committed constants (`reference/lexical/params.py` `TUNED`, `MOMENT`, galaxybrain's re-rank, the default
ranker) are fitted jointly on the calibration split of the three datasets. A user's repository is none of
them, and the benchmark's held-out histories are other repositories too. So, for each dataset in turn, this
runs `lexical.fit` on the other two datasets' calibration scenarios alone (its tables are not printed), then
scores the left-out dataset's blame and history calibration scenarios three ways:

- **left out**: the constants and the default ranker that the fit without this dataset chose;
- **joint**: the committed constants and `DEFAULT_RANKER` (fitted with this dataset among the three);
- the harness's **BM25** and **recency** baselines (`bench/baselines`) on the same scenarios.

The gap between "left out" and "joint" is what fitting on a repository gained on that same repository; the
gap between "left out" and BM25 is what the design gains where nothing was fitted. Only calibration
scenarios are read (nothing scored), and nothing is written or chosen: the command reports.
"""
from __future__ import annotations

import argparse
import io
import sys
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean

from bench.calibration import lexical, scenarios
from bench.calibration.scenarios import DATASETS

RANKERS = ("oracle-hybrid", "galaxybrain", "rrf")


@dataclass(frozen=True)
class Fold:
    """What a fit chose: the lexical parameters, galaxybrain's (candidates, weight), the default ranker, MOMENT."""

    params: object
    rerank: tuple[int, float]
    default: str
    moment: float

    def describe(self) -> str:
        p = self.params
        return (f"default {self.default}; k1 {p.k1:g}, b {p.b:g}, vector {p.vector_weight:g}, expansion "
                f"{p.expand_top}/{p.expand_weight:g}/{p.expand_norm:g}, named {p.named_top}/{p.named_weight:g}, "
                f"recency {p.recency_weight:g} over {p.recency_scale:g} ({p.recency_form}), MOMENT {self.moment:g}, "
                f"re-rank {self.rerank[0]}/{self.rerank[1]:g}")


def committed() -> Fold:
    """The constants in `reference/` now."""
    from reference.lexical.params import MOMENT, RERANK_CANDIDATES, RERANK_WEIGHT, TUNED
    from reference.rankers.registry import DEFAULT_RANKER
    return Fold(TUNED, (RERANK_CANDIDATES, RERANK_WEIGHT), DEFAULT_RANKER, MOMENT)


def fit_without(held: str, streams: dict[str, lexical.Stream]) -> Fold:
    """`lexical.fit` on every calibration stream but `held`'s; its tables go nowhere."""
    train = [st for name, st in streams.items() if not name.startswith(held + "-")]
    params, rerank, default, moment = lexical.fit(train, out=io.StringIO())
    return Fold(params, rerank, default, moment)


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
    paths = {f"{d}-{t}-calibration": folder / f"{d}-{t}-calibration.jsonl" for d in DATASETS for t in lexical.TASKS}
    streams = {name: lexical.load_stream(path) for name, path in paths.items()}
    joint = committed()
    rows, folds = {}, {}
    for held in DATASETS:
        folds[held] = fit_without(held, streams)
        print(f"- without {held}: {folds[held].describe()}", file=out, flush=True)
        for t in lexical.TASKS:
            name = f"{held}-{t}-calibration"
            rows[name] = {"left out": score(streams[name], folds[held]), "joint": score(streams[name], joint),
                          "default": folds[held].default, **baselines(paths[name])}
    print(f"- joint (committed): {joint.describe()}\n", file=out)
    print("| held-out scenario | default, left out | default, joint | BM25 | recency | left out - BM25 | "
          + " | ".join(f"{r}, left out / joint" for r in RANKERS) + " |\n" + "|---" * (6 + len(RANKERS)) + "|",
          file=out)
    for name, row in rows.items():
        mine, theirs = row["left out"][row["default"]], row["joint"][joint.default]
        print(f"| {name} | {mine:.3f} ({row['default']}) | {theirs:.3f} | {row['bm25']:.3f} | {row['recency']:.3f} | "
              f"{mine - row['bm25']:+.3f} | " + " | ".join(f"{row['left out'][r]:.3f} / {row['joint'][r]:.3f}"
                                                            for r in RANKERS) + " |", file=out)
    mean = {k: fmean(r["left out"][r["default"]] if k == "left" else r["joint"][joint.default] if k == "joint"
                     else r[k] for r in rows.values()) for k in ("left", "joint", "bm25", "recency")}
    print(f"| mean of the six | {mean['left']:.4f} | {mean['joint']:.4f} | {mean['bm25']:.4f} | "
          f"{mean['recency']:.4f} | {mean['left'] - mean['bm25']:+.4f} |" + " |" * len(RANKERS), file=out)
    return {"folds": folds, "rows": rows, "mean": mean}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m bench.calibration.transfer", description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, help="a folder holding the calibration scenarios (else built)")
    args = ap.parse_args(argv)
    with scenarios.folder(args.data) as folder:
        run(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
