"""bench.calibration.enrichment: the ranker's INCLUDE_RELATED patched for a run and restored; ties go to the seed."""
from __future__ import annotations

import pytest

from bench.calibration.enrichment import choose, setting


def test_a_gain_under_one_query_share_is_a_tie_and_ties_keep_the_seed_design():
    assert choose({True: 0.4232, False: 0.4262}, tie=0.0018) is False
    assert choose({True: 0.4250, False: 0.4262}, tie=0.0018) is True
    assert choose({True: 0.43, False: 0.42}, tie=0.0018) is True


@pytest.mark.parametrize("value", [True, False])
def test_the_setting_is_patched_inside_and_restored_after(value):
    from reference.rankers import oracle_hybrid
    before = oracle_hybrid.INCLUDE_RELATED
    with setting(value):
        assert oracle_hybrid.INCLUDE_RELATED is value
    assert oracle_hybrid.INCLUDE_RELATED is before
    with pytest.raises(RuntimeError), setting(not before):
        raise RuntimeError("a failed replay")
    assert oracle_hybrid.INCLUDE_RELATED is before
