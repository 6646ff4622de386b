"""Score the reference, fts-baseline and the planted/adversarial backends, by version 2's and version 3's rule.

    python3 -m tests.bench.planted.score_runs SUITE OUT BACKEND ...

Backends: any registered one, plus `planted-empty-reads` ([] at once to every search),
`honest-slow-300ms` (the reference, 300 ms before every search) and the adversarial ones of
`adversarial.py`. One run each; both versions are computed from that one report (version 2's rule
reads `latency_ms.all.p95`, version 3's the `work` section), so machine noise does not enter the
comparison. Prints one JSON line per backend. The figures of SCORING.md's version 3 table.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from bench.backends.registry import register_backend
from bench.gate.planted_delay import delayed_search
from bench.report.score import compute_score
from bench.run import run_suite
from bench.scenario.suites import resolve
from tests.bench.planted.adversarial import ADVERSARIAL
from tests.bench.planted.backends import EmptyReads


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    suite, out, which = argv[0], Path(argv[1]), argv[2:]
    slow = type("HonestSlow", (delayed_search(300),), {"name": "honest-slow-300ms"})
    for cls in (EmptyReads, slow, *ADVERSARIAL):
        register_backend(cls.name, cls)
    scenarios = resolve([], suite=suite)
    for backend in which:
        t = time.monotonic()
        report = run_suite(backend, scenarios, out / backend)
        report.save(out / backend)
        data = report.to_dict()
        v2 = compute_score({"scenarios": {n: {k: v for k, v in s.items() if k != "work"}
                                          for n, s in data["scenarios"].items()}})
        v3 = data["score"]
        print(json.dumps({"backend": backend, "seconds": round(time.monotonic() - t), "v2": v2["value"],
                          "v2_components": v2["components"], "v3": v3["value"], "retrieval": v3["retrieval"],
                          "v3_components": v3["components"]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
