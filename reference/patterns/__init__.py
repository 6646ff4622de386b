"""PatternSets on Hyperscan (seed 000 §1, §4.4, §5.2) and secret redaction (seed 002).

    from reference.patterns import PatternSetManager, Redactor

    manager = PatternSetManager(data_dir, telemetry=sink, clock=clock)
    manager.load({"id": "pat:todo", "patterns": [r"TODO\\(\\w+\\)"]})
    manager.scan("pat:security-smells", source_bytes)       # -> list[PatternMatch]
    manager.scan_many("pat:secrets", [(mem_id, body), ...])  # -> [(mem_id, matches)]
    Redactor(manager).redact(text)                           # -> RedactionResult(text, hits)

Match semantics, cache format and definition format: README.md.
"""
from reference.patterns.compiled_set import CompiledSet, CompileStats
from reference.patterns.errors import PatternError, UnknownPatternSet
from reference.patterns.pattern_match import PatternMatch
from reference.patterns.pattern_set import PatternSet, parse_definition, read_definition_file
from reference.patterns.pattern_set_manager import BUILTIN_DIR, PatternSetManager
from reference.patterns.redactor import MARKER, RedactionHit, RedactionResult, Redactor

__all__ = [
    "BUILTIN_DIR", "CompileStats", "CompiledSet", "MARKER", "PatternError", "PatternMatch", "PatternSet",
    "PatternSetManager", "RedactionHit", "RedactionResult", "Redactor", "UnknownPatternSet",
    "parse_definition", "read_definition_file",
]
