"""Turn raw `lmdb` exceptions and unnamed corruption errors into the store's errors naming data.mdb.

py-lmdb raises `lmdb.CorruptedError`, `lmdb.PageNotFoundError`,
`lmdb.InvalidError`, ... when the file's pages are damaged; the record codecs
raise `CorruptData` subclasses that name the LMDB key but not the file. At
the `GraphStore` boundary both become `CorruptData` whose message starts
with `<dir>/data.mdb` (issue 11). `MapFullError` and `MapResizedError` are
handled inside the store and pass through untouched.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import lmdb

from reference.errors import CorruptData, StoreError

_PASS = (lmdb.MapFullError, lmdb.MapResizedError)
_DAMAGE = (lmdb.CorruptedError, lmdb.PageNotFoundError, lmdb.InvalidError, lmdb.BadValsizeError,
           lmdb.BadTxnError, lmdb.PanicError, lmdb.VersionMismatchError, lmdb.DiskError)


def _file(directory: str | Path) -> str:
    # built only when an error is raised: this wraps every read and write
    return str(Path(directory) / "data.mdb")


@contextmanager
def lmdb_errors(directory: str | Path) -> Iterator[None]:
    """Re-raise library and unnamed corruption errors from the block naming `directory/data.mdb`."""
    try:
        yield
    except _PASS:
        raise
    except CorruptData as exc:
        file = _file(directory)
        if file in str(exc):
            raise
        raise type(exc)(f"{file}: {exc}", file=file, record=getattr(exc, "record", None)) from None
    except _DAMAGE as exc:
        file = _file(directory)
        raise CorruptData(f"{file}: LMDB reports damage ({type(exc).__name__}: {str(exc)[:200]})",
                          file=file) from None
    except lmdb.Error as exc:
        raise StoreError(f"{_file(directory)}: {type(exc).__name__}: {str(exc)[:200]}") from None
