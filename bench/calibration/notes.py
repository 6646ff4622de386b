"""Fit what the recency prior scales for a note (`LexicalParams.note_prior`) on notes, beside the histories.

    python3 -m bench.calibration.notes [--data DIR]   # about 15 s (the history calibration scenarios built first)

The lexical stage (`lexical.py`) fits `TUNED` on commit histories, whose memories are all commits (they record
the files they changed). On notes (memories that at most name files) the same constants let recency decide:
the expansion and named-file parts are nearly equal for every note of one feature, and seed 001's decay
multiplies them with the match (`reference/lexical/README.md`, "Fact look-ups in short notes"). This stage
scores the oracle-hybrid pipeline (`ranking.fuse` over cached parts, as the lexical stage does) on the blame and
history calibration scenarios of the three datasets and on `knowledge-calibration` (another product's notes
than the scored `knowledge`, in no suite: scenarios/README.md), with:

- the note prior on the sum (seed 001's decay of the whole score, as for commits) and on the first stage;
- for reference, no prior, and the prior on the first stage for every memory, commits included, at several
  weights (what moving it for everything would trade; the histories pay).

It then chooses `note_prior` on the notes alone (a gain of less than one query's share of the mean is a tie,
and ties go to "sum", the seed's form) and prints the choice; the histories' column shows it leaves them as
they were. `note_prior` is a constant of the lexical ranking that Memory Lane's ranker mode reads too (as it
reads k1 and b; `reference/lane/hybrid.py`), so the stage also replays `knowledge-calibration` through the
lane (`lane_on_notes`) and prints its figure under each value, for reference: the choice is not re-made on
it. Only calibration scenarios are read; nothing is written (the choice is copied into `params.py`).
"""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from statistics import fmean

import numpy as np

from bench.calibration import lexical, scenarios

NOTES = "knowledge-calibration"
EVERY_MEMORY_WEIGHTS = (0.7, 1.0, 1.5, 2.0)


def score(cached: list, params, every_memory_a_note: bool = False) -> list[float]:
    """Mean nDCG@10 of each stream's cached parts (`lexical.parts_of`) under `params`, exactly as
    `lexical.fused_ndcg` scores them; `every_memory_a_note` treats commits as notes too."""
    if not every_memory_a_note:
        return lexical.fused_ndcg(cached, params)[1]
    as_notes = [([replace(q, commits=np.zeros_like(q.alive)) for q in queries], ids) for queries, ids in cached]
    return lexical.fused_ndcg(as_notes, params)[1]


def rows(history: list, notes: list, params) -> list[tuple[str, float, float]]:
    """(setting, history calibration mean, notes calibration mean) of each setting the module docstring names,
    around `params` (the committed `TUNED` by default)."""
    hc = [lexical.parts_of(st, params) for st in history]
    nc = [lexical.parts_of(st, params) for st in notes]
    settings = [("note prior on the sum", params.with_(note_prior="sum"), False),
                ("note prior on the first stage", params.with_(note_prior="first"), False),
                ("no recency prior", params.with_(recency_weight=0.0), False)]
    settings += [(f"every memory's prior on the first stage, weight {w:g}",
                  params.with_(recency_weight=w, note_prior="first"), True) for w in EVERY_MEMORY_WEIGHTS]
    return [(label, fmean(score(hc, p, every)), fmean(score(nc, p, every))) for label, p, every in settings]


def lane_on_notes(notes_path: Path) -> dict[str, float]:
    """Memory Lane's ranker mode (`reference:memory-lane`) on the notes scenario at `notes_path`: the mean
    nDCG@10 of its `ranker` queries with `LANE`'s note prior set to each value, {"sum": ..., "first": ...}.
    Each is a whole run of the scenario through the harness (`run_suite`, every step as a user's run takes it)."""
    import tempfile
    from bench.run import run_suite
    from reference.lane import hybrid
    sc = scenarios.load(notes_path)
    committed, out = hybrid.LANE, {}
    try:
        for form in ("sum", "first"):
            hybrid.LANE = committed.with_(note_prior=form)     # read by every LaneHybrid the run makes
            with tempfile.TemporaryDirectory(prefix="calibrate-notes-") as tmp:
                summary = run_suite("reference:memory-lane", [sc], Path(tmp)).scenarios[sc.name]
            out[form] = float(summary["quality_by_category"]["ranker"]["ndcg@10"])
    finally:
        hybrid.LANE = committed
    return out


def choose(results: list[tuple[str, float, float]], queries: int) -> str:
    """The note prior the notes' column prefers by at least one query's share (1 / `queries`), else "sum"."""
    by = {label: n for label, _, n in results}
    return "first" if by["note prior on the first stage"] - by["note prior on the sum"] >= 1.0 / queries else "sum"


def table(results: list[tuple[str, float, float]]) -> str:
    out = ["| setting | history calibration (6 scenarios) | knowledge-calibration (notes) |", "|---|---|---|"]
    out += [f"| {label} | {h:.4f} | {n:.4f} |" for label, h, n in results]
    return "\n".join(out)


def run(folder: Path, notes_path: Path | None = None, out=sys.stdout) -> str:
    """Print the table and the choice for the calibration scenarios in `folder`; the chosen `note_prior`."""
    from bench.scenario.suites import scenarios_dir
    from reference.lexical.params import TUNED
    history = lexical.streams_from(folder)
    notes = [lexical.load_stream(notes_path or scenarios_dir() / f"{NOTES}.jsonl")]
    results = rows(history, notes, TUNED)
    queries = sum(len(st.queries) for st in notes)
    chosen = choose(results, queries)
    print(table(results), file=out)
    print(f"chose note_prior = {chosen!r} (on {NOTES}, {queries} queries: a tie is a gain under {1 / queries:.4f}; "
          f"committed: {TUNED.note_prior!r})", file=out)
    lane = lane_on_notes(notes_path or scenarios_dir() / f"{NOTES}.jsonl")
    print(f"Memory Lane's ranker mode on {NOTES} (it reads the same constant; for reference): note prior on the "
          f"sum {lane['sum']:.4f}, on the first stage {lane['first']:.4f}", file=out)
    return chosen


def main(argv: list[str] | None = None) -> int:
    return scenarios.stage_main(argv, "bench.calibration.notes", __doc__, run)


if __name__ == "__main__":
    sys.exit(main())
