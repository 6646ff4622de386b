"""Whole-file damage (issue 25): every store file cut by 1 byte, 100 bytes or half, extended, or deleted.

Each read must give the original answer or the store's error naming the damaged file (never a
different answer, a raw library exception or a dead process), and `verify` must name the file
(`codemem-bench verify` then exits 1). Before: a cut `vectors.keys` or `.tags` gave wrong searches,
a deleted `tracker.db` a fresh empty store, a half `graph/data.mdb` a SIGBUS; `verify` said "no damage".

CI runs every file with every kind of damage on the small store of `faults.build`;
`CODEMEM_FAULT_LARGE=1` builds it with ten times the memories.
"""
from __future__ import annotations

import pytest

from tests.reference import faults


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("whole")
    faults.build(root)
    return root


@pytest.mark.parametrize("how", faults.WHOLE)
@pytest.mark.parametrize("file", faults.STORE_FILES)
def test_whole_file_damage_is_named_never_answered_wrongly(store, file, how):
    result = faults.whole_run(store, file, how)
    counts = result["counts"]
    assert counts["wrong"] == 0, counts.get("examples")
    assert result["verify_named"] and not result["verify_ok"], result["report"]
