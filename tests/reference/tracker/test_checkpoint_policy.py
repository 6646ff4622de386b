"""A read's bookkeeping commits (`tx(light=True)`) leave the WAL checkpoint to writes, up to a bound."""
from __future__ import annotations

import os

import pytest

from reference.tracker import connections
from reference.tracker.connections import Connections

WRITE, LIGHT = 40, 1_000   # small thresholds (pages; a commit here writes about 3) so a test stays quick


@pytest.fixture
def conns(tmp_path, monkeypatch):
    monkeypatch.setattr(connections, "WRITE_CHECKPOINT_PAGES", WRITE)
    monkeypatch.setattr(connections, "LIGHT_CHECKPOINT_PAGES", LIGHT)
    c = Connections(tmp_path / "t.db")
    with c.tx() as conn:
        conn.execute("CREATE TABLE t(x BLOB)")
    _checkpoint(c)
    yield c
    c.close()


def _checkpoint(c: Connections) -> int:
    """Frames the WAL held, then copy them back and empty it (TRUNCATE itself reports 0 frames)."""
    _, frames, _ = c.get().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    c.get().execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return frames


def _frames(c: Connections) -> int:
    """Frames in the WAL now: its size, since TRUNCATE left it empty and nothing restarted it."""
    wal = c.path + "-wal"
    size = os.path.getsize(wal)
    page = c.get().execute("PRAGMA page_size").fetchone()[0]
    return max(0, (size - 32) // (page + 24))


def _commit_pages(c: Connections, n: int, *, light: bool) -> None:
    for _ in range(n):
        with c.tx(light=light) as conn:
            conn.execute("INSERT INTO t VALUES (zeroblob(3000))")   # about one page a commit


def test_light_commits_do_not_checkpoint_below_their_bound(conns):
    _commit_pages(conns, 3 * WRITE, light=True)
    assert _frames(conns) >= 3 * WRITE   # past the write threshold, nothing copied back


def test_a_write_checkpoints_what_light_commits_left(conns):
    _commit_pages(conns, 3 * WRITE, light=True)
    _commit_pages(conns, 1, light=False)   # this commit finds the WAL past its threshold and checkpoints
    _commit_pages(conns, 2, light=False)   # ...so the next writes restart the WAL from its start
    assert _checkpoint(conns) < WRITE


def test_light_commits_checkpoint_past_their_own_bound(conns):
    _commit_pages(conns, LIGHT // 2, light=True)   # ~1,500 frames
    _commit_pages(conns, 2, light=True)
    assert _checkpoint(conns) < LIGHT   # the WAL restarted once it passed LIGHT pages


def test_writes_checkpoint_at_their_threshold(conns):
    _commit_pages(conns, 3 * WRITE, light=False)
    assert _checkpoint(conns) < 2 * WRITE


def test_the_frame_count_sees_an_unchecked_wal(conns):
    _commit_pages(conns, 3 * WRITE, light=True)
    assert _checkpoint(conns) >= 3 * WRITE


def test_a_light_call_joining_a_write_does_not_make_it_light(conns):
    _commit_pages(conns, 3 * WRITE, light=True)
    with conns.tx() as conn:
        with conns.tx(light=True):
            conn.execute("INSERT INTO t VALUES (zeroblob(3000))")
    _commit_pages(conns, 2, light=True)
    assert _checkpoint(conns) < WRITE   # the write's commit checkpointed


def test_a_write_joining_a_light_call_makes_it_a_write(conns):
    _commit_pages(conns, 3 * WRITE, light=True)
    with conns.tx(light=True) as conn:
        with conns.tx():
            conn.execute("INSERT INTO t VALUES (zeroblob(3000))")
    _commit_pages(conns, 2, light=True)
    assert _checkpoint(conns) < WRITE


def test_the_setting_is_restored_after_a_failed_light_commit(conns):
    with pytest.raises(RuntimeError):
        with conns.tx(light=True) as conn:
            conn.execute("INSERT INTO t VALUES (1)")
            raise RuntimeError("boom")
    assert conns.get().execute("PRAGMA wal_autocheckpoint").fetchone()[0] == WRITE
    _commit_pages(conns, 1, light=True)
    assert conns.get().execute("PRAGMA wal_autocheckpoint").fetchone()[0] == WRITE
