"""Fit the knowledge layer's thresholds and Memory Lane's floors on the calibration split only; print the choice.

    python3 -m bench.calibration.knowledge             # fit and print the chosen values (about 20 s)
    python3 -m bench.calibration.knowledge --compare   # also: scored scenarios with the committed vs the seeds' values

`python3 -m bench.calibration` runs this stage first, then the others (README.md).

`codemem-bench run` shows the same comparison in its report for the reference
backend (`reference:seed-defaults`, bench/seed_defaults.py).

The calibration split is the default-branch commits at index % 10 == 0 of
each dataset (scenarios/README.md, "Calibration split"); its scenario,
`knowledge-history-calibration`, is never in a suite and never scored. Each
constant is fitted on it alone, over a fixed grid. A difference smaller than
one judged pair's share (relationship accuracy) or one search's share
(nDCG, floors) is noise: such scores tie, and ties go to the value nearest
the seed's:

- Memory Lane floors (reference/lane/scoring.py, hashing-v1): over the top
  10 memories the embedder ranks for each calibration search, the semantic
  floor that maximises (share of judged-relevant ones kept) - (share of the
  others kept); the entity floor is 0.8 of it (the seed's 0.40 / 0.50).
- UPDATE_THRESHOLD and RELATE_THRESHOLD (reference/knowledge/relations.py):
  the best `relationship_accuracy` of the reference on the calibration
  scenario (the cosine above which a pair is `updates` or `extends`, and the
  one above which it is `relates_to`), each swept with the others at their
  committed values.
- MARKER_MIN_SIMILARITY (reference/knowledge/relations.py): the best
  `relationship_accuracy` (the seed has no such constant: ties go to the
  smallest value, where the marker alone decides most).
- DECAY_WEIGHT (reference/knowledge/hybrid.py): the best `search_ndcg@10` of the seed's search, the one it
  weighs (`ORACLE_SEARCH` "seed" while it is swept; `oracle_search.py` then chooses the search).

The lexical ranking, file localisation and Memory Lane's ranker mode have
stages of their own (`lexical.py`, `files.py`, `lane.py` beside this file).

Seed values (the `seed` column): floors 0.50 / 0.40 (seed 004), update 0.8
(seed 001 `similarity > 0.8`), relate 0.5 (seed 001 `similarity > 0.5`),
decay weight 1.0 (seed 001: score x relevance).
"""
from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from pathlib import Path

CALIBRATION = "knowledge-history-calibration"
SCORED = ("knowledge", "knowledge-history", "memory-lane")
SEED = {"floor": 0.50, "update": 0.8, "relate": 0.5, "decay": 1.0}
FLOOR_GRID = (0.0, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50)
UPDATE_GRID = (0.75, 0.80, 0.85, 0.90, 0.95)
RELATE_GRID = (0.50, 0.55, 0.60, 0.65, 0.70, 0.75)
MARKER_GRID = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
DECAY_GRID = (0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)


@contextlib.contextmanager
def constants(floor: float | None = None, relate: float | None = None, decay: float | None = None,
              marker: float | None = None, oracle: str | None = None, update: float | None = None):
    """Run the in-process reference with these values of its tuned constants, then restore them. `oracle` is the
    search `oracle_search` runs (`ORACLE_SEARCH`); a `decay` value runs the seed's, the search it weighs."""
    from reference.knowledge import hybrid, relations
    from reference.knowledge import layer as knowledge_layer
    from reference.lane import scoring

    saved = (dict(scoring.CALIBRATED_FLOORS), relations.RELATE_THRESHOLD,
             relations.RelationshipBuilder.__init__.__defaults__, hybrid.DECAY_WEIGHT, relations.MARKER_MIN_SIMILARITY,
             knowledge_layer.ORACLE_SEARCH, relations.UPDATE_THRESHOLD)
    try:
        if oracle is not None or decay is not None:
            knowledge_layer.ORACLE_SEARCH = "seed" if oracle is None else oracle
        if floor is not None:
            scoring.CALIBRATED_FLOORS["hashing-v1"] = scoring.Floors(semantic=floor, entity=round(0.8 * floor, 4))
        if update is not None:
            relations.UPDATE_THRESHOLD = update
        if relate is not None:
            relations.RELATE_THRESHOLD = relate
        # the builder's defaults were bound when its class was defined
        relations.RelationshipBuilder.__init__.__defaults__ = (relations.UPDATE_THRESHOLD, relations.RELATE_THRESHOLD)
        if decay is not None:
            hybrid.DECAY_WEIGHT = decay
        if marker is not None:
            relations.MARKER_MIN_SIMILARITY = marker
        yield
    finally:
        scoring.CALIBRATED_FLOORS.clear()
        scoring.CALIBRATED_FLOORS.update(saved[0])
        relations.RELATE_THRESHOLD, relations.RelationshipBuilder.__init__.__defaults__ = saved[1], saved[2]
        hybrid.DECAY_WEIGHT, relations.MARKER_MIN_SIMILARITY = saved[3], saved[4]
        knowledge_layer.ORACLE_SEARCH, relations.UPDATE_THRESHOLD = saved[5], saved[6]


def _scenario(name: str):
    from bench.scenario.loader import load_scenario
    from bench.scenario.suites import oracle_dir, scenarios_dir
    return load_scenario(scenarios_dir() / f"{name}.jsonl", oracle_dir())


def run(name: str, backend: str = "reference") -> dict:
    """The summary of one replay of scenario `name` on the in-process reference."""
    from bench.run import run_suite
    with tempfile.TemporaryDirectory(prefix="calibrate-") as tmp:
        return run_suite(backend, [_scenario(name)], Path(tmp)).scenarios[name]


def floor_shares(name: str = CALIBRATION) -> dict[float, tuple[float, float, int]]:
    """Per floor: the shares of judged-relevant and other top-10 memories kept, queries left with nothing."""
    import numpy as np

    from reference.embed import HashingEmbedder

    emb = HashingEmbedder()
    texts: dict[str, str] = {}
    rows = []
    for st in _scenario(name).steps:
        if st.name == "memory_write_structured" and st.alias:
            texts[st.alias] = st.args.text
        elif st.expect is not None and st.expect.relevant is not None and texts:
            ids = list(texts)
            sims = emb.embed([texts[i] for i in ids]) @ emb.embed([st.args.query])[0]
            grades = st.expect.grades()
            rows.append([(float(sims[j]), ids[j] in grades) for j in np.argsort(-sims, kind="stable")[:10]])
    out = {}
    for f in FLOOR_GRID:
        kept = [s >= f for r in rows for s, good in r if good]
        other = [s >= f for r in rows for s, good in r if not good]
        out[f] = (sum(kept) / len(kept) if kept else 1.0, sum(other) / len(other) if other else 0.0,
                  sum(1 for r in rows if not any(s >= f for s, _ in r)))
    return out


def best(scores: dict[float, float], seed: float, tie: float = 1e-9) -> float:
    """The value with the best score; scores within `tie` of the best tie, and ties go to the value nearest the seed's."""
    top = max(scores.values())
    return min((v for v, s in scores.items() if top - s <= tie + 1e-6), key=lambda v: abs(v - seed))


def _counts(name: str = CALIBRATION) -> tuple[int, int]:
    """The calibration truth's judged pairs and searches: one of either is the smallest difference that counts."""
    import json

    from bench.scenario.suites import oracle_dir
    truth = json.loads((oracle_dir() / name / "truth.json").read_text())
    return len(truth["relationships"]), len(truth["searches"])


def _sweep(title: str, constant: str, grid, metric: str, fmt: str, out) -> dict[float, float]:
    """`metric` of the calibration scenario at each value of one constant (`constants(**{constant: v})`), printed
    as a table under `title`."""
    scores = {}
    print(f"\n## {CALIBRATION}: {title}\n| value | {metric} |\n|---|---|", file=out)
    for v in grid:
        with constants(**{constant: v}):
            scores[v] = run(CALIBRATION)["metrics"].get(metric, 0.0)
        print(f"| {v:{fmt}} | {scores[v]:.4f} |", file=out)
    return scores


def calibrate(out=sys.stdout) -> dict[str, float]:
    shares = floor_shares()
    print(f"## {CALIBRATION}: Memory Lane floor (hashing-v1)", file=out)
    print("| floor | relevant top-10 kept | other top-10 kept | queries left empty |\n|---|---|---|---|", file=out)
    for f, (kept, other, empty) in shares.items():
        print(f"| {f:.2f} | {kept:.3f} | {other:.3f} | {empty} |", file=out)
    n_pairs, n_searches = _counts()
    floor = best({f: kept - other for f, (kept, other, _) in shares.items()}, SEED["floor"], 1 / n_searches)
    update = _sweep("UPDATE_THRESHOLD", "update", UPDATE_GRID, "relationship_accuracy", ".2f", out)
    relate = _sweep("RELATE_THRESHOLD", "relate", RELATE_GRID, "relationship_accuracy", ".2f", out)
    marker = _sweep("MARKER_MIN_SIMILARITY", "marker", MARKER_GRID, "relationship_accuracy", ".2f", out)
    decay = _sweep("DECAY_WEIGHT", "decay", DECAY_GRID, "search_ndcg@10", ".1f", out)
    chosen = {"floor": floor, "update": best(update, SEED["update"], 1 / n_pairs),
              "relate": best(relate, SEED["relate"], 1 / n_pairs),
              "decay": best(decay, SEED["decay"], 1 / n_searches), "marker": best(marker, 0.0, 1 / n_pairs)}
    print(f"\nchosen: lane floors {chosen['floor']:.2f} / {0.8 * chosen['floor']:.2f} (seed 0.50 / 0.40), "
          f"UPDATE_THRESHOLD {chosen['update']:.2f} (seed 0.8), "
          f"RELATE_THRESHOLD {chosen['relate']:.2f} (seed 0.5), MARKER_MIN_SIMILARITY {chosen['marker']:.2f} "
          f"(no seed value), DECAY_WEIGHT {chosen['decay']:.1f} (seed 1.0)",
          file=out)
    return chosen


METRICS = ("ndcg@10", "search_ndcg@10", "relationship_accuracy", "entity_f1", "lane_intent_boost_accuracy",
           "lane_floor_accuracy", "lane_feedback_accuracy")


def compare(out=sys.stdout) -> None:
    """Each scored scenario with the constants as committed (tuned) and with the seeds' values."""
    print("\n## scored scenarios: tuned (as committed) vs seed defaults\n| scenario | metric | tuned | seed |"
          "\n|---|---|---|---|", file=out)
    for name in SCORED:
        tuned, seed = run(name), run(name, "reference:seed-defaults")   # reference.tuning.SEED_DEFAULTS
        for m in METRICS:
            a = tuned["quality"].get(m) if m == "ndcg@10" else tuned["metrics"].get(m)
            b = seed["quality"].get(m) if m == "ndcg@10" else seed["metrics"].get(m)
            if a is not None or b is not None:
                print(f"| {name} | {m} | {a if a is None else round(a, 4)} | {b if b is None else round(b, 4)} |",
                      file=out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m bench.calibration.knowledge", description=__doc__.split("\n")[0])
    ap.add_argument("--compare", action="store_true", help="also replay the scored scenarios with tuned and seed values")
    args = ap.parse_args(argv)
    calibrate()
    if args.compare:
        compare()
    return 0


if __name__ == "__main__":
    sys.exit(main())
