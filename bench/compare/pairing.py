"""Line up the per-query records of two reports of the same scenario."""
from __future__ import annotations

from typing import Any

from bench.report.query_ids import unique_ids

# per-query keys that are not metrics
_NOT_METRICS = {"id", "line", "category", "unsupported", "retrieved"}


class QueryMismatch(ValueError):
    """Two reports of one scenario do not hold the same queries."""


def metric_names(queries: list[dict[str, Any]]) -> list[str]:
    """The metrics the queries report, in order of first appearance (cut-offs k may differ per query)."""
    return list(dict.fromkeys(k for q in queries for k in q if k not in _NOT_METRICS))


def align(scenario: str, base: list[dict[str, Any]], cur: list[dict[str, Any]]
          ) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Pairs (baseline query, current query) matched by query id, in the baseline's order.

    Raises QueryMismatch naming the scenario and the ids when the query sets differ.
    """
    b = dict(zip(unique_ids(base), base))
    c = dict(zip(unique_ids(cur), cur))
    if b.keys() != c.keys():
        missing, new = sorted(b.keys() - c.keys()), sorted(c.keys() - b.keys())
        raise QueryMismatch(f"scenario {scenario}: the queries differ (only in the first: {missing[:5]}, "
                            f"only in the second: {new[:5]}); both runs must replay the same scenario")
    return [(b[k], c[k]) for k in b]


def paired(scenario: str, pairs: list[tuple[dict[str, Any], dict[str, Any]]], metric: str
           ) -> tuple[list[float], list[float]]:
    """The metric's values in each run, for the queries that report it (in both runs or neither)."""
    xs, ys = [], []
    for b, c in pairs:
        if (metric in b) != (metric in c):
            raise QueryMismatch(f"scenario {scenario}: query {b['id']!r} reports {metric} in only one run "
                                "(its cut-off k changed); both runs must replay the same scenario")
        if metric in b:
            xs.append(float(b[metric]))
            ys.append(float(c[metric]))
    return xs, ys
