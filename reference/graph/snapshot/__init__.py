"""The read-only graph snapshot of seed 003 §4.6: one file per revision, read with mmap alone.

- `layout.py`: the file's layout (header, section table, sections), shared by writer and reader;
- `writer.py`: export of the state at one revision, the same bytes for the same content;
- `bulk.py`: the bulk reads the writer uses (adjacency lists as numpy arrays, canonical node JSON);
- `reader.py`: `SnapshotReader`, which imports neither LMDB nor (until a lookup) Hyperscan.

The file format is documented in `reference/graph/README.md`, "Snapshot file".
"""
