"""How the history-fitted lexical constants do on short notes, and what moving the recency prior would trade.

    python3 -m bench.calibration.notes [--data DIR]   # about 15 s (the history calibration scenarios built first)

The lexical stage (`lexical.py`) fits `TUNED` on commit histories alone. On notes (the `knowledge` scenario's
plain searches) the tuned default ranker falls under BM25 (`reference/lexical/README.md`, "Still open"). This
check scores the oracle-hybrid pipeline (`ranking.hybrid_scores` from cached parts, as the lexical stage does)
on both kinds of calibration data: the blame and history calibration scenarios of the three datasets, and
`knowledge-calibration` (another product's notes than the scored `knowledge`, in no suite: scenarios/README.md).
Rows: `TUNED` as committed (seed 001's decay multiplies the whole fused score), no prior, and the prior moved
onto the first stage alone (BM25 + cosine x (1 + w x prior), then the expansions added) at several weights.

Only calibration scenarios are read, and nothing is chosen or written: the command reports, so that a fit over
both kinds of memory starts from measured figures.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from statistics import fmean

import numpy as np

from bench.calibration import lexical, scenarios

NOTES = "knowledge-calibration"
FIRST_STAGE_WEIGHTS = (0.7, 1.0, 1.5, 2.0)


def score(cached: list, params, on_first: bool = False) -> list[float]:
    """Mean nDCG@10 of each stream's cached parts (`lexical.parts_of`) under `params`; with `on_first` the
    recency prior multiplies the first stage alone instead of the fused sum."""
    from bench.metrics import ndcg
    from reference.lexical.ranking import fuse, top_rows, with_prior
    from reference.lexical.recency import recency_prior
    per = []
    for queries, ids in cached:
        got = []
        for q in queries:
            prior = recency_prior(q.first.size, params.recency_scale, q.ticks) if params.recency_weight > 0 else None
            first = with_prior(q.first, prior, params) if on_first and prior is not None else q.first
            s = fuse(first, q.shared if params.expand_weight > 0 else None,
                     q.named if params.named_weight > 0 else None, None if on_first else prior, params)
            got.append(ndcg([ids[r] for r, _ in top_rows(np.where(q.alive, s, -np.inf), 10, ids)], q.grades, 10))
        per.append(fmean(got) if got else 0.0)
    return per


def rows(history: list, notes: list) -> list[tuple[str, float, float]]:
    """(setting, history calibration mean, notes calibration mean) of each setting the module docstring names."""
    from reference.lexical.params import TUNED
    hc = [lexical.parts_of(st, TUNED) for st in history]
    nc = [lexical.parts_of(st, TUNED) for st in notes]
    settings = [(f"TUNED as committed (x {TUNED.recency_weight:g} prior on the sum)", TUNED, False),
                ("no recency prior", TUNED.with_(recency_weight=0.0), False)]
    settings += [(f"prior on the first stage, weight {w:g}", TUNED.with_(recency_weight=w), True)
                 for w in FIRST_STAGE_WEIGHTS]
    return [(label, fmean(score(hc, p, first)), fmean(score(nc, p, first))) for label, p, first in settings]


def table(results: list[tuple[str, float, float]]) -> str:
    out = ["| setting | history calibration (6 scenarios) | knowledge-calibration (notes) |", "|---|---|---|"]
    out += [f"| {label} | {h:.4f} | {n:.4f} |" for label, h, n in results]
    return "\n".join(out)


def run(folder: Path, notes_path: Path | None = None, out=sys.stdout) -> list[tuple[str, float, float]]:
    from bench.scenario.suites import scenarios_dir
    history = lexical.streams_from(folder)
    notes = [lexical.load_stream(notes_path or scenarios_dir() / f"{NOTES}.jsonl")]
    results = rows(history, notes)
    print(table(results), file=out)
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m bench.calibration.notes", description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, help="a folder holding the history calibration scenarios (else built)")
    args = ap.parse_args(argv)
    with scenarios.folder(args.data) as folder:
        run(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
