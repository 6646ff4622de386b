"""`LexicalLayer`: a store's `LexicalIndex`, kept in step with its memories (the keyword side of every ranker).

    lex = LexicalLayer.for_store(store)      # built from the stored memories on first call
    scores = lex.scores("insert_all m2m", TUNED, vector=..., allowed=...)   # ranking.hybrid_scores
    rows, cosines = lex.vector("insert_all m2m", allowed=None)       # the vector top 100 as index rows

The index lives in memory only and is derived from the memories table, the
source of truth (like the vector cache's PQ index): opening a store builds
nothing; the first use reads every memory once, oldest first, and indexes them in batches
(`LexicalIndex.add_many`; about 70-80 µs of CPU a memory: 7-8 s at 100k, README.md). Then a write
listener takes each written memory's id,
key hash and text inside the write's transaction as *pending*, and the next
use outside a transaction adds them, once the memories revision
(`tracker/memory_revision.py`) shows they committed: the revision moved by
exactly the pending writes, metadata updates and deletes noted since. A rollback leaves the
revision where it was: the pending entries are dropped. Text never changes under an id, but a memory's
files and commit flag (`_entry`) come from its metadata: an update listener takes each updated memory
as pending too, and applying it re-files the memory when they changed (a note that project memory binds
to the commit that landed, `files_changed` added, becomes a commit with the commit's files:
`LexicalIndex.set_commit`, `FileIndex.refile`), as an index rebuilt from the stored rows would read it.
Any other move (another process's write, delete or update) is reconciled by id:
memories no longer stored leave the index, memories it lacks are read and
added, and, when the updates counter (`memory_revision.UPDATES`) moved, memories whose row points at
another blob record than the one indexed (an update appends a record and repoints the row) are read
again and re-filed (a reconcile at 100k memories: ~140-150 ms with the offsets, ~80-100 with the ids
alone; README.md). Inside an open transaction the index answers as of the last commit it applied.
"""
from __future__ import annotations

import logging
import threading
from typing import Any, NamedTuple

import numpy as np

from reference.errors import CorruptData
from reference.lexical.files import FileIndex, file_scores
from reference.lexical.index import LexicalIndex
from reference.lexical.params import FileParams, LexicalParams
from reference.lexical.terms import file_names
from reference.lexical.ranking import hybrid_scores, semantic_rerank, top_rows
from reference.tracker import MemoryFilter
from reference.tracker.memory_revision import UPDATES, current

log = logging.getLogger("reference.lexical")

EXTENSION_KEY = "lexical"
VECTOR_POOL = 100   # the vector cache's best cosines the first stage takes (as the store's topk gives them)
MEMORY_TAG = 4      # the vector rows' kind tag of memories (reference README, vectors.tags)
_MASKS = 32         # filter masks kept (allowed_rows)
_BUILD_BATCH = 50_000   # memories indexed per `add_many` in a first build (bounds the lists it holds)
_CREATE_LOCK = threading.Lock()


class LexicalLayer:
    """One store's lexical index and what keeps it current (module docstring)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.index = LexicalIndex()
        self.files = FileIndex()          # the files the memories' texts name (files.py)
        self._files_of: list[tuple[str, ...]] = []   # row -> those files as written (index entities are lowercased)
        self._offsets: list[int] = []      # row -> the blob record it was read from (`Indexed.offset`)
        self._hashes = np.zeros(64, dtype=np.uint64)   # row -> memory key hash
        self._hash_row: dict[int, int] = {}            # memory key hash -> row
        self._masks: dict[int, tuple[np.ndarray, int, np.ndarray]] = {}   # see allowed_rows
        self._lock = threading.RLock()
        self._pending: list[Indexed] = []
        self._updates: list[Indexed] = []   # memories updated (metadata) since `_rev`, in order
        self._deleted = 0          # deletes applied since `_rev`
        self._rev: int | None = None
        self._updates_seen: int | None = None   # the updates counter (memory_revision.UPDATES) `_rev` reflects
        self._last_scores: tuple | None = None   # (key, scores) of the last `scores` call without a vector part
        self._last_qvec: tuple[str, np.ndarray] | None = None   # (query, its embedding): see query_vector
        self._last_top: tuple | None = None   # (scores, k, top rows) of the last `_top`

    @classmethod
    def for_store(cls, store: Any) -> "LexicalLayer":
        """The store's layer, created (listeners registered) on first call; built lazily on first use."""
        with _CREATE_LOCK:
            layer = store.extensions.get(EXTENSION_KEY)
            if layer is None:
                layer = store.extensions[EXTENSION_KEY] = cls(store)
                store.add_write_listener(layer._noted, batch=layer._noted_many)
                store.add_delete_listener(layer._forget)
                store.add_update_listener(layer._updated)
            return layer

    # -- following writes ------------------------------------------------------------
    def _noted(self, entry: Any) -> None:
        self._noted_many([entry])

    def _noted_many(self, entries: list[Any]) -> None:
        with self._lock:
            self._pending.extend(_entry(e) for e in entries)

    def _updated(self, entry: Any) -> None:
        with self._lock:
            self._updates.append(_entry(entry))

    def _forget(self, memory_id: str) -> None:
        with self._lock:
            if self._rev is not None and self.index.remove(memory_id):
                self._deleted += 1
            elif self._rev is not None:
                self._rev = None     # a delete of a memory the index never held: reconcile next time

    def _add_many(self, entries: list[Indexed]) -> None:
        """Index each memory in order (`LexicalIndex.add_many`), skipping ids indexed already (and an id's
        repeats in `entries`)."""
        fresh: dict[str, Indexed] = {}
        for entry in entries:
            if entry.id not in self.index.row_of:
                fresh.setdefault(entry.id, entry)
        if not fresh:
            return
        rows = self.index.add_many([(e.id, e.text, e.time) for e in fresh.values()],
                                   [e.commit for e in fresh.values()])
        need = rows[-1] + 1
        if need > self._hashes.size:
            size = self._hashes.size
            while size < need:
                size *= 2
            grown = np.zeros(size, dtype=np.uint64)
            grown[: self._hashes.size] = self._hashes
            self._hashes = grown
        for row, e in zip(rows, fresh.values()):
            self._files_of.append(e.files)
            self._offsets.append(e.offset)
            self.files.note(row, e.files, self.index.terms(row))
            self._hashes[row] = e.key_hash
            self._hash_row[int(e.key_hash)] = row

    def sync(self) -> LexicalIndex:
        """The index as of the last commit this connection sees (module docstring); returned for convenience."""
        conn = self.store.tracker.conn()
        with self._lock:
            if conn.in_transaction and self._rev is not None:
                return self.index
            rev = current(conn)
            base = None if self._rev is None else self._rev + self._deleted
            if base is not None and rev == base + len(self._pending) + len(self._updates):   # ours committed
                self._add_many(self._pending)
                for e in self._updates:     # in order: the last update of a memory is its metadata now
                    row = self.index.row_of.get(e.id)
                    if row is not None:     # else deleted since (its delete counted)
                        self._refile(row, e)
                if self._updates_seen is not None:
                    self._updates_seen += len(self._updates)
            elif rev != base:               # a first build, or another store object's change
                updates = current(conn, UPDATES)     # read before the scan: a later update shows next time
                self._reconcile(conn, updates != self._updates_seen)
                self._updates_seen = updates
            # else the revision stayed: the pending changes were rolled back, dropped
            self._pending, self._updates, self._deleted, self._rev = [], [], 0, rev
            return self.index

    def _reconcile(self, conn: Any, updated: bool) -> None:
        """Bring the index to the stored rows (module docstring); `updated`: some memory's metadata may have
        changed since the last reconcile (the updates counter moved), so each row's record offset is compared."""
        offset_of = None
        if updated and self.index.row_of:   # reading the offsets too costs ~60 ms more at 100k memories
            offset_of = dict(conn.execute("SELECT id, IFNULL(blob_offset, -1) FROM memories"))
            stored = offset_of.keys()
        else:
            stored = {m for (m,) in conn.execute("SELECT id FROM memories")}
        for mid in [m for m in self.index.row_of if m not in stored]:
            self.index.remove(mid)
        if offset_of is not None:
            offsets = self._offsets
            for mid, row in [(m, r) for m, r in self.index.row_of.items() if offset_of[m] != offsets[r]]:
                entry = self._readable(mid)
                if entry is not None:       # a damaged row is left as indexed
                    self._refile(row, _entry(entry))
        if len(stored) == len(self.index.row_of):
            return
        if not self.index.row_of:      # a first build: every memory, oldest first, as written
            try:
                batch = []
                for e in self.store.memories.iter(MemoryFilter()):
                    batch.append(_entry(e))
                    if len(batch) == _BUILD_BATCH:
                        self._add_many(batch)
                        batch = []
                self._add_many(batch)
                return
            except CorruptData:        # a damaged row refuses a whole scan: read the others one by one below
                pass
        missing = sorted(stored - self.index.row_of.keys())
        entries = [self._readable(m) for m in missing]
        self._add_many([_entry(e) for e in sorted((e for e in entries if e is not None),
                                                  key=lambda e: (e.created_at, e.id))])

    def _refile(self, row: int, e: Indexed) -> None:
        """Row `row`'s memory as stored now (`e`): its commit flag and files from its metadata (module
        docstring)."""
        if e.commit != bool(self.index.commits()[row]):
            self.index.set_commit(row, e.commit)
            self._last_scores = self._last_top = None   # the note prior reads the flag (`ranking.fuse`)
        if e.files != self._files_of[row]:
            self.files.refile(row, e.files)
            self._files_of[row] = e.files
        self._offsets[row] = e.offset

    def _readable(self, memory_id: str) -> Any:
        """The memory's entry, or None when its row is damaged: searches serve every other memory (issue 25)."""
        try:
            return self.store.memories.get(memory_id)
        except CorruptData as exc:
            log.warning("the lexical index leaves out a damaged memory: %s", exc)
            return None

    # -- answering -------------------------------------------------------------------
    def allowed_rows(self, key_hashes: np.ndarray | None) -> np.ndarray | None:
        """Bool by row: rows whose key hash is in the sorted array `key_hashes` (None: no restriction).

        Filters repeat (one per task x context) and the label index hands out the same read-only array for
        the same filter until a write: the mask of such an array is kept (for `_MASKS` arrays) and only the
        rows added since are looked up (a lookup of every row costs ~3-5 ms at 100k).
        """
        if key_hashes is None:
            return None
        rows = self.index.rows
        cached = self._masks.get(id(key_hashes)) if not key_hashes.flags.writeable else None
        if cached is not None and cached[0] is key_hashes and cached[1] <= rows:
            done, mask = cached[1], cached[2]
            if done < rows:
                mask = np.concatenate([mask, self._lookup(key_hashes, done, rows)])
        else:
            mask = self._lookup(key_hashes, 0, rows)
        if not key_hashes.flags.writeable:
            self._masks.pop(id(key_hashes), None)
            self._masks[id(key_hashes)] = (key_hashes, rows, mask)
            while len(self._masks) > _MASKS:
                self._masks.pop(next(iter(self._masks)))
        return mask

    def _lookup(self, key_hashes: np.ndarray, start: int, stop: int) -> np.ndarray:
        hashes = self._hashes[start:stop]
        if key_hashes.size == 0:
            return np.zeros(hashes.size, dtype=bool)
        pos = np.minimum(np.searchsorted(key_hashes, hashes), key_hashes.size - 1)
        return key_hashes[pos] == hashes

    def rows_of(self, key_hashes: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rows, scores as float64) of the memories with these key hashes (uint64, e.g. the vector cache's top
        k) and the score given for each; unknown hashes dropped."""
        get = self._hash_row.get
        found = [get(kh) for kh in key_hashes.tolist()]
        if None in found:
            keep = np.asarray([r is not None for r in found], dtype=bool)
            found, scores = [r for r in found if r is not None], scores[keep]
        return np.asarray(found, dtype=np.int64), scores.astype(np.float64)

    def scores(self, query: str, params: LexicalParams, vector: tuple[np.ndarray, np.ndarray] | None = None,
               allowed: np.ndarray | None = None) -> np.ndarray:
        """`ranking.hybrid_scores` over the current index (sync first); -inf where not allowed or removed.

        Read-only: without a vector part the last answer is kept and handed out again for the same query,
        parameters, `allowed` mask object and index state (rrf asks for its keyword list and galaxybrain's
        candidates, the same ranking, within one search)."""
        with self._lock:
            index = self.sync()
            key = (query, params, index.rows, index.live)
            last = self._last_scores
            if vector is None and last is not None and last[0] == key and last[1] is allowed:
                return last[2]
            out = hybrid_scores(index, query, params, vector, allowed)
            out.flags.writeable = False
            self._last_scores = (key, allowed, out) if vector is None else None
            return out

    def query_vector(self, query: str) -> np.ndarray:
        """The query's embedding (`Memories.embed_query`), the last one kept: a search embeds its text once
        however many of its parts take the cosine (the embedder is deterministic). Read-only."""
        with self._lock:
            last = self._last_qvec
            if last is not None and last[0] == query:
                return last[1]
            qvec = self.store.memories.embed_query(query)
            qvec.flags.writeable = False
            self._last_qvec = (query, qvec)
            return qvec

    def hashes_of(self, rows: np.ndarray) -> np.ndarray:
        """The memory key hashes (uint64) of index rows, as the tracker's `hash_fn` gives them for their ids."""
        return self._hashes[rows]

    def locate(self, query: str, params: LexicalParams, fparams: FileParams, k: int,
               allowed: np.ndarray | None = None) -> list[tuple[str, float]]:
        """`files.file_scores`: the `k` files most likely touched by the work `query` describes, (path, score)
        best first, from the memories among the key hashes `allowed` (all when None; e.g. a branch filter),
        scored by `params` with `fparams.vector_weight` for their cosine part (the `VECTOR_POOL` nearest)."""
        vector = self.vector(query, allowed) if fparams.vector_weight > 0.0 else None
        with self._lock:
            self.sync()   # before the rows are counted for `allowed`
            scores = self.scores(query, params.with_(vector_weight=fparams.vector_weight), vector,
                                 self.allowed_rows(allowed))
            return file_scores(self.index, self.files, query, scores, fparams, self._files_of.__getitem__)[:k]

    def vector(self, query: str, allowed: np.ndarray | None, pool: int = VECTOR_POOL) -> tuple[np.ndarray, np.ndarray]:
        """(rows, cosines) of the query's `pool` nearest memories among the key hashes `allowed` (all when None)."""
        qvec = self.query_vector(query)
        if not np.any(qvec) or (allowed is not None and allowed.size == 0):
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        if allowed is None:
            keys, cos = self.store.vectors.topk_arrays(qvec, pool, tags=[MEMORY_TAG], with_ties=True)
        else:
            keys, cos = self.store.vectors.topk_arrays(qvec, pool, allowed=allowed, with_ties=True)
        with self._lock:
            self.sync()
            return self.rows_of(keys, cos)

    def nearest(self, query: str, k: int, allowed: np.ndarray | None = None) -> list[tuple[str, float]]:
        """(memory id, cosine) of the query's `k` nearest memories among the key hashes `allowed` (None: every
        memory), best first, ties by id (the vector cache's ties kept, then cut at `k`): the vector list as
        `Memories.ranked_lists` gives it, with ids from the index instead of a lookup per search. A query
        whose embedding is all zeros (no word the embedder hashes) has no nearest memories."""
        rows, cos = self.vector(query, allowed, k)
        with self._lock:
            ids = self.index.ids
            return [(m, -s) for s, m in sorted(zip((-cos).tolist(), [ids[r] for r in rows.tolist()]))[:k]]

    def ranked(self, query: str, params: LexicalParams, k: int, allowed: np.ndarray | None = None
               ) -> list[tuple[str, float]]:
        """(memory id, score) of the `k` best for `query` under `params` among the key hashes `allowed`
        (sorted; None: every memory), best first, ties by id; only positive scores. The vector part
        (when `params.vector_weight` > 0) takes the `VECTOR_POOL` nearest memories."""
        vector = self.vector(query, allowed) if params.vector_weight > 0.0 else None
        with self._lock:
            self.sync()   # before the rows are counted for `allowed`
            scores = self.scores(query, params, vector, self.allowed_rows(allowed))
            return [(self.index.ids[r], s) for r, s in self._top(scores, k)]

    def _top(self, scores: np.ndarray, k: int) -> list[tuple[int, float]]:
        """`top_rows(scores, k, ids)`, the last answer kept for the same read-only `scores` (as `scores` hands
        them out) and `k`: rrf's keyword list and galaxybrain's candidates are one ranking's top `DEPTH`."""
        last = self._last_top
        if last is not None and last[0] is scores and last[1] == k:
            return last[2]
        top = top_rows(scores, k, self.index.ids)
        self._last_top = None if scores.flags.writeable else (scores, k, top)
        return top

    def reranked(self, query: str, params: LexicalParams, k: int, candidates: int, weight: float,
                 allowed: np.ndarray | None = None) -> list[tuple[str, float]]:
        """`ranking.semantic_rerank` of the `candidates` best under `params` (its vector part off): the lexical
        score plus `weight` x the query's cosine with each candidate; (memory id, score), best first."""
        with self._lock:
            self.sync()   # before the rows are counted for `allowed`
            scores = self.scores(query, params.with_(vector_weight=0.0), None, self.allowed_rows(allowed))
            ids, hashes = self.index.ids, self._hashes
            top = self._top(scores, candidates)   # fewer than `candidates` only when fewer rows score above 0
        if len(top) < candidates:
            # too few memories with lexical evidence: the nearest by meaning join as candidates below them
            # (seed 000 §4.3 re-ranks the filtered memories by meaning; a query sharing no word still finds them)
            rows, cos = self.vector(query, allowed, candidates)
            keep = (rows < scores.size) & (cos > 0)
            rows, cos = rows[keep], cos[keep]
            fill = rows[scores[rows] <= 0.0]
            scores = scores.copy()
            scores[fill] = np.finfo(np.float64).tiny * (1.0 + np.arange(fill.size, 0, -1))
            top = top_rows(scores, candidates, ids)
        with self._lock:

            def cosines(rows: np.ndarray) -> np.ndarray:
                qvec = self.query_vector(query)
                return self.store.vectors.scores(qvec, hashes[rows])
            return [(ids[r], s) for r, s in semantic_rerank(scores, candidates, cosines, weight, ids, top)[:k]]


class Indexed(NamedTuple):
    """What the index keeps of a memory (`_entry`)."""

    id: str
    key_hash: int
    text: str
    files: tuple[str, ...]   # the files it touched (`_entry`)
    time: float              # its write time (the recency prior's clock)
    commit: bool             # it records the files it changed (`LexicalIndex.commits`)
    offset: int              # the blob record it was read from (-1: none): a metadata update moves it


def recorded_files(metadata: Any) -> tuple[str, ...]:
    """The files a memory's metadata records as changed (`files_changed`, a non-empty list of paths, in order,
    each once), or () when it records none: a memory that records them is a commit, any other a note."""
    listed = (metadata or {}).get("files_changed")
    if isinstance(listed, list) and listed and all(isinstance(f, str) for f in listed):
        return tuple(dict.fromkeys(listed))
    return ()


def _entry(entry: Any) -> Indexed:
    """What the index keeps of a memory. Its files are the ones its metadata records (`recorded_files`: project
    memory's commits record every one, `Justfile` and `LICENSE` included), else the files its text names
    (`terms.file_names`)."""
    recorded = recorded_files(entry.metadata)
    files = recorded or tuple(file_names(entry.text))
    offset = -1 if entry.blob_offset is None else int(entry.blob_offset)
    return Indexed(entry.id, entry.key_hash, entry.text, files, entry.created_at, bool(recorded), offset)
