"""Seed 001 §3 `findRelationships`: link a new memory to earlier ones (no LLM).

For a new memory N (source) and each earlier memory O (target):
1. similarity (cosine of the store's vectors, the `VECTOR_CANDIDATES`
   nearest): s > `UPDATE_THRESHOLD` -> `updates` if `contradiction(O, N)`
   fires, else `extends`; `RELATE_THRESHOLD` < s <= `UPDATE_THRESHOLD` ->
   `relates_to`; confidence = s. Same subject: when both memories name
   files, directories, symbols or modules (`SUBJECT_TYPES`) and share none
   of them, or both texts hold identifier-like names (`names.py`: `comp3`,
   `max_retries`, `README.md`) and share none, they are about different
   things - the same sentence about another file or component is no update -
   so a pair above the update threshold is only `relates_to`
   (`metadata.differentSubjects`). So are two whose writers declared the
   entities they are about (seed 004 §4.1 `metadata.entity_slugs`, what
   Memory Lane stores) and declared none in common. The seed's 0.8 / 0.5 were set for
   sentence embeddings; here both are fitted on the calibration split (0.85 / 0.5;
   reference/knowledge/README.md, "Thresholds").
2. markers (paraphrases): similarity misses an update or extension that
   is reworded, so when N carries an explicit supersede marker (see
   `contradiction`) or an additive one ("also", "additionally", "in
   addition", "furthermore", "moreover", "as well"), the one earlier memory
   that shares a subject entity with N and is most similar to it (cosine at
   least `MARKER_MIN_SIMILARITY`, ties newest) gets `updates` (supersede
   marker, not already in its own text) or `extends` (additive marker);
   confidence = the cosine, `metadata.reason` the marker.
3. shared entities: O mentions an entity N mentions (entity types in
   `NOT_SHARED` excluded: a shared date says nothing about the topic) ->
   `relates_to`, confidence 0.6, `metadata.sharedEntities`; at most
   `MAX_SHARED_LINKS` targets, most shared entities first, then newest.
   Candidates come from the index on mentions: per entity of N only the
   `SHARED_CANDIDATES_PER_ENTITY` most recently ingested memories naming it
   (bounded work per write, whatever the store's size; "newest" is ingest
   order). Rules 2 and 4 draw on the same candidates.
4. derives: N has a conclusion marker ("therefore", "thus", "hence", "so we
   conclude", "which means", "this means", "combining", "together these",
   "conclusion") and its entities are named by two or more distinct earlier
   memories: for each of N's entities in text order, the earlier memory
   sharing the most of N's entities (then newest) that mentions it and is
   not yet chosen; with two or more chosen, each gets `derives`,
   confidence 0.7, `metadata.via` the entity (at most `MAX_DERIVED_FROM`).
A pair keeps one relationship: updates > extends > derives > relates_to.
"""
from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from typing import Any

from reference.knowledge import entity_table
from reference.knowledge.contradiction import (ADDITIVE_WORDS, MARKER_WORDS, additive_marker, contradiction, may_match,
                                              supersede_marker)
from reference.knowledge import relationship_rows as rr
from reference.knowledge.model import RELATION_PRIORITY, Relationship
from reference.knowledge.names import different_names, names
from reference.knowledge.relationship_rows import to_relationship
from reference.memories.record import MemoryEntry

UPDATE_THRESHOLD = 0.85  # seed 001's 0.8; fitted on the calibration split by bench/calibration/knowledge.py
RELATE_THRESHOLD = 0.5  # the seed's; bench/calibration/knowledge.py finds no better value on the calibration split
MARKER_MIN_SIMILARITY = 0.5  # fitted on the calibration split by bench/calibration/knowledge.py (no seed value)
VECTOR_CANDIDATES = 10
MAX_SHARED_LINKS = 10
SHARED_CANDIDATES_PER_ENTITY = 50   # newest documents read per shared entity (an indexed LIMIT, not a scan)
MAX_DERIVED_FROM = 3
SHARED_CONFIDENCE = 0.6
DERIVES_CONFIDENCE = 0.7
NOT_SHARED = ("time",)
SUBJECT_TYPES = ("file", "dir", "symbol", "module")
_CONCLUSION = re.compile(r"\b(therefore|thus|hence|so we conclude|which means|this means|combining|"
                         r"together these|conclusion)\b", re.I)
_CONCLUSION_WORDS = ("therefore", "thus", "hence", "conclu", "which means", "this means", "combining", "together these")
_ANY_MARKER_WORDS = _CONCLUSION_WORDS + MARKER_WORDS + ADDITIVE_WORDS
_NONE: frozenset[str] = frozenset()

Similar = Callable[[MemoryEntry, int, Callable[[str], bool]], list[tuple[MemoryEntry, float]]]
Cosines = Callable[[MemoryEntry, list[str]], dict[str, float]]


class RelationshipBuilder:
    """Finds the relationships of one new memory.

    `similar(entry, k, eligible)` gives its (memory with `.id` and `.text`, cosine) nearest
    neighbours; `cosines(entry, ids)` the cosine with each listed memory.
    """

    def __init__(self, similar: Similar, cosines: Cosines, update_threshold: float = UPDATE_THRESHOLD,
                 relate_threshold: float = RELATE_THRESHOLD) -> None:
        self.similar, self.cosines = similar, cosines
        self.update_threshold, self.relate_threshold = update_threshold, relate_threshold

    def build(self, conn: sqlite3.Connection, entry: MemoryEntry, eligible: Callable[[str], bool],
              created_at: str, neighbours: list[tuple[Any, float]] | None = None,
              before_mention: int | None = None, known: "KnownEntities | None" = None) -> list[Relationship]:
        """The relationships of `entry` (source) to earlier memories (`rows`, as records)."""
        return [to_relationship(r) for r in self.rows(conn, entry, eligible, created_at, neighbours,
                                                      before_mention, known)]

    def rows(self, conn: sqlite3.Connection, entry: MemoryEntry, eligible: Callable[[str], bool],
             created_at: str, neighbours: list[tuple[Any, float]] | None = None,
             before_mention: int | None = None, known: "KnownEntities | None" = None) -> list[tuple]:
        """The relationships of `entry` as `relationships` rows (`relationship_rows.py`), by target id.

        `neighbours` are its vector neighbours when the caller found them already (a batch
        of live writes), else `similar` is asked; `before_mention` limits the shared-entity
        candidates to mention rows with a smaller id (the rows that existed when `entry`
        would have been written alone, for a batch whose later mentions are inserted already).
        `known` holds entity ids the caller has read already (a batch: one query for all).
        """
        found: dict[str, tuple] = {}
        prio = RELATION_PRIORITY

        def offer(row: tuple) -> None:
            cur = found.get(row[1])
            if cur is None or prio[row[2]] < prio[cur[2]]:
                found[row[1]] = row

        if neighbours is None:
            neighbours = self.similar(entry, VECTOR_CANDIDATES, eligible)
        source = entry.id
        if known is None:
            neighbours = [(o, s) for o, s in neighbours if o.id != source]
            subjects = _subjects(conn, [source] + [o.id for o, _ in neighbours])
            mine, of = subjects.get(source, set()), subjects.get
        else:
            mine, of = known.subjects(source), known.subjects
        update, relate = self.update_threshold, self.relate_threshold
        my_names: frozenset[str] | None = None   # read only when a neighbour is above the update threshold
        my_slugs: frozenset[str] = _NONE
        for other, sim in neighbours:
            target = other.id
            if sim > update:
                if target == source:
                    continue
                sim6 = round(sim, 6)
                theirs = of(target) or _NONE
                if my_names is None:
                    my_names, my_slugs = names(entry.text), declared_subjects(entry.metadata)
                if ((mine and theirs and not mine & theirs) or different_names(names(other.text), my_names)
                        or (my_slugs and different_names(self._declared(conn, target), my_slugs))):
                    offer(rr.different_subjects(source, target, sim6, created_at))
                    continue
                reason = contradiction(other.text, entry.text)
                offer(rr.similar(source, target, "updates" if reason else "extends", sim6, reason or None,
                                 created_at))
            elif sim > relate and target != source and target not in found:   # relates_to never outranks a row
                # most rows of a write: `rr.relates` inlined, the rounding and its JSON in one formatting
                sim6, text = rr.rounded(sim)
                found[target] = (source, target, "relates_to", sim6, '{"similarity":' + text + "}", created_at)
        shared_ids = None if known is None else known.shared(source)
        cands = {} if shared_ids == [] else {
            d: v for d, v in entity_table.sharing_candidates(conn, source, NOT_SHARED, SHARED_CANDIDATES_PER_ENTITY,
                                                             before_mention, shared_ids).items() if eligible(d)}
        if not cands and not found:
            return []
        shared = {d: sorted(ents) for d, (ents, _) in cands.items()}
        # one lowercase scan for all three marker kinds; most texts carry none
        if may_match(entry.text, _ANY_MARKER_WORDS) and (
                _concludes(entry.text) or supersede_marker(entry.text) or additive_marker(entry.text)):
            order = {d: i for i, d in enumerate(sorted(cands, key=lambda d: (-cands[d][1], d)))}  # newest = 0
            marked = self._marked(conn, entry, shared, mine, order, created_at)
            if marked is not None:
                offer(marked)
            for row in self._derived(conn, entry, shared, order, created_at):
                offer(row)
        if cands:
            for doc, _ in entity_table.rank_sharing(cands)[:MAX_SHARED_LINKS]:
                if doc not in found:
                    found[doc] = rr.shared(source, doc, SHARED_CONFIDENCE, shared[doc], created_at)
        return [found[k] for k in sorted(found)]

    def _marked(self, conn: sqlite3.Connection, entry: MemoryEntry, shared: dict[str, list[str]], mine: set[str],
                order: dict[str, int], created_at: str) -> tuple | None:
        supersede, additive = supersede_marker(entry.text), additive_marker(entry.text)
        if not (supersede or additive):
            return None
        same_subject = sorted(d for d, ents in shared.items() if mine & set(ents))
        sims = {d: s for d, s in self.cosines(entry, same_subject).items() if s >= MARKER_MIN_SIMILARITY}
        if not sims:
            return None
        best = min(sims, key=lambda d: (-sims[d], order.get(d, 0), d))
        text = self._text(conn, best)
        marker = supersede_marker(entry.text, text)
        type_, reason = ("updates", "marker:" + marker) if marker else ("extends", "additive:" + (additive or ""))
        if type_ == "extends" and not additive:
            return None
        return rr.similar(entry.id, best, type_, round(sims[best], 6), reason, created_at)

    @staticmethod
    def _declared(conn: sqlite3.Connection, memory_id: str) -> frozenset[str]:
        # json_extract gives an array as JSON text (a string member as the bare string: only arrays count)
        row = conn.execute("SELECT json_extract(metadata, '$.entity_slugs') FROM memories WHERE id = ? "
                           "AND json_type(metadata, '$.entity_slugs') = 'array'", (memory_id,)).fetchone()
        return declared_subjects({"entity_slugs": json.loads(row[0])}) if row else _NONE

    @staticmethod
    def _text(conn: sqlite3.Connection, memory_id: str) -> str:
        row = conn.execute("SELECT text FROM memories WHERE id = ?", (memory_id,)).fetchone()
        return row[0] if row else ""

    def _derived(self, conn: sqlite3.Connection, entry: MemoryEntry, shared: dict[str, list[str]],
                 order: dict[str, int], created_at: str) -> list[tuple]:
        if not _concludes(entry.text) or len(shared) < 2:
            return []
        mine = [e.id for e in entity_table.document_entities(conn, entry.id) if e.type not in NOT_SHARED]
        by_entity: dict[str, list[str]] = {}
        for d, ents in shared.items():
            for e in ents:
                by_entity.setdefault(e, []).append(d)
        chosen: dict[str, str] = {}
        for ent in mine:
            holders = [d for d in by_entity.get(ent, ()) if d not in chosen]
            if holders:
                best = min(holders, key=lambda d: (-len(shared[d]), order.get(d, 0), d))
                chosen[best] = ent
            if len(chosen) == MAX_DERIVED_FROM:
                break
        if len(chosen) < 2:
            return []
        return [rr.derives(entry.id, d, DERIVES_CONFIDENCE, ent, created_at) for d, ent in chosen.items()]


def declared_subjects(metadata: dict[str, Any] | None) -> frozenset[str]:
    """The entities a memory's writer declared it is about: seed 004 §4.1's `metadata.entity_slugs`, lowercased."""
    slugs = (metadata or {}).get("entity_slugs")
    if not isinstance(slugs, list):
        return _NONE
    return frozenset(s.lower() for s in slugs if isinstance(s, str) and s)


def _concludes(text: str) -> bool:
    return may_match(text, _CONCLUSION_WORDS) and _CONCLUSION.search(text) is not None


def _subjects(conn: sqlite3.Connection, ids: list[str]) -> dict[str, set[str]]:
    ents = entity_table.entity_ids_of(conn, ids)
    return {d: {e for e in es if e.split(":", 1)[0] in SUBJECT_TYPES} for d, es in ents.items()}


class KnownEntities:
    """Entity ids of a batch's documents and their neighbours, read once for the whole batch.

    `entities` maps a document id to its distinct entity ids (a document absent has none);
    `shared(doc)` gives the ids outside `NOT_SHARED`, sorted, as `sharing_candidates` would select them.
    """

    def __init__(self, entities: dict[str, list[str]]) -> None:
        self.entities = entities
        self._subjects: dict[str, frozenset[str]] = {}   # a neighbour recurs across a batch: computed once

    def subjects(self, doc: str) -> frozenset[str]:
        got = self._subjects.get(doc)
        if got is None:
            ents = self.entities.get(doc)
            got = self._subjects[doc] = frozenset(
                [e for e in ents if e.startswith(_SUBJECT_PREFIXES) or e in SUBJECT_TYPES]) if ents else _NONE
        return got

    def shared(self, doc: str) -> list[str]:
        ents = self.entities.get(doc)
        # an id's type is what precedes its first colon (an id without one is all type)
        return sorted([e for e in ents if not (e.startswith(_NOT_SHARED_PREFIXES) or e in NOT_SHARED)]) if ents else []


_SUBJECT_PREFIXES = tuple(t + ":" for t in SUBJECT_TYPES)
_NOT_SHARED_PREFIXES = tuple(t + ":" for t in NOT_SHARED)
