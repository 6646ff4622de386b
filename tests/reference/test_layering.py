"""A layer registers its schema steps with the tracker, which never imports it: every version has one step.

The import rules themselves (no circles, `reference/` never imports `bench/`, the lower layers never
reach the higher ones) are checked over the whole import graph by `tests/test_import_graph.py`.
"""
from __future__ import annotations

import pytest


def test_every_schema_version_has_its_step_and_a_missing_one_is_named(monkeypatch):
    from reference.schema_steps import STEPS
    from reference.tracker import migrations
    assert migrations.steps() == list(STEPS) and len(STEPS) == migrations.LATEST
    monkeypatch.delitem(migrations._STEPS, 4)
    with pytest.raises(migrations.StoreError, match=r"schema steps \[4\] are not registered"):
        migrations.steps()


def test_a_version_cannot_get_a_second_step():
    from reference.tracker import migrations
    with pytest.raises(ValueError, match="schema step 3 is already knowledge_schema"):
        migrations.register_step(3, lambda conn: None)
    with pytest.raises(ValueError, match="versions run from 1 to"):
        migrations.register_step(migrations.LATEST + 1, lambda conn: None)
