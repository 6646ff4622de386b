"""Compiled databases are cached by content hash; bad cache files are recompiled."""
from __future__ import annotations

import hashlib

import pytest

from reference.patterns import PatternMatch, PatternSetManager

SET = {"id": "pat:c", "patterns": [r"alpha\d+", r"beta\s*\("]}
TEXT = b"alpha12 beta ( alpha"
EXPECTED = [PatternMatch(0, r"alpha\d+", 0, 7, "pattern-0"), PatternMatch(1, r"beta\s*\(", 8, 14, "pattern-1")]


def cache_files(tmp_path):
    return sorted((tmp_path / "patterns").glob("*.hsdb"))


def test_second_manager_loads_from_cache_without_compiling(tmp_path):
    first = PatternSetManager(tmp_path, builtins=False)
    first.load(SET)
    assert (first.stats.compiled, first.stats.cache_hits) == (1, 0)
    [file] = cache_files(tmp_path)
    assert file.name == f"{first.get('pat:c').digest}.hsdb" and len(file.stem) == 64
    stamp = (file.stat().st_mtime_ns, file.read_bytes())

    second = PatternSetManager(tmp_path, builtins=False)
    second.load(SET)
    assert (second.stats.compiled, second.stats.cache_hits, second.stats.cache_rejected) == (0, 1, 0)
    assert (file.stat().st_mtime_ns, file.read_bytes()) == stamp
    assert second.scan("pat:c", TEXT) == EXPECTED


def test_builtins_are_cached_too(tmp_path):
    PatternSetManager(tmp_path)
    again = PatternSetManager(tmp_path)
    assert again.stats.compiled == 0 and again.stats.cache_hits == 2


def test_cache_file_frame_is_magic_checksum_payload(tmp_path):
    m = PatternSetManager(tmp_path, builtins=False)
    ps = m.load(SET)
    raw = cache_files(tmp_path)[0].read_bytes()
    assert raw[:8] == b"CMHSDB1\n"
    assert raw[8:40] == hashlib.sha256(raw[40:]).digest()
    assert raw[40:] == ps.compiled_db


def test_same_definition_gives_same_bytes_in_two_stores(tmp_path):
    a = PatternSetManager(tmp_path / "a", builtins=False)
    b = PatternSetManager(tmp_path / "b", builtins=False)
    a.load(SET)
    b.load(SET)
    assert cache_files(tmp_path / "a")[0].read_bytes() == cache_files(tmp_path / "b")[0].read_bytes()


def test_different_flags_get_a_different_cache_file(tmp_path):
    m = PatternSetManager(tmp_path, builtins=False)
    m.load(SET)
    m.load({**SET, "id": "pat:d", "flags": ["caseless"]})
    assert len(cache_files(tmp_path)) == 2


@pytest.mark.parametrize("damage", ["flip_payload", "truncate", "garbage", "valid_frame_bad_payload", "empty"])
def test_corrupt_cache_is_detected_and_recompiled(tmp_path, damage):
    PatternSetManager(tmp_path, builtins=False).load(SET)
    [file] = cache_files(tmp_path)
    good = file.read_bytes()
    if damage == "flip_payload":
        bad = bytearray(good)
        bad[len(bad) // 2] ^= 0xFF
        bad = bytes(bad)
    elif damage == "truncate":
        bad = good[: len(good) // 3]
    elif damage == "garbage":
        bad = b"not a database at all" * 10
    elif damage == "valid_frame_bad_payload":
        payload = b"\x00" * 200
        bad = b"CMHSDB1\n" + hashlib.sha256(payload).digest() + payload
    else:
        bad = b""
    file.write_bytes(bad)

    m = PatternSetManager(tmp_path, builtins=False)
    m.load(SET)
    # the sound database this process compiled a moment ago replaces the bad file
    assert (m.stats.compiled, m.stats.process_hits, m.stats.cache_rejected) == (0, 1, 1)
    assert m.scan("pat:c", TEXT) == EXPECTED
    assert file.read_bytes() == good  # rewritten with the sound database


def test_corrupt_cache_recompiled_in_a_fresh_process(tmp_path, monkeypatch):
    from reference.patterns import compiled_set
    PatternSetManager(tmp_path, builtins=False).load(SET)
    [file] = cache_files(tmp_path)
    good = file.read_bytes()
    file.write_bytes(good[: len(good) // 3])
    monkeypatch.setattr(compiled_set, "_PROCESS_DATABASES", {})  # as a new process would start
    m = PatternSetManager(tmp_path, builtins=False)
    m.load(SET)
    assert (m.stats.compiled, m.stats.cache_hits, m.stats.cache_rejected) == (1, 0, 1)
    assert m.scan("pat:c", TEXT) == EXPECTED and file.read_bytes() == good


def test_no_data_dir_means_no_cache(tmp_path):
    m = PatternSetManager(None, builtins=False)
    m.load(SET)
    m.load(SET)
    assert m.stats.compiled == 2 and m.scan("pat:c", TEXT) == EXPECTED
