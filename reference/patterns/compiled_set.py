"""Compile a `PatternSet` (or fetch it from the disk cache) and scan with it.

`compile_set` validates every pattern with `pattern_checker`, builds one
Hyperscan block-mode database (the set's flags, plus HS_FLAG_SOM_LEFTMOST on
the patterns whose match starts nothing else bounds, see `pattern_shape`) or
loads it from `DatabaseCache`, and returns a `CompiledSet` whose
`scan` gives `re.finditer`-exact matches (see `match_confirmer`), minus
those the set's allow-list vetoes (see `allow_list`).
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import hyperscan

from reference.patterns.allow_list import AllowList
from reference.patterns.database_cache import DatabaseCache, database_digest
from reference.patterns.errors import PatternError
from reference.patterns.match_confirmer import ConfirmPlan, confirm_events
from reference.patterns.pattern_checker import RejectedPattern, check_pattern, re_flags_of
from reference.patterns.pattern_cost import MAX_REPEAT_SET, CostRefused, check_cost, repeat_weight
from reference.patterns.pattern_match import PatternMatch
from reference.patterns.pattern_set import PatternSet

SCAN_SECONDS = 1.5        # one pattern tool call's scanning, so it answers within 2 s
SCAN_EVENTS = 1_000_000   # Hyperscan match events one call may confirm
HS_FLAGS = {"caseless": hyperscan.HS_FLAG_CASELESS, "dotall": hyperscan.HS_FLAG_DOTALL,
            "multiline": hyperscan.HS_FLAG_MULTILINE}


@dataclass
class CompileStats:
    """Counters a caller (or a test) can read: compiles done, cache hits, bad cache files."""

    compiled: int = 0
    cache_hits: int = 0          # loaded instead of compiled (from the data dir or from this process)
    cache_rejected: int = 0
    process_hits: int = 0        # of the hits, those served from this process's memory


class ScanBudget:
    """What one call (a `pattern_scan`, a `pattern_scan_memories` over many memories) may spend scanning:
    at most `events` Hyperscan match events and `seconds` of wall time, shared by every scan of the call.

    Hyperscan stops at the event cap from its own callback; the time is checked between `re`
    confirmations (`match_confirmer`), whose shapes `pattern_cost` keeps each one bounded. Past
    either, the scan raises `PatternError` naming the set and the budget, instead of running on."""

    def __init__(self, set_id: str, seconds: float = SCAN_SECONDS, events: int = SCAN_EVENTS) -> None:
        self.set_id, self.seconds, self.events = set_id, seconds, events
        self.deadline = time.perf_counter() + seconds

    def over(self, why: str) -> PatternError:
        return PatternError(f"pattern set {self.set_id!r}: scan stopped, {why} (the budget of one call: "
                            f"{self.seconds:g} s and {self.events:,} match events); narrow the patterns or "
                            f"the memories scanned", set_id=self.set_id, reason="scan budget exceeded")

    def check_time(self) -> None:
        if time.perf_counter() > self.deadline:
            raise self.over(f"over {self.seconds:g} s")


@dataclass
class CompiledSet:
    """A loaded set: its Hyperscan database and the `re` twins of its patterns."""

    definition: PatternSet
    database: hyperscan.Database
    plans: list[ConfirmPlan]
    allow: AllowList | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    min_width: int = 0   # no pattern matches fewer bytes (`re`'s own lower bound): shorter data holds no match

    def scan(self, data: bytes, budget: ScanBudget | None = None) -> list[PatternMatch]:
        """All matches of the set in `data`, sorted by (start, pattern index); within `budget` if given."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"pattern scan needs bytes, got {type(data).__name__} (encode text as UTF-8)")
        data = bytes(data)
        if len(data) < self.min_width:
            return []   # tags, short metadata values: no pattern fits, and confirmed matches are `re`'s
        events: list[tuple] = []
        append = events.append
        if budget is None:
            handler = lambda *ev: append(ev)  # noqa: E731 -- the hot path: no check per event
        else:
            budget.check_time()
            cap = budget.events

            def handler(*ev):
                append(ev)
                return len(events) >= cap       # True stops Hyperscan (ScanTerminated)
        with self._lock:  # one scratch per database; Hyperscan forbids concurrent use
            try:
                self.database.scan(data, match_event_handler=handler)
            except hyperscan.ScanTerminated:
                raise budget.over(f"more than {cap:,} match events in one text") from None
        if not events:
            return []   # most texts: nothing to confirm
        if budget is not None:
            budget.events -= len(events)
        pats, names = self.definition.patterns, self.definition.names
        found = confirm_events(events, self.plans, data, budget.check_time if budget is not None else None)
        if self.allow:
            found = [(s, i, e) for s, i, e in found if not self.allow.vetoed(i, data, *self.value_span(i, data, s, e))]
        return [PatternMatch(i, pats[i], s, e, names[i]) for s, i, e in found]

    def value_span(self, index: int, data: bytes, start: int, end: int) -> tuple[int, int]:
        """The span of the match's `secret` group when pattern `index` has one, else the match."""
        regex = self.plans[index].regex
        if "secret" in regex.groupindex:
            full = regex.match(data, start)
            if full is not None and full.end() == end and full.start("secret") >= 0:
                return full.span("secret")
        return start, end


def hs_flags_of(flags: list[str]) -> int:
    """Hyperscan flags for a set's flag names, start-of-match tracking included."""
    out = hyperscan.HS_FLAG_SOM_LEFTMOST
    for f in flags:
        out |= HS_FLAGS[f]
    return out


# digest -> serialised database, so each process compiles a given set once even when
# it opens many stores (tests, the harness replaying several scenarios)
_PROCESS_DATABASES: dict[str, bytes] = {}


def compile_set(ps: PatternSet, cache: DatabaseCache, stats: CompileStats) -> CompiledSet:
    """Validate, compile (or load from cache) and return the runnable set.

    Fills `ps.compiled_db` and `ps.digest`. Raises `PatternError` naming the
    set, the pattern index and the reason, including Hyperscan's own message.
    """
    re_flags, hs_flags = re_flags_of(ps.flags), hs_flags_of(ps.flags)
    plans, flags, widths = [], [], []
    weight = 0
    for i, pattern in enumerate(ps.patterns):
        try:
            regex, shape, tree = check_pattern(pattern, re_flags)
            check_cost(tree, re_flags)
        except (RejectedPattern, CostRefused) as exc:
            raise _pattern_error(ps, i, str(exc), _hyperscan_message(pattern, hs_flags)) from None
        weight += repeat_weight(tree)
        if weight > MAX_REPEAT_SET:
            raise PatternError(f"pattern set {ps.id!r}: its bounded repeats count {weight:,} items by pattern #{i}, "
                               f"more than {MAX_REPEAT_SET:,} for a set (Hyperscan's compile time grows with "
                               f"them); nothing of the set was loaded", set_id=ps.id, index=i,
                               reason="bounded repeats too large")
        # start-of-match tracking slows Hyperscan; ask for it only where nothing else bounds a start
        plans.append(ConfirmPlan(regex, shape.needs_som, shape.max_width or 0, shape.newline_free))
        widths.append(shape.min_width)
        flags.append(hs_flags if shape.needs_som else hs_flags & ~hyperscan.HS_FLAG_SOM_LEFTMOST)
    digest = database_digest(ps.patterns, flags)
    payload = cache.get(digest)
    database = _load(payload) if payload is not None else None
    if database is None and cache.exists(digest):  # present but torn, corrupt or from another engine build
        stats.cache_rejected += 1
    if database is None and cache.folder is not None and digest in _PROCESS_DATABASES:
        # compiled already in this process for another data directory: reuse, and fill this cache too
        payload = _PROCESS_DATABASES[digest]
        database = _load(payload)
        cache.put(digest, payload)
        stats.process_hits += 1
    if database is not None:
        stats.cache_hits += 1
    else:
        database = _compile(ps, flags)
        stats.compiled += 1
        payload = hyperscan.dumpb(database)
        cache.put(digest, payload)
    if cache.folder is not None:  # no data dir means no caching at all, in memory too
        _PROCESS_DATABASES[digest] = payload
    ps.compiled_db, ps.digest = payload, digest
    return CompiledSet(ps, database, plans, AllowList(ps.allow, ps.names), min_width=min(widths, default=0))


def _compile(ps: PatternSet, flags: list[int]) -> hyperscan.Database:
    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    exprs = [p.encode("utf-8") for p in ps.patterns]
    try:
        db.compile(expressions=exprs, ids=list(range(len(exprs))), elements=len(exprs), flags=flags)
    except hyperscan.error as exc:
        # the bindings drop the failing expression's index: find it one by one
        for i, p in enumerate(ps.patterns):
            msg = _hyperscan_message(p, flags[i])
            if msg:
                why = "it can match the empty string" if "empty buffer" in msg else "Hyperscan rejects it"
                raise _pattern_error(ps, i, why, msg) from None
        raise PatternError(f"pattern set {ps.id!r}: Hyperscan cannot compile the set: {exc}",
                           set_id=ps.id, reason=str(exc)) from None
    return db


def _load(payload: bytes) -> hyperscan.Database | None:
    try:
        db = hyperscan.loadb(payload, hyperscan.HS_MODE_BLOCK)
        db.scratch = hyperscan.Scratch(db)  # a deserialised database comes without one
        return db
    except hyperscan.error:
        return None


def _hyperscan_message(pattern: str, hs_flags: int) -> str | None:
    """Hyperscan's error for `pattern` alone, or None if it compiles."""
    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    try:
        db.compile(expressions=[pattern.encode("utf-8")], ids=[0], elements=1, flags=[hs_flags])
    except hyperscan.error as exc:
        return str(exc.args[0]) if exc.args else str(exc)
    return None


def _pattern_error(ps: PatternSet, index: int, reason: str, hs_message: str | None) -> PatternError:
    engine = f"Hyperscan says: {hs_message}" if hs_message else "Hyperscan accepts it but would read it differently"
    msg = f"pattern set {ps.id!r}, pattern #{index} {ps.patterns[index]!r}: {reason} ({engine}); nothing of the set was loaded"
    return PatternError(msg, set_id=ps.id, index=index, reason=f"{reason}; {engine}")
