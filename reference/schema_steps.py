"""Every `tracker.db` schema version in order, each step registered with the tracker.

The tracker owns the version number and runs the steps (`tracker/migrations.py`),
but the layers above it (knowledge, Memory Lane, project memory) own their
tables, and a lower layer never imports a higher one; so this module, above
both, names which step makes which version. The `reference` package imports it
first, so any `Tracker` finds every step registered.

A new version: write its step in the module that owns the tables, append it
here, raise `migrations.LATEST`, and add a migration test from the version before.
"""
from __future__ import annotations

from reference.knowledge.schema import index_relationships_by_target_type, key_by_document, knowledge_schema
from reference.lane.schema import lane_v1
from reference.project.schema import project_schema
from reference.tracker.lean_indexes import drop_unread_indexes
from reference.tracker.migrations import register_step, tracker_v1, tracker_v2
from reference.tracker.rowsum import add_row_sums

STEPS = (
    tracker_v1,                         # v1: seed 000 §3.1 baseline
    tracker_v2,                         # v2: memories.metadata, the memory FTS index, files.mode
    knowledge_schema,                   # v3: seed 001 knowledge tables (knowledge/schema.py)
    lane_v1,                            # v4: seed 004 Memory Lane feedback and session recalls (lane/schema.py)
    project_schema,                     # v5: seed 002 project branches, commits, documents (project/schema.py)
    add_row_sums,                       # v6: issue 11 row checksums (tracker/rowsum.py)
    drop_unread_indexes,                # v7: issue 15 indexes no query reads dropped (tracker/lean_indexes.py)
    key_by_document,                    # v8: issue 15 temporal_data, memory_layers WITHOUT ROWID (knowledge/schema.py)
    index_relationships_by_target_type,  # v9: issue 15 relationships indexed by (target_id, type)
)

for _version, _step in enumerate(STEPS, start=1):
    register_step(_version, _step)
