"""CPU time per text of the MiniLM embedder by chunk rule, one process (the figures of reference/embed/README.md).

    PYTHONPATH=. python3 bench/benchmarks/minilm_chunks.py [N_TEXTS]

Real commit memories of sqlite-utils-history (167 tokens on average) and their first lines (13 tokens),
embedded with chunks limited to 32 texts only (the rule before the token budget), to 1 text, and to
128 / 256 / 512 padded tokens; twice each, interleaved, `time.process_time` (CPU, so other jobs on the
machine weigh less than on wall time). Checks that every rule gives the same bytes.
"""
import json
import sys
import time

import numpy as np

from bench.scenario.suites import scenarios_dir
from reference.embed import get_embedder

RULES = {"32 texts (before)": {"batch_tokens": 1 << 30}, "1 text": {"batch_size": 1},
         "128 tokens": {"batch_tokens": 128}, "256 tokens (default)": {}, "512 tokens": {"batch_tokens": 512}}


def main(n: int) -> None:
    lines = (scenarios_dir() / "sqlite-utils-history.jsonl").read_text().splitlines()[1:]
    full = [s["args"]["text"] for s in map(json.loads, lines) if s.get("tool") == "memory_write_structured"][:n]
    sets = {"commit texts": full, "first lines": [t.split("\n")[0] for t in full]}
    embedders = {rule: get_embedder("minilm", **kw) for rule, kw in RULES.items()}
    ref = {k: embedders["1 text"].embed(v) for k, v in sets.items()}
    print(f"| chunk rule | {' | '.join(f'{k}, CPU ms a text (two runs)' for k in sets)} |\n|---|---|---|")
    rows = {rule: {k: [] for k in sets} for rule in RULES}
    for _ in range(2):
        for rule, emb in embedders.items():
            for k, texts in sets.items():
                t = time.process_time()
                out = emb.embed(texts)
                rows[rule][k].append((time.process_time() - t) * 1000.0 / len(texts))
                assert np.array_equal(out, ref[k]), f"{rule}: rows differ"
    for rule, got in rows.items():
        print(f"| {rule} | " + " | ".join(" / ".join(f"{v:.1f}" for v in got[k]) for k in sets) + " |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 64)
