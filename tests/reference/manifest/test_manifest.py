"""The manifest and the header size checks (issue 25): cut, extended and deleted files are named."""
from __future__ import annotations

import json
import os
import sqlite3

import lmdb
import pytest

from reference.manifest import NAME, Manifest, ManifestError, lmdb_problem, regions_of, sqlite_problem
from reference.manifest import manifest as manifest_module


def cut(path, by=None, to=None):
    size = path.stat().st_size
    os.truncate(path, to if to is not None else size - by)


def test_a_recorded_file_missing_or_cut_is_named(tmp_path):
    (tmp_path / "blob.dat").write_bytes(b"x" * 5000)
    (tmp_path / "tracker.db").write_bytes(b"")
    Manifest.record(tmp_path, {"blob.dat": 5000, "tracker.db": None})
    m = Manifest.read(tmp_path)
    assert m.problems(tmp_path) == [] and m.region_problems(tmp_path) == []
    with open(tmp_path / "blob.dat", "ab") as fh:                      # appended since: normal
        fh.write(b"y" * 10)
    assert m.problems(tmp_path) == []
    cut(tmp_path / "blob.dat", to=4999)
    [(file, why)] = m.problems(tmp_path)
    assert file == str(tmp_path / "blob.dat") and "shorter than the 5,000" in why
    (tmp_path / "tracker.db").unlink()
    names = [f for f, _ in m.problems(tmp_path)]
    assert str(tmp_path / "tracker.db") in names and "missing" in dict(m.problems(tmp_path))[str(tmp_path / "tracker.db")]


def test_a_changed_region_is_named_with_its_byte_range(tmp_path):
    data = bytes(range(256)) * 9000                                     # 2.2 MiB: three regions
    (tmp_path / "vectors.f32").write_bytes(data)
    Manifest.record(tmp_path, {"vectors.f32": len(data)})
    raw = bytearray(data)
    raw[1_500_000] ^= 1
    (tmp_path / "vectors.f32").write_bytes(bytes(raw))
    [(file, record, why)] = Manifest.read(tmp_path).region_problems(tmp_path)
    assert file.endswith("vectors.f32") and record == "bytes 1,048,576..2,097,152" and "mismatch" in why


def test_whole_regions_are_carried_over_and_only_new_bytes_read(tmp_path, monkeypatch):
    path = tmp_path / "blob.dat"
    path.write_bytes(b"a" * (3 * (1 << 20) + 10))
    first = Manifest.record(tmp_path, {"blob.dat": path.stat().st_size}).files["blob.dat"].regions
    with open(path, "ab") as fh:
        fh.write(b"b" * 100)
    calls = []
    real = manifest_module.regions_of
    monkeypatch.setattr(manifest_module, "regions_of",
                        lambda p, n, r=manifest_module.REGION, start_region=0: calls.append(start_region) or
                        real(p, n, r, start_region))
    second = Manifest.record(tmp_path, {"blob.dat": path.stat().st_size}).files["blob.dat"].regions
    assert calls == [3] and second[:3] == first[:3] and second == regions_of(path, path.stat().st_size)


def test_a_damaged_manifest_is_an_error_naming_it(tmp_path):
    (tmp_path / NAME).write_text("{not json")
    with pytest.raises(ManifestError, match=NAME):
        Manifest.read(tmp_path)
    (tmp_path / NAME).write_text(json.dumps({"format": 99, "files": {}}))
    with pytest.raises(ManifestError, match="format 99"):
        Manifest.read(tmp_path)
    assert Manifest.read(tmp_path / "nowhere") is None


def _sqlite(path):
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t(x)")
    conn.executemany("INSERT INTO t VALUES (?)", [("x" * 200,) for _ in range(400)])
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


@pytest.mark.parametrize("how", ["1 byte", "100 bytes", "half", "one page", "extended"])
def test_a_cut_or_extended_sqlite_file_is_named(tmp_path, how):
    db = tmp_path / "tracker.db"
    _sqlite(db)
    assert sqlite_problem(db) is None
    size = db.stat().st_size
    if how == "extended":
        with open(db, "ab") as fh:
            fh.write(b"\0" * 10)
    else:
        cut(db, to={"1 byte": size - 1, "100 bytes": size - 100, "half": size // 2 // 4096 * 4096,
                    "one page": size - 4096}[how])
    assert sqlite_problem(db) is not None


@pytest.mark.parametrize("how", ["1 byte", "100 bytes", "half", "to one page", "empty", "extended"])
def test_a_cut_lmdb_file_is_named_before_it_is_mapped(tmp_path, how):
    env = lmdb.open(str(tmp_path), map_size=1 << 24)
    with env.begin(write=True) as txn:
        for i in range(2000):
            txn.put(f"{i:06d}".encode(), b"v" * 100)
    env.close()
    data = tmp_path / "data.mdb"
    assert lmdb_problem(data) is None
    size = data.stat().st_size
    if how == "extended":
        with open(data, "ab") as fh:
            fh.write(b"\x5a" * 100)
    else:
        cut(data, to={"1 byte": size - 1, "100 bytes": size - 100, "half": size // 2, "to one page": 4096,
                      "empty": 0}[how])
    assert lmdb_problem(data) is not None


@pytest.mark.parametrize("how", ["1 byte", "half", "extended"])
def test_a_cut_or_extended_manifest_is_refused(tmp_path, how):
    (tmp_path / "blob.dat").write_bytes(b"x" * 10)
    Manifest.record(tmp_path, {"blob.dat": 10})
    path = tmp_path / NAME
    raw = path.read_bytes()
    path.write_bytes({"1 byte": raw[:-1], "half": raw[:len(raw) // 2], "extended": raw + b" "}[how])
    with pytest.raises(ManifestError, match=NAME):
        Manifest.read(tmp_path)


from reference.manifest.store_files import vector_damage, vector_lengths  # noqa: E402


@pytest.mark.parametrize("case, recorded, want", [
    ({}, 10, None),                                               # as recorded
    ({"vectors.keys": -3}, 10, "vectors.keys"),                   # a key cut: not mistaken for a torn append
    ({"vectors.tags": -1}, 10, "vectors.tags"),
    ({"vectors.f32": -1}, 10, "vectors.f32"),
    ({"vectors.sums": -100}, None, "vectors.sums"),               # no manifest: keys are written last
    ({"vectors.keys": 100}, 10, "vectors.keys"),                  # bytes added to the keys
    ({"vectors.f32": 1024 * 3, "vectors.tags": 3, "vectors.sums": 2}, 10, None),   # a torn append after it
])
def test_vector_damage_names_the_file(case, recorded, want):
    sizes = vector_lengths(10, 256)
    for name, delta in case.items():
        sizes[name] += delta
    got = vector_damage(sizes, 256, recorded)
    assert (got[0] if got else None) == want, got


def test_a_replaced_write_once_file_is_read_again(tmp_path):
    (tmp_path / "snapshots").mkdir()
    snap = tmp_path / "snapshots" / "s.snap"
    snap.write_bytes(b"a" * (2 << 20))
    Manifest.record(tmp_path, {"snapshots/s.snap": snap.stat().st_size})
    snap.write_bytes(b"b" * (2 << 20) + b"c")                 # re-exported under the same name
    m = Manifest.record(tmp_path, {"snapshots/s.snap": snap.stat().st_size})
    assert m.files["snapshots/s.snap"].regions == regions_of(snap, snap.stat().st_size)
    assert Manifest.read(tmp_path).region_problems(tmp_path) == []
