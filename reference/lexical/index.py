"""`LexicalIndex`: Okapi BM25 over code-aware terms (`terms.py`), in memory, rows numbered in write order.

    index = LexicalIndex()
    index.add("mem:1", "Fix Table.insert_all in sqlite_utils/db.py")
    scores = index.bm25("insert_all bug", k1=1.2, b=0.4)   # float64 array by row, 0 where nothing matched

Scores: idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)) (Lucene's, never
negative); each distinct query term adds idf * tf * (k1 + 1) / (tf + k1 *
(1 - b + b * len / avglen)). `k1` and `b` are the caller's (fitted on the
calibration split: `params.py`). N, df and avglen count live rows only.

Rows are numbered 0, 1, 2, ... in the order memories were added, so a row
number is also the memory's place in the write order. Each row also keeps a
*tick*: the count of write moments up to it, a moment being the writes made
less than `moment` seconds (`params.MOMENT`, fitted) after its first one; a
row without a time is a moment of its own. `recency.py` counts ages in
ticks: memories written in one sitting (a batch of notes, a commit and its
hunks) are equally recent. A removed row keeps its number and drops out of
N, df, avglen and every answer. Each row also keeps its distinct entities (`terms.entity_terms`:
files, and with `definitions` the functions and classes it names), with
postings of their own (`entity_postings`, not counted in BM25), which
`expansion.py` follows; `entity_paths` is a small BM25 index over the
entities themselves (each file's path terms, one row per file first seen),
through which a query finds the files its words name (`expansion.named_files`).
Each row also says whether its memory is a *commit*: one that records the files
it changed (`commits()`; the layer sets it from the memory's `files_changed`),
as opposed to a note that may only name files; `ranking.fuse` scopes the
recency prior by it (`LexicalParams.note_prior`).

The index is the caller's to keep in step with the memories it mirrors
(`layer.py` does it for a store); it is not thread-safe by itself.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

import numpy as np

from reference.lexical.params import MOMENT
from reference.lexical.postings import Postings
from reference.lexical.recency import recency_tail
from reference.lexical.terms import entity_terms, index_terms, is_entity

WEIGHT_CACHE_BYTES = 64 << 20   # the query terms' posting weights kept between searches (`_term_weights`)
# a term held by more than this share of the rows has its weights kept spread over every row: adding a dense
# array is a streaming pass, where gathering and scattering ~50k postings at 100k rows cost ~0.3 ms a term
DENSE_SHARE = 1 / 16
# from this many documents `add_many` groups its postings by term; below it, `add` one at a time costs less (the
# grouping's fixed numpy work outweighs it: at 2k-22k rows of synthetic memories, 76 against 37 µs a document for
# one, 79 against 74 for 200, 66 against 85 for 1,000, 51 against 76 for 5,000)
BULK_MIN_DOCS = 500


def lucene_idf(n: int, df: int) -> float:
    """Lucene's BM25 idf of a term held by `df` of `n` documents: ln(1 + (n - df + 0.5) / (df + 0.5)), never negative."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


class LexicalIndex:
    """BM25 postings, document lengths and per-row entities of a growing set of documents (see module doc)."""

    def __init__(self, definitions: bool = False, entity_paths: bool = True, moment: float = MOMENT) -> None:
        self.definitions = definitions
        self.moment = moment
        self.entity_paths = LexicalIndex(entity_paths=False) if entity_paths else None   # entity -> its path terms
        self.postings: dict[str, Postings] = {}
        self.entity_postings: dict[str, Postings] = {}
        self.ids: list[str] = []               # row -> document id
        self.row_of: dict[str, int] = {}       # live document id -> row
        self.entities: list[tuple[str, ...]] = []   # row -> distinct entity terms
        self._terms: list[tuple[str, ...]] = []     # row -> distinct terms (to undo df on removal)
        self._len = np.zeros(64, dtype=np.float64)  # row -> term count (0 once removed)
        self._alive = np.zeros(64, dtype=bool)
        self._ticks = np.zeros(64, dtype=np.int64)  # row -> write-time tick (see module doc)
        self._commits = np.zeros(64, dtype=bool)    # row -> the memory records the files it changed
        self._moment_start: float | None = None    # the time of the current moment's first write
        self.live = 0
        self.total = 0.0
        # (term, k1, b, dense) -> (the statistics it was computed at, each posting's BM25 weight, or with dense
        # every row's): a query term's weights are a pure function of those statistics, so they are reused
        # until a write or removal moves them
        self._weights: dict[tuple[str, float, float, bool], tuple[tuple, np.ndarray]] = {}
        self._weight_bytes = 0
        self._tail: tuple | None = None   # ((rows, scale), start, values) of the last `recency_tail`

    def __len__(self) -> int:
        return self.live

    @property
    def rows(self) -> int:
        """Rows ever added (live or removed): one past the newest row number."""
        return len(self.ids)

    def add(self, doc: str, text: str, time: float | None = None, commit: bool = False) -> int:
        """Index `doc` (a new id) with `text`, written at `time` (None: a time of its own), a commit or not
        (module doc); its row number. An id already live is refused."""
        if doc in self.row_of:
            raise ValueError(f"lexical index: {doc!r} is already indexed")
        counts = Counter(index_terms(text))
        row = self._new_row(time)
        length = float(sum(counts.values()))
        for term, tf in counts.items():
            post = self.postings.get(term)
            if post is None:
                post = self.postings[term] = Postings()
            post.append(row, tf, length)
        self._fill_row(row, doc, text, counts, length)
        self._len[row] = length
        self._alive[row] = True
        self._commits[row] = commit
        return row

    def add_many(self, docs: Iterable[tuple[str, str, float | None]], commits: Iterable[bool] | None = None
                 ) -> list[int]:
        """`add` for each (doc, text, time) in order (`commits`: each one's `commit`, default none), their row
        numbers: the same index, with each term's
        postings appended in one step instead of one entry at a time (a first build at 100k memories makes
        ~3.5M entries, and a call per entry cost ~3.5 s of its ~12); under `BULK_MIN_DOCS` documents, `add`
        for each. A repeated or live id is refused before anything is added."""
        docs = list(docs)
        flags = [False] * len(docs) if commits is None else [bool(c) for c in commits]
        if len(flags) != len(docs):
            raise ValueError(f"lexical index: {len(flags)} commit flags for {len(docs)} documents")
        seen: set[str] = set()
        for doc, _, _ in docs:
            if doc in self.row_of or doc in seen:
                raise ValueError(f"lexical index: {doc!r} is already indexed")
            seen.add(doc)
        if len(docs) < BULK_MIN_DOCS:
            return [self.add(doc, text, time, commit) for (doc, text, time), commit in zip(docs, flags)]
        terms: list[str] = []   # every (row, term) entry, row by row, terms in first-seen order
        tfs: list[int] = []
        widths: list[int] = []  # entries per row
        lengths: list[float] = []
        rows = []
        for doc, text, time in docs:
            counts = Counter(index_terms(text))
            row = self._new_row(time)
            length = float(sum(counts.values()))
            terms.extend(counts)
            tfs.extend(counts.values())
            widths.append(len(counts))
            lengths.append(length)
            self._fill_row(row, doc, text, counts, length)
            rows.append(row)
        self._len[rows] = lengths
        self._alive[rows] = True
        self._commits[rows] = flags
        if terms:
            self._append_postings(terms, np.asarray(tfs, dtype=np.float64), np.asarray(rows, dtype=np.int32),
                                  np.asarray(lengths, dtype=np.float64), np.asarray(widths, dtype=np.int64))
        return rows

    def _append_postings(self, terms: list[str], tfs: np.ndarray, rows: np.ndarray, lengths: np.ndarray,
                         widths: np.ndarray) -> None:
        """Append the entries (terms[i], tfs[i]) of rows given as each row's number, length and entry count:
        grouped by term (a stable sort, so each term's rows stay in order), one `Postings.extend` a term, which
        keeps its slices of the grouped arrays (read-only) instead of copying them."""
        code = {t: i for i, t in enumerate(dict.fromkeys(terms))}   # first-seen order
        ids = np.fromiter(map(code.__getitem__, terms), dtype=np.int64, count=len(terms))
        order = np.argsort(ids, kind="stable")
        ends = np.cumsum(np.bincount(ids, minlength=len(code)))
        entry_rows, entry_lens = np.repeat(rows, widths)[order], np.repeat(lengths, widths)[order]
        entry_tfs = tfs[order]
        for grouped in (entry_rows, entry_tfs, entry_lens):
            grouped.flags.writeable = False
        start, postings = 0, self.postings
        for term, end in zip(code, ends.tolist()):   # terms in first-seen order, as `add` creates them
            post = postings.get(term)
            if post is None:
                post = postings[term] = Postings()
            post.extend(entry_rows[start:end], entry_tfs[start:end], entry_lens[start:end])
            start = end

    def _new_row(self, time: float | None) -> int:
        """The next row's number, its arrays grown and its tick set from `time` (module doc)."""
        row = len(self.ids)
        if row >= self._len.size:
            self._len = np.concatenate([self._len, np.zeros(self._len.size)])
            self._alive = np.concatenate([self._alive, np.zeros(self._alive.size, dtype=bool)])
            self._ticks = np.concatenate([self._ticks, np.zeros(self._ticks.size, dtype=np.int64)])
            self._commits = np.concatenate([self._commits, np.zeros(self._commits.size, dtype=bool)])
        start = self._moment_start
        same = time is not None and start is not None and start <= time and (time == start or time - start < self.moment)
        if row:
            self._ticks[row] = self._ticks[row - 1] + (0 if same else 1)
        if not same:
            self._moment_start = time
        return row

    def _fill_row(self, row: int, doc: str, text: str, counts: Counter, length: float) -> None:
        """A new row's id, terms, entities (with their postings) and counts; its caller writes its length and
        liveness into the arrays (one at a time or all at once) and its term postings."""
        self.ids.append(doc)
        self.row_of[doc] = row
        self._terms.append(tuple(counts))
        # entity_terms' files are the entity terms among these, in first-seen order: no second tokenising
        ents = tuple(entity_terms(text, True)) if self.definitions else tuple(filter(is_entity, counts))
        for ent in ents:
            post = self.entity_postings.get(ent)
            if post is None:
                post = self.entity_postings[ent] = Postings()
                if self.entity_paths is not None and not ent.startswith("def:"):
                    self.entity_paths.add(ent, ent)
            post.append(row, 1)
        self.entities.append(ents)
        self.live += 1
        self.total += length

    def remove(self, doc: str) -> bool:
        """Drop `doc` from every answer and statistic; False if it was not indexed."""
        row = self.row_of.pop(doc, None)
        if row is None:
            return False
        for term in self._terms[row]:
            self.postings[term].live -= 1
        for ent in self.entities[row]:
            self.entity_postings[ent].live -= 1
        self.total -= self._len[row]
        self._len[row] = 0.0
        self._alive[row] = False
        self.live -= 1
        return True

    def alive(self) -> np.ndarray:
        """Bool by row: live rows."""
        return self._alive[: self.rows]

    def commits(self) -> np.ndarray:
        """Bool by row: the row's memory records the files it changed (module doc)."""
        return self._commits[: self.rows]

    def set_commit(self, row: int, commit: bool) -> None:
        """Mark row `row` a commit or a note (its memory's metadata changed: a note bound to the commit that
        landed); the arrays `commits` handed out see it (views). A caller keeping answers derived from the
        flags drops them."""
        if not 0 <= row < self.rows:
            raise IndexError(f"lexical index: no row {row} (rows 0..{self.rows - 1})")
        self._commits[row] = bool(commit)

    def ticks(self) -> np.ndarray:
        """Int64 by row: the row's write-time tick (non-decreasing; module doc)."""
        return self._ticks[: self.rows]

    def recency_tail(self, scale: float) -> tuple[int, np.ndarray]:
        """`recency.recency_tail` over this index's ticks: (start, read-only values), kept until a row is added.

        A row's tick never changes once added, so the prior depends only on the row count and `scale`; its
        `exp` is computed once per write instead of once per search (memories written in one moment share a
        tick, and at 100k such rows the prior spans every row: ~0.3 ms a search)."""
        key = (self.rows, scale)
        if self._tail is None or self._tail[0] != key:
            start, values = recency_tail(self.rows, scale, self.ticks())
            values.flags.writeable = False
            self._tail = (key, start, values)
        return self._tail[1], self._tail[2]

    def terms(self, row: int) -> tuple[str, ...]:
        """The distinct terms of row `row`'s text, in first-seen order (a removed row keeps them)."""
        return self._terms[row]

    def idf(self, term: str, entity: bool = False) -> float:
        """Lucene's idf of `term` (of an entity, with `entity`) among live rows (0.0 if unknown or empty)."""
        post = (self.entity_postings if entity else self.postings).get(term)
        if post is None or post.live == 0 or self.live == 0:
            return 0.0
        return lucene_idf(self.live, post.live)

    def bm25(self, query: str, k1: float, b: float, max_share: float = 1.0) -> np.ndarray:
        """BM25 of every row for `query` (float64 by row; 0 for unmatched and removed rows).

        A query term held by more than `max_share` of the live rows is left out (a stop word of this
        corpus: its idf is small and its postings are the longest), unless every matching term is.
        """
        acc = np.zeros(self.rows, dtype=np.float64)
        if self.live == 0:
            return acc
        avg = max(self.total / self.live, 1e-9)
        base, per_len = k1 * (1.0 - b), k1 * b / avg    # k1 * (1 - b + b * len / avg) = base + per_len * len
        matched = [(t, p) for t in dict.fromkeys(index_terms(query)) if (p := self.postings.get(t)) is not None and p.live]
        kept = [(t, p) for t, p in matched if p.live <= max_share * self.live] or matched
        for term, post in kept:
            if post.n > DENSE_SHARE * self.rows:
                acc += self._term_weights(term, post, k1, b, base, per_len, dense=True)
            else:
                acc[post.rows()] += self._term_weights(term, post, k1, b, base, per_len)
        if self.live < self.rows:     # removed rows (none: nothing to clear)
            acc[~self.alive()] = 0.0
        return acc

    def _term_weights(self, term: str, post: Postings, k1: float, b: float, base: float, per_len: float,
                      dense: bool = False) -> np.ndarray:
        """Each posting's BM25 weight for `term`, kept (up to `WEIGHT_CACHE_BYTES`) while N, the total length
        and the term's postings stay as they were: the same floats, computed once per state.

        With `dense`, the weights spread over every row (0.0 where the term is absent): adding 0.0 leaves a
        float as it was, so a dense add gives the sums of the sparse one bit for bit.
        """
        key, stamp = (term, k1, b, dense), (self.live, self.total, post.n, post.live, self.rows)
        hit = self._weights.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        tf = post.tfs()
        w = (self.idf(term) * (k1 + 1.0)) * tf / (tf + (base + per_len * post.lengths()))
        if dense:
            spread = np.zeros(self.rows, dtype=np.float64)
            spread[post.rows()] = w
            w = spread
        if hit is not None:
            self._weight_bytes -= hit[1].nbytes
            del self._weights[key]
        if w.nbytes <= WEIGHT_CACHE_BYTES // 4:
            while self._weights and self._weight_bytes + w.nbytes > WEIGHT_CACHE_BYTES:
                self._weight_bytes -= self._weights.pop(next(iter(self._weights)))[1].nbytes
            self._weights[key] = (stamp, w)
            self._weight_bytes += w.nbytes
        return w
