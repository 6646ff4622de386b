"""`PatternSetManager`: load, cache, list and scan pattern sets (seed 000 §1.2).

Built-in sets from `builtin/` are loaded at start. Compiled databases are
cached under `<data_dir>/patterns/` (see `database_cache`), so a second start
loads them without compiling. Loading is all-or-nothing per set: a bad
pattern raises `PatternError` and the set's previous version, if any, stays.

Scans return `re.finditer`-exact matches (see `match_confirmer`) and emit one
`query` telemetry event each; the timestamp comes from the injected clock.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from reference.clock import Clock, SystemClock
from reference.patterns.compiled_set import CompiledSet, CompileStats, ScanBudget, compile_set
from reference.patterns.database_cache import DatabaseCache
from reference.patterns.definition_secrets import screen_definition
from reference.patterns.errors import PatternError, UnknownPatternSet
from reference.patterns.pattern_match import PatternMatch
from reference.patterns.pattern_set import PatternSet, parse_definition, read_definition_file
from reference.patterns.redactor import Redactor
from reference.telemetry import NullSink, TelemetryEvent, TelemetrySink

BUILTIN_DIR = Path(__file__).parent / "builtin"
SECRETS_SET = "pat:secrets"
DEFINITION_SUFFIXES = (".json", ".toml")


class PatternSetManager:
    """Named Hyperscan pattern sets, cached on disk under `data_dir` (None: no cache).

    `telemetry` receives a `query` event per scan; `clock` stamps it
    (default: wall time, for interactive use). `builtins=False` starts empty.
    `stats` counts compiles, cache hits and rejected cache files.
    """

    def __init__(self, data_dir: str | Path | None, telemetry: TelemetrySink | None = None, *,
                 clock: Clock | None = None, builtins: bool = True) -> None:
        self.data_dir = Path(data_dir) if data_dir is not None else None
        self.telemetry = telemetry if telemetry is not None else NullSink()
        self.clock = clock if clock is not None else SystemClock()
        self.stats = CompileStats()
        self._cache = DatabaseCache(self.data_dir / "patterns" if self.data_dir is not None else None)
        self._sets: dict[str, CompiledSet] = {}
        self._lock = threading.Lock()
        self._secrets_redactor: tuple[CompiledSet, Any] | None = None
        if builtins:
            self.load_dir(BUILTIN_DIR)

    # loading

    def load(self, definition: dict[str, Any]) -> PatternSet:
        """Compile (or fetch from cache) and install one set, replacing any set with its id.

        The definition is screened first (`screened`): a secret in its description or
        tags is redacted, one in its id, names or regexes refuses the set.
        """
        compiled = compile_set(parse_definition(self.screened(definition)), self._cache, self.stats)
        with self._lock:
            self._sets[compiled.definition.id] = compiled
        return compiled.definition

    def screened(self, definition: Any) -> Any:
        """`definition` as it may be stored (definition_secrets.py), by this manager's `pat:secrets`.

        Without a `pat:secrets` set (`builtins=False`) the definition passes unchanged.
        """
        if SECRETS_SET not in self._sets:
            return definition
        if self._secrets_redactor is None or self._secrets_redactor[0] is not self._sets[SECRETS_SET]:
            redactor = Redactor(self, SECRETS_SET)
            self._secrets_redactor = (self._sets[SECRETS_SET], redactor.redact)
        return screen_definition(definition, self._secrets_redactor[1])

    def load_file(self, path: str | Path) -> PatternSet:
        """Load one `.json` or `.toml` definition file."""
        compiled = self._compile_file(Path(path))
        with self._lock:
            self._sets[compiled.definition.id] = compiled
        return compiled.definition

    def load_dir(self, path: str | Path) -> list[PatternSet]:
        """Load every `.json` / `.toml` file of a folder (not recursive), in name order.

        All or nothing: if any file is bad or two files share an id, a
        `PatternError` names the file and no set of the folder is installed.
        """
        folder = Path(path)
        if not folder.is_dir():
            raise PatternError(f"{folder}: not a folder of pattern-set definitions")
        files = sorted(p for p in folder.iterdir() if p.suffix.lower() in DEFINITION_SUFFIXES and p.is_file())
        compiled: dict[str, CompiledSet] = {}
        origin: dict[str, Path] = {}
        for file in files:
            cs = self._compile_file(file)
            if cs.definition.id in compiled:
                raise PatternError(f"{file}: pattern set {cs.definition.id!r} is also defined in {origin[cs.definition.id]}",
                                   set_id=cs.definition.id)
            compiled[cs.definition.id], origin[cs.definition.id] = cs, file
        with self._lock:
            self._sets.update(compiled)
        return [cs.definition for cs in compiled.values()]

    def _compile_file(self, path: Path) -> CompiledSet:
        definition = read_definition_file(path)
        try:
            return compile_set(parse_definition(definition, source=str(path)), self._cache, self.stats)
        except PatternError as exc:
            if str(path) in str(exc):
                raise
            raise PatternError(f"{path}: {exc}", set_id=exc.set_id, index=exc.index, reason=exc.reason) from None

    # lookup

    def list(self) -> list[dict[str, Any]]:
        """Metadata of every loaded set, sorted by id (the `pattern_list` tool's answer)."""
        with self._lock:
            sets = sorted(self._sets.values(), key=lambda cs: cs.definition.id)
        return [cs.definition.info() for cs in sets]

    def get(self, pattern_set_id: str) -> PatternSet:
        """The loaded `PatternSet`; `UnknownPatternSet` lists the loaded ids if absent."""
        return self.compiled(pattern_set_id).definition

    def compiled(self, pattern_set_id: str) -> CompiledSet:
        """The runnable set (database and `re` twins), for callers such as `Redactor`."""
        with self._lock:
            cs = self._sets.get(pattern_set_id)
            if cs is None:
                raise UnknownPatternSet(pattern_set_id, list(self._sets))
        return cs

    def __contains__(self, pattern_set_id: object) -> bool:
        with self._lock:
            return pattern_set_id in self._sets

    # scanning

    def scan(self, pattern_set_id: str, data: bytes, *, target: str | None = None,
             emit: bool = True, budget: ScanBudget | None = None) -> list[PatternMatch]:
        """Matches of the set in `data` (bytes; offsets are byte offsets), sorted by (start, index).

        `target` (a key or memory id) is recorded as the event's memory_id;
        `emit=False` skips the telemetry event (used by redaction); `budget` bounds the scan
        (`PatternError` past it; the MCP tools pass one, `ScanBudget(set_id)`).
        """
        cs = self.compiled(pattern_set_id)
        t0 = time.perf_counter()
        matches = cs.scan(data, budget)
        if emit:
            self._emit(pattern_set_id, target, t0, {"bytes": len(data), "matches": len(matches)})
        return matches

    def scan_many(self, pattern_set_id: str, items: Iterable[tuple[str, bytes]], *,
                  budget: ScanBudget | None = None) -> list[tuple[str, list[PatternMatch]]]:
        """Scan each `(id, bytes)` item (memories, seed 000 §4.4); keep those that match, in input order.

        `budget`, if given, is shared by every item's scan."""
        cs = self.compiled(pattern_set_id)
        t0 = time.perf_counter()
        out, count, size = [], 0, 0
        for item_id, data in items:
            matches = cs.scan(data, budget)
            count, size = count + 1, size + len(data)
            if matches:
                out.append((item_id, matches))
        self._emit(pattern_set_id, None, t0, {"bytes": size, "items": count, "matched_items": len(out),
                                              "matches": sum(len(m) for _, m in out)})
        return out

    def _emit(self, pattern_set_id: str, target: str | None, t0: float, extra: dict[str, Any]) -> None:
        self.telemetry.emit(TelemetryEvent(
            op="query", memory_id=target, entity_type="pattern_set", scope=pattern_set_id, run_id=None,
            task_id=None, timestamp=self.clock.now(), latency_ms=(time.perf_counter() - t0) * 1000.0,
            extra={"pattern_set": pattern_set_id, **extra}))
