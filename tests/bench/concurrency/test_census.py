"""The concurrent-agents census: a lossy store is caught, the reference store loses nothing."""
from bench.concurrency.census import run_agents

PLANT = "tests.bench.concurrency.lossy:LastCloserWins"


def test_census_catches_a_store_that_loses_concurrent_writes(tmp_path):
    row = run_agents("planted-lossy", tmp_path / "w", agents=3, writes=4, plugin=PLANT)
    assert row["acknowledged"] == 12 and row["refused"] == 0 and row["readable"]
    # the last agent to close keeps only its own 4 writes
    assert row["lost"] == 8 and row["present"] == 4


def test_reference_store_keeps_every_acknowledged_write_of_two_agents(tmp_path):
    row = run_agents("reference", tmp_path / "w", agents=2, writes=5)
    assert row == {**row, "acknowledged": 10, "present": 10, "lost": 0, "duplicated": 0, "readable": True}
