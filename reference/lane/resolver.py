"""Resolve the entities a query mentions against the entity slugs the store knows (seed 004 §4.3, Phase 4).

Deterministic stand-in for the seed's "local LLM or regex-based resolver":

1. explicit slugs (`feature:auth`) and file paths (`src/features/auth/x.ts`)
   in the query resolve exactly (an unknown explicit slug is reported in
   `unknown`, not filtered on);
2. exact names: a known slug whose name words (`billing-api` -> billing, api)
   appear as consecutive query words; longer names win over names inside
   them ("billing api" is `project:billing-api`, not `feature:billing`);
3. fuzzy names: a remaining query word of 4+ characters that equals one word
   of a known name, or begins one (`notif` -> `feature:notifications`).

Words compare after folding a final "s" (payments = payment). A mention that
fits more than one known slug in its tier (`payments` -> `feature:payments`
and `project:payments`; `blue` -> `agent:blue-lake` and `agent:blue-river`) is
an `Ambiguity`: the caller must ask for clarification.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from reference.lane.entities import is_slug, paths_in_text, slugify, slugs_from_paths, slugs_from_text

_WORD = re.compile(r"[A-Za-z0-9]+")
MIN_FUZZY = 4


@dataclass(frozen=True)
class Ambiguity:
    """A query mention that fits several known entity slugs."""

    mention: str
    candidates: tuple[str, ...]


@dataclass(frozen=True)
class Resolution:
    """Entities found in a query: resolved slugs, ambiguous mentions, explicit slugs the store lacks."""

    slugs: tuple[str, ...] = ()
    ambiguous: tuple[Ambiguity, ...] = ()
    unknown: tuple[str, ...] = ()

    @property
    def clarification_required(self) -> bool:
        return bool(self.ambiguous)


def _fold(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _query_words(text: str) -> list[str]:
    return [w for raw in _WORD.findall(text) for w in slugify(raw).split("-") if w]


class EntityResolver:
    """Matches query text against a set of known entity slugs."""

    def __init__(self, known: Iterable[str]) -> None:
        self.known = tuple(sorted({s for s in known if is_slug(s)}))
        self._names: dict[tuple[str, ...], list[str]] = defaultdict(list)
        self._by_part: dict[str, set[str]] = defaultdict(set)
        for slug in self.known:
            name = tuple(_fold(w) for w in slug.partition(":")[2].split("-"))
            self._names[name].append(slug)
            for part in name:
                self._by_part[part].add(slug)
        self._by_length = sorted(self._names, key=lambda n: (-len(n), n))

    def resolve(self, text: str) -> Resolution:
        """The entities `text` mentions (see the module rules)."""
        explicit = slugs_from_text(text) + slugs_from_paths(paths_in_text(text))
        known_set = set(self.known)
        slugs = [s for s in explicit if s in known_set]
        unknown = [s for s in explicit if s not in known_set]
        shown = _query_words(_strip_explicit(text))
        words = [_fold(w) for w in shown]
        covered = [False] * len(words)
        ambiguous: list[Ambiguity] = []
        present = set(words)
        for name in self._by_length:  # longest names first
            if not present.issuperset(name):
                continue
            for i in range(len(words) - len(name) + 1):
                if tuple(words[i: i + len(name)]) == name and not any(covered[i: i + len(name)]):
                    for j in range(i, i + len(name)):
                        covered[j] = True
                    _collect(self._names[name], " ".join(shown[i: i + len(name)]), slugs, ambiguous)
        for i, word in enumerate(words):
            if covered[i] or len(word) < MIN_FUZZY:
                continue
            cands = {s for part, ss in self._by_part.items() if part.startswith(word) for s in ss}
            if cands:
                _collect(sorted(cands), shown[i], slugs, ambiguous)
        ambiguous = list({(a.mention, a.candidates): a for a in ambiguous}.values())
        return Resolution(tuple(sorted(set(slugs))), tuple(ambiguous), tuple(dict.fromkeys(unknown)))


def _collect(cands: list[str], mention: str, slugs: list[str], ambiguous: list[Ambiguity]) -> None:
    if len(cands) == 1:
        slugs.append(cands[0])
    else:
        ambiguous.append(Ambiguity(mention, tuple(sorted(cands))))


def _strip_explicit(text: str) -> str:
    """The text without its explicit slugs and paths (those are resolved exactly, not by name)."""
    for path in paths_in_text(text):
        text = text.replace(path, " ")
    return re.sub(r"(?<![\w/])(?:project|agent|feature|person|business|other):[\w.\-]+", " ", text, flags=re.I)
