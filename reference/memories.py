"""Memory operations of the store (seed 000 §3-§4): write, get, delete, list, search.

A write validates everything first, then, in one tracker transaction:
allocates the next per-store sequence number, derives the id, appends the
§3.2 JSON record to `blob.dat`, inserts the row and its FTS entry, and puts
the vector. Ids are `mem:` + 8 hex digits of BLAKE2b(created_at, sequence
number, salt, text); the salt only moves if that id (or its hash) is already
taken, so the same operations with the same clock give the same ids.
Rankings break ties by id ascending.
"""
from __future__ import annotations

import functools
import hashlib
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import numpy as np

from reference.blob import Blob
from reference.clock import Clock
from reference.embed import Embedder
from reference.errors import InvalidKey, KeyCollision, NotFound, StoreError
from reference.keys import parse_key
from reference.memory_input import check_metadata, check_tags, redact_input, redact_value, validate_memory
from reference.memory_record import MemoryEntry, SearchHit, memory_blob_record
from reference.ontology import check_context, check_insights, check_task
from reference.tracker import MemoryFilter, Tracker, check_where_metadata, fts_match, memory_revision
from reference.tracker.filter_index import FilterIndex, labels_of
from reference.tracker.fts_topk import ranked_matches
from reference.tracker.id_index import IdIndex
from reference.tracker.keyword_index import KeywordIndex
from reference.tracker.memories_table import ORDER_NEWEST
from reference.tracker.tracker import SET_SEQ
from reference.vector_search import KIND_TAGS
from reference.vectors import VectorCache


MAX_SALT = 64
_RECORD_FIELDS = {"text", "task", "insights", "context", "symbol_keys", "tags", "metadata"}


class InvalidArgument(StoreError, ValueError):
    """A search or list argument is out of range."""


def _with_blob(e: MemoryEntry, offset: int, length: int) -> MemoryEntry:
    """`replace(e, blob_offset=offset, blob_length=length)` by the constructor (half the cost, same entry)."""
    return MemoryEntry(e.id, e.key_hash, e.task, e.insights, e.context, e.symbol_keys, e.text, e.tags, e.metadata,
                       e.created_at, e.updated_at, offset, length)


def derive_memory_id(created_at: float, seq: int, text: str, salt: int = 0) -> str:
    """`mem:` + the first 8 hex digits of BLAKE2b over (created_at, seq, salt, text)."""
    h = hashlib.blake2b(f"{created_at!r}\x1f{seq}\x1f{salt}\x1f{text}".encode("utf-8"), digest_size=4)
    return "mem:" + h.hexdigest()


def check_memory_id(memory_id: Any) -> str:
    if not isinstance(memory_id, str) or parse_key(memory_id).namespace != "mem":
        raise InvalidKey(f"{memory_id!r} is not a memory id (expected mem:{{8 hex digits}})")
    return memory_id


def _count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidArgument(f"{name} must be a non-negative integer, got {value!r}")
    return value


class Memories:
    """Memory rows, blob records and vectors of one store."""

    def __init__(self, tracker: Tracker, blob: Blob, vectors: VectorCache, embedder: Embedder, clock: Clock,
                 redactor: Callable[[str], str] | None = None) -> None:
        self.tracker, self.blob, self.vectors, self.embedder = tracker, blob, vectors, embedder
        self.clock, self.redactor = clock, redactor
        self.filter_index = FilterIndex()

    # -- writing -----------------------------------------------------------------
    def write(self, text: Any, task: Any = None, insights: Any = None, context: Any = None,
              symbol_keys: Any = None, tags: Any = None, metadata: Any = None) -> MemoryEntry:
        inp = redact_input(validate_memory(text, task, insights, context, symbol_keys, tags, metadata), self.redactor)
        vec = self.embedder.embed([inp.text])[0]
        put = False
        try:
            with self.tracker.tx() as conn:
                entry = self._insert_many(conn, [inp], [self.clock.now()])[0]
                rev = memory_revision.bump(conn)
                kh = entry.key_hash
                if np.any(vec):
                    self.vectors.put(kh, vec, KIND_TAGS["memory"])
                    put = True
        except BaseException:
            if put:
                self.vectors.remove(kh)  # the row was rolled back: do not leave its vector behind
            self.filter_index.reset()
            raise
        self._note(entry, rev)
        return entry

    def write_many(self, records: list[dict[str, Any]], times: list[float] | None = None) -> list[MemoryEntry]:
        """Several writes in one transaction: all validated first, embedded in one batch, vectors in one append.

        Each record holds `write`'s arguments by name (`text` required). The
        entries get the ids, rows and blob records that the same writes made
        one by one would get; nothing is stored if any record is invalid.
        `times` (one per record, not decreasing) replays a timed history in one batch: the
        clock is set to each (`LogicalClock.set`) before its record is stored, as a caller
        setting the clock between single writes would.
        """
        if times is not None:
            if not callable(getattr(self.clock, "set", None)):
                raise InvalidArgument("times= needs a clock with set() (a LogicalClock)")
            if len(times) != len(records):
                raise InvalidArgument(f"{len(times)} times for {len(records)} records")
            if any(not isinstance(t, (int, float)) or isinstance(t, bool) for t in times) \
                    or any(b < a for a, b in zip([self.clock.now(), *times], times)):
                raise InvalidArgument("times must be numbers, none before the clock's now or the one before it")
        inputs = []
        for i, rec in enumerate(records):
            if not isinstance(rec, dict):
                raise InvalidArgument(f"record {i} must be a dict of write_memory arguments, got {type(rec).__name__}")
            unknown = sorted(set(rec) - _RECORD_FIELDS)
            if unknown:
                raise InvalidArgument(f"record {i}: unknown field(s) {', '.join(unknown)[:80]}")
            inputs.append(redact_input(validate_memory(rec.get("text"), rec.get("task"), rec.get("insights"),
                                                       rec.get("context"), rec.get("symbol_keys"), rec.get("tags"),
                                                       rec.get("metadata")), self.redactor))
        if not inputs:
            return []
        vecs = np.asarray(self.embedder.embed([inp.text for inp in inputs]), dtype=np.float32)
        entries: list[MemoryEntry] = []
        put: list[int] = []
        try:
            with self.tracker.tx() as conn:
                nows = []
                for i in range(len(inputs)):
                    if times is not None:
                        self.clock.set(float(times[i]))
                    nows.append(self.clock.now())
                entries = self._insert_many(conn, inputs, nows)
                last = memory_revision.bump(conn, len(entries))
                nonzero = np.flatnonzero(vecs.any(axis=1))
                if nonzero.size:
                    put = [entries[i].key_hash for i in nonzero]
                    self.vectors.put_many(put, vecs[nonzero], KIND_TAGS["memory"])
        except BaseException:
            if put:
                self.vectors.remove_many(put)  # the rows were rolled back: do not leave their vectors behind
            raise
        for i, entry in enumerate(entries, start=last - len(entries) + 1):
            self._note(entry, i)   # revisions as the writes one by one would have moved it
        return entries

    def _insert_many(self, conn: Any, inputs: list[Any], nows: list[float]) -> list[MemoryEntry]:
        """`_insert` of each input at its time, in order, with a few statements for the whole batch.

        When no salt-0 id is taken (by an earlier row or by another input of the batch: the usual
        case), the sequence numbers, keys, blob records and rows go in together; otherwise one
        by one. The same ids, rows and blob bytes either way.
        """
        tracker = self.tracker
        row = conn.execute("SELECT value FROM meta WHERE name = 'seq:memory'").fetchone()
        try:
            seq0 = int(row[0]) if row else 0
        except ValueError:
            return [self._insert(conn, inp, now) for inp, now in zip(inputs, nows)]  # next_seq names the damage
        mids = [derive_memory_id(now, seq0 + 1 + i, inp.text, 0) for i, (inp, now) in enumerate(zip(inputs, nows))]
        hashes = [tracker.hash_fn(m) for m in mids]
        if len(inputs) == 1:
            # one key, one statement: its UNIQUE constraints (key_hash, key) answer `any_taken` in the insert
            # itself, which a failing constraint leaves undone (one statement fewer a single write)
            try:
                tracker.keys.register_new(conn, mids, hashes, "memory")
            except sqlite3.IntegrityError:
                return [self._insert(conn, inputs[0], nows[0])]
        elif len(set(hashes)) < len(hashes) or len(set(mids)) < len(mids) or tracker.keys.any_taken(conn, mids, hashes):
            return [self._insert(conn, inp, now) for inp, now in zip(inputs, nows)]
        else:
            tracker.keys.register_new(conn, mids, hashes, "memory")
        conn.execute(SET_SEQ, ("seq:memory", str(seq0 + len(inputs))))
        entries = [MemoryEntry(mid, kh, inp.task, inp.insights, inp.context, inp.symbol_keys, inp.text, inp.tags,
                               inp.metadata, now, now, None, None)
                   for mid, kh, inp, now in zip(mids, hashes, inputs, nows)]
        refs = self.blob.append_many([memory_blob_record(e) for e in entries])
        entries = [_with_blob(e, ref.offset, ref.length) for e, ref in zip(entries, refs)]
        tracker.memories.insert_many(conn, entries)
        return entries

    def _insert(self, conn: Any, inp: Any, now: float) -> MemoryEntry:
        """Allocate the id, append the blob record and insert the row (inside the caller's transaction)."""
        seq = self.tracker.next_seq(conn, "memory")
        salt = 0
        mid = derive_memory_id(now, seq, inp.text, salt)
        while self.tracker.keys.is_taken(conn, mid):
            salt += 1
            if salt > MAX_SALT:
                raise KeyCollision(f"no free memory id after {MAX_SALT} salts (last tried {mid!r}); "
                                   "is the key hash function degenerate?")
            mid = derive_memory_id(now, seq, inp.text, salt)
        kh = self.tracker.keys.register(conn, mid, "memory")
        entry = MemoryEntry(mid, kh, inp.task, inp.insights, inp.context, inp.symbol_keys, inp.text, inp.tags,
                            inp.metadata, now, now, None, None)
        ref = self.blob.append(memory_blob_record(entry))
        entry = _with_blob(entry, ref.offset, ref.length)
        self.tracker.memories.insert(conn, entry)
        return entry

    def _note(self, entry: MemoryEntry, rev: int) -> None:
        self.filter_index.note_write(entry.key_hash, labels_of(entry.task, entry.context, entry.insights,
                                                               entry.tags, entry.metadata), rev)

    def update_metadata(self, memory_id: str, updates: Any, *, replace_all: bool = False) -> MemoryEntry:
        """Merge `updates` into a memory's metadata (or replace it); appends a new blob record."""
        old = self.get(memory_id)
        if old is None:
            raise NotFound(f"no memory {memory_id!r}")
        upd = check_metadata(updates)
        if self.redactor is not None:
            upd = redact_value(upd, self.redactor)
        meta = check_metadata(upd if replace_all else {**old.metadata, **upd})
        now = self.clock.now()
        with self.tracker.tx() as conn:
            entry = replace(old, metadata=meta, updated_at=now)
            ref = self.blob.append(memory_blob_record(entry))
            entry = replace(entry, blob_offset=ref.offset, blob_length=ref.length)
            self.tracker.memories.update_metadata(conn, entry.key_hash, meta, now, ref.offset, ref.length)
            rev = memory_revision.bump(conn)
        self._note(entry, rev)
        return entry

    def delete(self, memory_id: str) -> bool:
        kh = self.tracker.hash_fn(check_memory_id(memory_id))
        with self.tracker.tx() as conn:
            row = self.tracker.memories.get(conn, kh)
            if row is None or row.id != memory_id:
                return False
            self.tracker.memories.delete(conn, kh)
            rev = memory_revision.bump(conn)
            self.vectors.remove(kh)
        self.filter_index.note_delete(kh, rev)
        return True

    # -- reading -----------------------------------------------------------------
    def get(self, memory_id: str) -> MemoryEntry | None:
        """Seed 000 §4.1: look the row up by hash64(memory_id)."""
        entry = self.tracker.get_memory_by_key(self.tracker.hash_fn(check_memory_id(memory_id)))
        return entry if entry is not None and entry.id == memory_id else None

    def filter(self, task: Any = None, context: Any = None, insights: Any = None, tags: Any = None,
               where_metadata: Any = None) -> MemoryFilter:
        """Validated filters (unknown slugs raise `UnknownSlug`)."""
        if isinstance(context, str) or isinstance(insights, str):
            raise InvalidArgument("context and insights filters must be lists of slugs, not a string")
        return MemoryFilter(task=check_task(task), context=tuple(check_context(context)),
                            insights=tuple(check_insights(insights)), tags=check_tags(tags),
                            where_metadata=check_where_metadata(where_metadata))

    def list(self, flt: MemoryFilter, limit: int = 50, offset: int = 0) -> list[MemoryEntry]:
        """Newest first (created_at descending, then id ascending)."""
        return self.tracker.memories.query(self.tracker.conn(), flt, order=ORDER_NEWEST,
                                           limit=_count("limit", limit), offset=_count("offset", offset))

    def iter(self, flt: MemoryFilter) -> Iterator[MemoryEntry]:
        """Oldest first, streamed in batches."""
        return self.tracker.memories.iter(self.tracker.conn(), flt)

    def search(self, query: str | None, flt: MemoryFilter, top_k: int = 10) -> list[SearchHit]:
        """Seed 000 §4.3: filter in SQL, then rank the candidates by cosine to the query.

        Without a query (or a blank one) the filtered memories come newest first
        with score 0.0. Candidates without a vector are left out of a ranked answer.
        """
        top_k = _count("top_k", top_k)
        if query is not None and not isinstance(query, str):
            raise InvalidArgument(f"query must be a string, got {type(query).__name__}")
        if query is None or not query.strip():
            return [SearchHit(e.id, "memory", 0.0, e) for e in self.list(flt, limit=top_k)]
        if top_k == 0:
            return []
        conn = self.tracker.conn()
        qvec = self.embed_query(query)
        if flt.empty:  # every memory is a candidate: the vector tags say which rows are memories
            pairs = self.vectors.topk(qvec, top_k, tags=[KIND_TAGS["memory"]], with_ties=True)
        else:
            cands = self.candidates(flt)
            if cands.size == 0:
                return []
            pairs = self.vectors.topk(qvec, top_k, allowed=cands, with_ties=True)
        entries = self.tracker.memories.get_many(conn, [h for h, _ in pairs])
        hits = [SearchHit(entries[h].id, "memory", s, entries[h]) for h, s in pairs if h in entries]
        hits.sort(key=lambda x: (-x.score, x.id))
        return hits[:top_k]

    @functools.cached_property
    def keyword_index(self) -> KeywordIndex:
        """bm25 rankings without FTS5's per-row work; follows the filter index's write notes."""
        index = KeywordIndex()
        self.filter_index.followers.append(index)
        return index

    @functools.cached_property
    def id_index(self) -> IdIndex:
        """key hash -> memory id from memory instead of SQL; follows the filter index's write notes."""
        index = IdIndex(self.tracker.memories)
        self.filter_index.followers.append(index)
        return index

    def candidates(self, flt: MemoryFilter) -> np.ndarray:
        """Key hashes (sorted uint64) of the memories passing `flt`, from the label index."""
        return self.filter_index.candidates(self.tracker.conn(), flt)

    def keyword(self, query: str, flt: MemoryFilter, top_k: int = 10) -> list[SearchHit]:
        """FTS5 bm25 over text and tags; score = -bm25 (higher is better)."""
        top_k = _count("top_k", top_k)
        match = fts_match(query)
        if match is None or top_k == 0:
            return []
        conn = self.tracker.conn()
        kept = ranked_matches(conn, match, top_k, None if flt.empty else self.candidates(flt), self.keyword_index)
        entries = self.tracker.memories.get_many(conn, [h for h, _ in kept])
        hits = [SearchHit(entries[h].id, "memory", s, entries[h]) for h, s in kept if h in entries]
        hits.sort(key=lambda x: (-x.score, x.id))
        return hits[:top_k]

    def ranked_ids(self, query: str, flt: MemoryFilter, k: int, *, keyword: bool = False) -> list[tuple[str, float]]:
        """(id, score) of `search` (cosine) or `keyword` (-bm25) without reading whole rows: the same
        ranking, best first, ties by id, for callers that need only the order (rank fusion)."""
        return self.ranked_lists(query, flt, k, keyword=keyword, vector=not keyword)[0 if keyword else 1]

    def ranked_lists(self, query: str, flt: MemoryFilter, k: int, *, keyword: bool = True, vector: bool = True
                     ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """(keyword list, vector list) as `ranked_ids` gives them (an empty list where not asked for),
        with one filter lookup and one id lookup for both."""
        k = _count("k", k)
        conn = self.tracker.conn()
        allowed = None if flt.empty else self.candidates(flt)
        if k == 0 or (allowed is not None and allowed.size == 0):
            return [], []
        kw_pairs: list[tuple[int, float]] = []
        vec_pairs: list[tuple[int, float]] = []
        if keyword and (match := fts_match(query)) is not None:
            kw_pairs = ranked_matches(conn, match, k, allowed, self.keyword_index)
        if vector:
            qvec = self.embed_query(query)
            vec_pairs = self.vectors.topk(qvec, k, allowed, tags=None if allowed is not None else [KIND_TAGS["memory"]],
                                          with_ties=True)
        ids = self.id_index.ids_of(conn, [h for h, _ in kw_pairs] + [h for h, _ in vec_pairs])

        def named(pairs: list[tuple[int, float]]) -> list[tuple[str, float]]:
            # (-score, id) tuples sort in C, without a key function; -(-s) is s, bit for bit
            return [(m, -s) for s, m in sorted([(-s, ids[h]) for h, s in pairs if h in ids])[:k]]
        return named(kw_pairs), named(vec_pairs)

    def vector_scores(self, query: str, memory_ids: list[str]) -> dict[str, float]:
        """Cosine of the query with each listed memory; ids without a vector are left out."""
        ids = [check_memory_id(m) for m in memory_ids]
        scores = self.vectors.scores(self.embed_query(query), [self.tracker.hash_fn(m) for m in ids])
        return {m: float(s) for m, s in zip(ids, scores) if not np.isnan(s)}

    def embed_query(self, query: str) -> np.ndarray:
        if not isinstance(query, str):
            raise InvalidArgument(f"query must be a string, got {type(query).__name__}")
        return self.embedder.embed([query])[0]
