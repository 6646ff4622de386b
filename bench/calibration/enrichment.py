"""Fit whether oracle-hybrid's tuned search follows its results' stored relationships, on the calibration split.

    python3 -m bench.calibration.enrichment [--data DIR]   # also run by `python3 -m bench.calibration`

Seed 001's `includeRelated` (reference/knowledge/hybrid.py, step 6) pulls the
memories that `updates`, `extends` or `derives` from a result into the
results and demotes a superseded result. The relationships are the ones the
knowledge layer's rules stored at write time (reference/knowledge/relations.py).
Whether following them earns its place in the tuned ranker is a question for
data, like every other part of its pipeline: this stage replays the blame and
history calibration scenarios of the three datasets (`<data>-{blame,history}-calibration`,
built as `lexical.py` builds them) through the harness, on the in-process
reference with the committed constants, with the enrichment on and off
(`reference/rankers/oracle_hybrid.py` `INCLUDE_RELATED`). The score is their
mean nDCG@10 (each scenario counts once); a gain smaller than one query's
share of it is a tie, and ties go to the seed's design, the enrichment on.

Only the ranker's default is fitted here. The enrichment's factors
(`SUPERSEDED_FACTOR`, `RELATED_FACTOR`) are shared with seed 001's own search
(`oracle_search`, scored on `knowledge-history`) and stay as committed. A query
can still ask for either with the `include_related` option; the seed-default
replay (`reference:seed-defaults`, seed 001's search) always follows them.
"""
from __future__ import annotations

import contextlib
import sys
import tempfile
from pathlib import Path
from statistics import fmean

from bench.calibration import scenarios
from bench.calibration.scenarios import DATASETS

TASKS = ("blame", "history")


@contextlib.contextmanager
def setting(include: bool):
    """Run the in-process reference with the ranker's `INCLUDE_RELATED` at `include`, then restore it."""
    from reference.rankers import oracle_hybrid
    saved = oracle_hybrid.INCLUDE_RELATED
    oracle_hybrid.INCLUDE_RELATED = include
    try:
        yield
    finally:
        oracle_hybrid.INCLUDE_RELATED = saved


def replay(scs: list) -> dict[str, tuple[float, int]]:
    """Scenario name -> (nDCG@10 of the reference's default ranker, judged queries), one harness replay each."""
    from bench.run import run_suite
    with tempfile.TemporaryDirectory(prefix="calib-enrich-") as tmp:
        report = run_suite("reference", scs, Path(tmp))
    return {name: (float(s["quality"].get("ndcg@10") or 0.0), len(s["per_query"]))
            for name, s in report.scenarios.items()}


def choose(scored: dict[bool, float], tie: float) -> bool:
    """The setting with the best mean; within `tie` of the best, the seed's design (on)."""
    top = max(scored.values())
    return top - scored[True] <= tie


def calibrate(folder: Path, out=sys.stdout) -> bool:
    """Both settings' mean and per-scenario nDCG@10, printed; returns the chosen `INCLUDE_RELATED`."""
    scs = [scenarios.load(folder / f"{d}-{t}-calibration.jsonl") for d in DATASETS for t in TASKS]
    scored, names, queries = {}, None, 0
    for include in (True, False):
        with setting(include):
            per = replay(scs)
        if names is None:
            names = list(per)
            print("\n## oracle-hybrid: its results' stored relationships at query time (seed 001 includeRelated)\n"
                  "| INCLUDE_RELATED | mean nDCG@10 | " + " | ".join(names) + " |\n" + "|---" * (2 + len(names))
                  + "|", file=out)
        queries = sum(n for _, n in per.values())
        scored[include] = fmean(v for v, _ in per.values())
        print(f"| {include} | {scored[include]:.4f} | " + " | ".join(f"{per[n][0]:.3f}" for n in names) + " |",
              file=out, flush=True)
    tie = 1.0 / queries
    chosen = choose(scored, tie)
    print(f"chosen: INCLUDE_RELATED {chosen} ({scored[chosen]:.4f}; best {max(scored.values()):.4f}; a gain under one "
          f"query's share ({tie:.4f}) is a tie; ties go to the seed's design, the enrichment on)", file=out)
    return chosen


def main(argv: list[str] | None = None) -> int:
    return scenarios.stage_main(argv, "bench.calibration.enrichment", __doc__, calibrate)


if __name__ == "__main__":
    sys.exit(main())
