"""`write_phases` still finds every part it times on the write path (a renamed function would drop out)."""
from __future__ import annotations

from bench.benchmarks import write_phases


def test_every_part_of_a_single_write_is_timed(tmp_path, monkeypatch):
    monkeypatch.setenv("CODEMEM_BENCH_CACHE", str(tmp_path))
    monkeypatch.setattr(write_phases, "WARM", 2)
    monkeypatch.setattr(write_phases, "TIMED", 5)
    found = write_phases.phases(300)
    assert set(found) == {"validation and redaction", "embedding", "ids, keys, blob, memory row, FTS",
                          "vector append", "  of which the neighbour lookup", "knowledge layer", "whole write",
                          write_phases.LEXICAL}
    assert found["whole write"] > found["knowledge layer"] > found["  of which the neighbour lookup"] > 0
    assert found[write_phases.LEXICAL] > 0   # the queued memory indexed at the next search
    assert (tmp_path / "write-phases" / "store-300" / "tracker.db").exists()
