"""A bounded tier of the history scenarios: their first N judged queries and every step before them, the
same cut for every backend.

`cut_at_queries(scenario, n)` keeps the steps up to and including the scenario's n-th judged query (a step
with `expect.relevant`, the queries nDCG is computed on) and drops every step after it. Nothing is
re-judged: the kept queries keep their judgements, which came from the full history (commits earlier than
the query: `git blame`, shared files, branch labels; no later step could change them), and the dropped
queries are not in the run at all, so they are neither scored nor counted as unsupported. A scenario with
n judged queries or fewer (or none: graph-pit, patterns, the dedup scenarios) is returned unchanged.

`cut_all` cuts only the scenarios judged from real history, those whose header names an `oracle` folder
(`oracle_data/<name>/qrels.tsv`: the blame, history, files and branches scenarios of the three
repositories, 1,193–1,822 writes each). The scenarios judged inline (smoke, memory-lane, knowledge,
knowledge-history: at most 229 writes) run whole: they are cheap, and memory-lane pairs each "nothing
should come back" probe with a control that a cut could separate.

Why a cut by queries: in a history scenario the queries are spread evenly over the commits, so the first
n queries and the writes before them are a prefix of the history, the same prefix for every backend, and
its cost is proportional to n (each write costs a semantic peer one embedding, 0.15–0.8 s here). What a cut
run measures differs from the full run: a query of the prefix searches the memories written so far (a few
hundred instead of up to 1,822), so figures of a cut run compare backends with each other, not with a
full run's. `compare --queries N` and `run --queries N` apply `cut_all`, and the report says so: each cut
scenario's description ends with what was kept, and `environment.cut` holds N.
"""
from __future__ import annotations

import dataclasses

from bench.scenario.model import Scenario


def cut_at_queries(scenario: Scenario, n: int) -> Scenario:
    """`scenario` up to its n-th judged query (inclusive); unchanged when it has n judged queries or fewer."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"--queries must be a whole number of at least 1, got {n!r}")
    judged = [i for i, s in enumerate(scenario.steps) if s.expect is not None and s.expect.relevant is not None]
    if len(judged) <= n:
        return scenario
    kept = scenario.steps[: judged[n - 1] + 1]
    note = (f" Cut for this run (--queries {n}): its first {n} of {len(judged)} judged queries and the "
            f"{len(kept)} steps up to the last of them, of {len(scenario.steps)}.")
    header = scenario.header.model_copy(update={"description": (scenario.header.description or "") + note})
    return dataclasses.replace(scenario, header=header, steps=kept)


def cut_all(scenarios: list[Scenario], n: int | None) -> list[Scenario]:
    """Every history scenario (header `oracle`) cut at `n` judged queries, the others whole (`None`: no cut)."""
    if n is None:
        return list(scenarios)
    return [cut_at_queries(s, n) if s.header.oracle else s for s in scenarios]
