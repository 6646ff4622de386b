"""`check_files(directory)`: refuse a graph folder whose `data.mdb` is cut or was deleted, before LMDB opens it.

LMDB maps `data.mdb` and trusts it: a file cut below the pages its meta page
records killed the reading process with SIGBUS, and a deleted one was silently
re-created empty (`get_node` answered None for every node). Checked here, with
`reference.manifest` (issue 25):

- `data.mdb` shorter than its newer meta page records (`lmdb_meta`): `CorruptData`;
- `data.mdb` missing while `lock.mdb` (created with it, never without) is there,
  or while the data folder's `manifest.json` lists it: `CorruptData` naming it,
  never a fresh store.

Every message starts with `<dir>/data.mdb`, as the graph's other corruption errors do.
"""
from __future__ import annotations

from pathlib import Path

from reference.errors import CorruptData
from reference.manifest import Manifest, ManifestError, lmdb_problem


def check_files(directory: Path) -> None:
    data = directory / "data.mdb"
    if data.exists():
        why = lmdb_problem(data)
        if why is not None:
            raise CorruptData(f"{data}: {why}")
        return
    if (directory / "lock.mdb").exists():
        raise CorruptData(f"{data}: missing while {directory / 'lock.mdb'} is there (LMDB creates both): the "
                          "graph's data was deleted; restore it from a copy (a new, empty graph is not created)")
    try:
        manifest = Manifest.read(directory.parent)
    except ManifestError:
        return                   # the store that owns the manifest reports it
    if manifest is not None and f"{directory.name}/data.mdb" in manifest.files:
        raise CorruptData(f"{data}: missing, but {directory.parent / 'manifest.json'} lists it: the graph's data "
                          "was deleted; restore it from a copy (a new, empty graph is not created)")
