"""Blob framing, torn-tail recovery and corruption detection.

Expected frame positions come from a plain model: each record takes
16 header bytes + its payload, one after the other from offset 0.
"""
from __future__ import annotations

import hashlib
import multiprocessing
import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.blob import HEADER_SIZE, Blob
from reference.errors import CorruptData

payload_lists = st.lists(st.binary(min_size=0, max_size=40), min_size=1, max_size=5)
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def model_frames(payloads: list[bytes]) -> list[tuple[int, int, int]]:
    """(frame start, payload start, frame end) for each payload, by hand arithmetic."""
    out, pos = [], 0
    for p in payloads:
        out.append((pos, pos + 16, pos + 16 + len(p)))
        pos += 16 + len(p)
    return out


def write_blob(path: Path, payloads: list[bytes]) -> list[int]:
    with Blob(path) as b:
        return [b.append(p).offset for p in payloads]


def test_header_layout_matches_documented_format(tmp_path):
    path = tmp_path / "blob.dat"
    write_blob(path, [b"hello"])
    raw = path.read_bytes()
    assert raw[:4] == b"\xb1\x0bCM"
    assert struct.unpack("<I", raw[4:8])[0] == 5
    assert raw[8:16] == hashlib.blake2b(b"hello", digest_size=8).digest()
    assert raw[16:] == b"hello"


@SETTINGS
@given(payloads=payload_lists)
def test_round_trip_and_offsets(tmp_path_factory, payloads):
    path = tmp_path_factory.mktemp("b") / "blob.dat"
    offsets = write_blob(path, payloads)
    assert offsets == [m[1] for m in model_frames(payloads)]
    with Blob(path) as b:
        assert b.recovered is None
        assert [b.read(o) for o in offsets] == payloads
        assert [(r.offset, r.length) for r in b.records()] == [(o, len(p)) for o, p in zip(offsets, payloads)]
        for o, p in zip(offsets, payloads):
            assert b.read_slice(o, len(p)) == p
            if len(p) >= 3:
                assert b.read_slice(o + 1, len(p) - 2) == p[1:-1]


@SETTINGS
@given(payloads=payload_lists)
def test_truncation_at_every_byte_keeps_exactly_the_whole_records(tmp_path_factory, payloads):
    src = tmp_path_factory.mktemp("b") / "blob.dat"
    write_blob(src, payloads)
    full = src.read_bytes()
    frames = model_frames(payloads)
    tail_start = frames[-1][0]
    for cut in range(tail_start, len(full) + 1):
        path = src.parent / f"cut{cut}.dat"
        path.write_bytes(full[:cut])
        with Blob(path) as b:
            kept = [p for p, (_, _, end) in zip(payloads, frames) if end <= cut]
            assert [b.read(r.offset) for r in b.records()] == kept
            whole = sum(16 + len(p) for p in kept)
            assert path.stat().st_size == whole
            if cut == whole:
                assert b.recovered is None
            else:
                assert b.recovered is not None and b.recovered.dropped_bytes == cut - whole
                assert b.recovered.truncated_at == whole
            b.append(b"after")  # the recovered file takes new records cleanly
        with Blob(path) as b:
            assert [b.read(r.offset) for r in b.records()] == kept + [b"after"]


def test_truncation_of_a_larger_file_at_every_tail_byte(tmp_path):
    payloads = [bytes([i]) * (i * 7) for i in range(1, 12)]
    src = tmp_path / "blob.dat"
    write_blob(src, payloads)
    full = src.read_bytes()
    frames = model_frames(payloads)
    for cut in range(frames[-2][0], len(full)):
        path = tmp_path / "cut.dat"
        path.write_bytes(full[:cut])
        with Blob(path) as b:
            assert len(b.records()) == sum(1 for f in frames if f[2] <= cut)


@pytest.mark.parametrize("n_records", [1, 3])
def test_every_flipped_byte_is_detected(tmp_path, n_records):
    payloads = [f"record {i} payload".encode() for i in range(n_records)]
    src = tmp_path / "src.dat"
    write_blob(src, payloads)
    full = src.read_bytes()
    frames = model_frames(payloads)
    for pos in range(len(full)):
        data = bytearray(full)
        data[pos] ^= 0xFF
        path = tmp_path / "flip.dat"
        path.write_bytes(bytes(data))
        rec = next(i for i, (s, _, e) in enumerate(frames) if s <= pos < e)
        with Blob(path) as b:
            # never refused, never truncated: only the damaged record is unreadable
            assert path.stat().st_size == len(full), pos
            with pytest.raises(CorruptData, match=str(path)):
                b.read(frames[rec][1])
            with pytest.raises(CorruptData, match=str(path)):
                b.read_slice(frames[rec][1], len(payloads[rec]))
            for i, p in enumerate(payloads):
                if i != rec:
                    assert b.read(frames[i][1]) == p
                    assert b.read_slice(frames[i][1] + 1, len(p) - 1) == p[1:]
            b.append(b"after")  # the store stays writable
        if rec == n_records - 1:
            assert (tmp_path / "flip.dat.corrupt").exists(), "a damaged last record is kept aside"
        (tmp_path / "flip.dat.corrupt").unlink(missing_ok=True)


def test_damaged_last_record_is_kept_and_its_offset_never_reused(tmp_path):
    path = tmp_path / "blob.dat"
    offsets = write_blob(path, [b"first record", b"second record"])
    data = bytearray(path.read_bytes())
    data[offsets[1] + 2] ^= 0x40
    path.write_bytes(bytes(data))
    with Blob(path) as b:
        assert b.recovered is None and b.damaged and b.damaged[0][0] == offsets[1] - HEADER_SIZE
        new = b.append(b"third")
        assert new.offset > offsets[1]
    kept = (tmp_path / "blob.dat.corrupt").read_bytes()
    assert kept.startswith(f"offset {offsets[1] - HEADER_SIZE} ".encode()) and bytes(data[offsets[1]:]) in kept
    with Blob(path) as b:  # reopening neither loses the third record nor keeps the damage twice
        assert b.read(new.offset) == b"third"
        with pytest.raises(CorruptData, match="checksum mismatch"):
            b.read(offsets[1])
    assert (tmp_path / "blob.dat.corrupt").read_bytes() == kept


def test_read_slice_must_stay_inside_one_record(tmp_path):
    with Blob(tmp_path / "blob.dat") as b:
        r1 = b.append(b"abcdef")
        r2 = b.append(b"ghij")
        assert b.read_slice(r1.offset + 2, 3) == b"cde"
        with pytest.raises(CorruptData, match="runs past the record"):
            b.read_slice(r1.offset + 2, 10)
        with pytest.raises(CorruptData, match="not inside any record"):
            b.read_slice(r2.offset - 4, 2)  # inside the second record's header
        with pytest.raises(CorruptData, match="not the start of a record"):
            b.read(r1.offset + 1)


def test_whole_record_slice_is_verified(tmp_path):
    path = tmp_path / "blob.dat"
    offsets = write_blob(path, [b"first record", b"second"])
    data = bytearray(path.read_bytes())
    data[offsets[0] + 3] ^= 0x01
    path.write_bytes(bytes(data))
    with Blob(path) as b:
        with pytest.raises(CorruptData):
            b.read_slice(offsets[0], len(b"first record"))
        with pytest.raises(CorruptData):  # a partial slice is verified too (issue 11)
            b.read_slice(offsets[0] + 5, 3)


def test_two_handles_append_to_one_file(tmp_path):
    path = tmp_path / "blob.dat"
    a, b = Blob(path), Blob(path)
    refs = []
    for i in range(10):
        refs.append((a if i % 2 else b).append(f"rec{i}".encode()))
    assert [r.offset for r in refs] == [m[1] for m in model_frames([f"rec{i}".encode() for i in range(10)])]
    assert a.read_slice(refs[0].offset, refs[0].length) == b"rec0"  # written by the other handle
    a.close()
    b.close()


def _append_many(path: str, tag: str, n: int) -> None:
    with Blob(path) as b:
        for i in range(n):
            b.append(f"{tag}-{i}-".encode() * 5)


def test_appends_from_two_processes_interleave_whole_records(tmp_path):
    path = tmp_path / "blob.dat"
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_append_many, args=(str(path), tag, 200)) for tag in ("p", "q")]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
        assert p.exitcode == 0
    with Blob(path) as b:
        assert b.recovered is None
        got = sorted(b.read(r.offset) for r in b.records())
    want = sorted(f"{t}-{i}-".encode() * 5 for t in ("p", "q") for i in range(200))
    assert got == want


def test_append_after_another_writer_crashed_mid_record(tmp_path):
    path = tmp_path / "blob.dat"
    b = Blob(path)
    first = b.append(b"first")
    with open(path, "ab") as fh:  # a crashed writer: header of a 100-byte record, 3 payload bytes
        fh.write(b"\xb1\x0bCM" + struct.pack("<I", 100) + b"\0" * 8 + b"abc")
    ref = b.append(b"second")
    assert ref.offset == first.offset + 5 + 16  # the torn bytes were cut, not skipped over
    assert b.recovered is not None and b.recovered.dropped_bytes == 19
    assert b.read(ref.offset) == b"second"
    b.close()
    with Blob(path) as again:
        assert again.recovered is None
        assert [again.read(r.offset) for r in again.records()] == [b"first", b"second"]


@SETTINGS
@given(payloads=payload_lists, cut=st.integers(0, 8))
def test_append_many_writes_what_appends_one_by_one_write(tmp_path_factory, payloads, cut):
    d = tmp_path_factory.mktemp("m")
    with Blob(d / "one.dat") as one, Blob(d / "many.dat") as many:
        refs_one = [one.append(p) for p in payloads]
        refs_many = many.append_many(payloads[:cut]) + many.append_many(payloads[cut:])
        assert refs_many == refs_one
        assert [many.read(r.offset) for r in refs_many] == payloads
        assert list(many.records()) == list(one.records())
    assert (d / "one.dat").read_bytes() == (d / "many.dat").read_bytes()


def test_append_many_refuses_an_oversized_payload_before_writing(tmp_path, monkeypatch):
    import reference.blob.blob as blob_mod
    monkeypatch.setattr(blob_mod, "MAX_PAYLOAD", 4)
    with Blob(tmp_path / "b.dat") as b:
        with pytest.raises(ValueError, match="exceeds the u32 frame limit"):
            b.append_many([b"ok", b"too long"])
        assert b.size() == 0
