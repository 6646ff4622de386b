"""The calibration: the reference's fitted constants, fitted on the calibration split only (README.md).

One module per stage, each runnable alone (`python3 -m bench.calibration.<stage>`); `python3 -m
bench.calibration` runs them in order:
- `knowledge`: Memory Lane's floors, RELATE_THRESHOLD, MARKER_MIN_SIMILARITY, DECAY_WEIGHT;
- `lexical`: the lexical ranking (reference/lexical/params.py TUNED, the write moment, galaxybrain's re-rank)
  and the default ranker, then `files`: file localisation (FILES_TUNED);
- `lane`: Memory Lane's ranker mode (reference/lane/hybrid.py LANE) and the project layer's branch ranking.
`scenarios`: the calibration scenarios those stages read (built, then walked as writes and judged queries).
"""
