"""Runs spread over a Dask cluster: each (scenario, repetition) cell replays on a worker.

See bench/cluster/README.md.
"""
from bench.cluster.suite import open_client, run_backends_cluster, run_suite_cluster

__all__ = ["open_client", "run_backends_cluster", "run_suite_cluster"]
