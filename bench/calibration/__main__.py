"""Fit the reference's tuned constants on the calibration split only, and print what it chose.

    python3 -m bench.calibration             # fit and print the chosen values
    python3 -m bench.calibration --compare   # also: scored scenarios with the chosen vs the seeds' values
    python3 -m bench.calibration --lexical-data DIR   # the history calibration scenarios already built in DIR
    python3 -m bench.calibration --lane      # also: Memory Lane's ranker mode, project branch ranking (lane.py)

The stages, in order (each also runnable alone, README.md): the knowledge layer's thresholds and Memory
Lane's floors (`knowledge.py`), the lexical ranking and the default ranker (`lexical.py`) then file
localisation (`files.py`), what the recency prior scales for a note (`notes.py`, on the notes' calibration
instance), whether oracle-hybrid follows its results' stored relationships (`enrichment.py`), which search
`oracle_search` runs (`oracle_search.py`), and with `--lane` Memory Lane's ranker mode and the project layer's branch ranking
(`lane.py`).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench.calibration import knowledge


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m bench.calibration", description=__doc__.split("\n")[0])
    ap.add_argument("--compare", action="store_true", help="also replay the scored scenarios with tuned and seed values")
    ap.add_argument("--lexical-data", type=Path, metavar="DIR",
                    help="folder holding the history calibration scenarios (else they are built, about 10 s)")
    ap.add_argument("--skip-lexical", action="store_true", help="leave out the lexical ranking's fit and the enrichment's (several minutes)")
    ap.add_argument("--lane", action="store_true", help="also fit Memory Lane's ranker mode and the project layer's "
                    "branch ranking (bench/calibration/lane.py; about 4 minutes)")
    args = ap.parse_args(argv)
    knowledge.calibrate()
    if not args.skip_lexical:
        from bench.calibration import enrichment, lexical, notes, oracle_search, scenarios
        with scenarios.folder(args.lexical_data) as folder:   # built once for the three stages
            lexical.main(["--data", str(folder)])
            notes.run(folder)
            enrichment.calibrate(folder)
        oracle_search.calibrate()
    if args.lane:
        from bench.calibration import lane
        lane.calibrate()
        lane.calibrate_project()
    if args.compare:
        knowledge.compare()
    return 0


if __name__ == "__main__":
    sys.exit(main())
