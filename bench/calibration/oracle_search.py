"""Fit which search `oracle_search` runs with tuned constants, on the calibration split; print the choice.

    python3 -m bench.calibration.oracle_search     # also run by `python3 -m bench.calibration` (about 10 s)

Seed 001's tool `oracle_search` is the knowledge layer's hybrid search. Two designs of it can run with the
tuned constants (`reference/knowledge/layer.py` `ORACLE_SEARCH`):

- "seed": the seed's own (`reference/knowledge/hybrid.py`: FTS5 bm25 0.4 + cosine 0.6, score x relevance
  weighted by the fitted `DECAY_WEIGHT`, entity boost, enrichment);
- "lexical": the same steps over the code-aware lexical ranking the oracle-hybrid ranker uses
  (`reference/knowledge/lexical_search.py`: BM25 over code terms, cosine, expansion through shared files, the
  recency prior; the seed's filters, `min_relevance` and enrichment).

This stage replays `knowledge-history-calibration` (real commits of the calibration split, searches judged by
blame; the only calibration scenario of `oracle_search`) through the harness under each, with the committed
constants, and prints `search_ndcg@10`. A gain smaller than one search's share is a tie, and ties go to the
seed's design. Run after `knowledge.py` (which fits `DECAY_WEIGHT` on the seed's design) and `lexical.py`
(the lexical constants); run alone it uses the committed ones.
"""
from __future__ import annotations

import sys

from bench.calibration.knowledge import CALIBRATION, _counts, constants, run

DESIGNS = ("seed", "lexical")


def choose(scored: dict[str, float], tie: float) -> str:
    """The design with the best score; within `tie` of the best, the seed's."""
    return "seed" if max(scored.values()) - scored["seed"] <= tie else max(scored, key=scored.get)


def calibrate(out=sys.stdout) -> str:
    """Each design's `search_ndcg@10` on the calibration scenario, printed; returns the chosen `ORACLE_SEARCH`."""
    print(f"\n## {CALIBRATION}: the search oracle_search runs (ORACLE_SEARCH)\n| design | search_ndcg@10 |\n|---|---|",
          file=out)
    scored = {}
    for name in DESIGNS:
        with constants(oracle=name):
            scored[name] = float(run(CALIBRATION)["metrics"].get("search_ndcg@10") or 0.0)
        print(f"| {name} | {scored[name]:.4f} |", file=out, flush=True)
    tie = 1.0 / _counts()[1]
    chosen = choose(scored, tie)
    print(f"chosen: ORACLE_SEARCH {chosen!r} ({scored[chosen]:.4f}; a gain under one search's share ({tie:.4f}) is a "
          f"tie; ties go to the seed's design)", file=out)
    return chosen


def main(argv: list[str] | None = None) -> int:
    import argparse
    argparse.ArgumentParser(prog="python3 -m bench.calibration.oracle_search",
                            description=__doc__.split("\n")[0]).parse_args(argv)
    calibrate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
