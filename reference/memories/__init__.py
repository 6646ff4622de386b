"""Memories (seed 000 §3-§4): the `Memories` part of a store, its records, ids and argument checks (README.md here).

Import from the modules (`reference.memories.memories.Memories`, `reference.memories.record.MemoryEntry`, ...):
this `__init__` imports nothing, because the tracker (a lower layer) imports `record.py` for its row type
and `Memories` imports the tracker — re-exporting `Memories` here would make that an import circle.
"""
