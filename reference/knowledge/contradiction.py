"""Does a newer memory contradict an older, similar one? (seed 001 §3 `detectRelationType`, no LLM)

The seed asks an LLM "do these texts contradict each other?"; this rule
answers from the texts alone. Tried in order on the two texts' word tokens
(lowercased; trailing punctuation stripped), the first that fires decides
`updates`, none of them `extends`:

1. marker: the newer text carries an explicit supersede marker that the
   older lacks - "instead of", "no longer", "not anymore", "replaced",
   "replaces", "supersede(s|d)", "deprecated", "switched to/from",
   "changed to/from", "now uses/is/are", "was wrong", "correction", and
   git's "revert(s)" / "reverted" (`git revert` writes `Revert "<subject>"`
   and "This reverts commit <sha>.": the newer change undoes the older);
2. negation flip: the texts differ in the parity of negation words (not, no,
   never, cannot, without, disabled, n't forms) and a negation is among the
   words that differ (`difflib` alignment);
3. value change: an aligned replacement swaps a number for a different
   number ("3 retries" -> "5 retries");
4. substitution: the alignment has replacements only of at most
   `MAX_SWAPPED` words on each side, the unchanged words cover at least
   `MIN_KEPT` of the longer text, and the newer text has no additive marker
   ("also", "additionally", "in addition", "furthermore", "moreover", "as
   well"): the same statement with a different value ("uses redis" ->
   "uses memcached").
Pure insertions (the old statement kept, new words added) are `extends`.
"""
from __future__ import annotations

import re
from difflib import SequenceMatcher

MAX_SWAPPED = 3
MIN_KEPT = 0.6
_TOKEN = re.compile(r"[\w./:#\-']+")
_MARKER = re.compile(
    r"\b(instead of|no longer|not anymore|replaced|replaces|supersedes?|superseded|deprecated|"
    r"switched (?:to|from)|changed (?:to|from)|now (?:uses?|is|are)|was wrong|correction|"
    r"reverts?|reverted)\b", re.I)
_ADDITIVE = re.compile(r"\b(also|additionally|in addition|furthermore|moreover|as well)\b", re.I)
_NEGATIONS = frozenset("not no never cannot can't won't don't doesn't isn't aren't wasn't shouldn't mustn't "
                       "without disabled nothing none".split())
_NUMBER = re.compile(r"^\d+(?:\.\d+)?[a-z%]*$")


# For each marker regex, words one of which every match holds: a text with none skips the scan
MARKER_WORDS = ("instead of", "no longer", "not anymore", "replace", "supersede", "deprecated", "switched ",
                 "changed ", "now ", "was wrong", "correction", "revert")
ADDITIVE_WORDS = ("also", "additionally", "in addition", "furthermore", "moreover", "as well")


def may_match(text: str, words: tuple[str, ...]) -> bool:
    """False only when a case-insensitive regex whose every match holds one of `words` cannot match:
    `text` is ASCII (there `re.I` and `lower()` agree) and holds none of them."""
    if not text.isascii():
        return True
    low = text.lower()
    for w in words:   # a loop, not any(generator): this runs for every text written
        if w in low:
            return True
    return False


def supersede_marker(new: str, old: str = "") -> str | None:
    """The explicit supersede marker of `new` that `old` does not already carry, lowercased."""
    m = _MARKER.search(new) if may_match(new, MARKER_WORDS) else None
    if m and not re.search(re.escape(m.group(0)), old, re.I):
        return m.group(0).lower()
    return None


def additive_marker(text: str) -> str | None:
    m = _ADDITIVE.search(text) if may_match(text, ADDITIVE_WORDS) else None
    return m.group(0).lower() if m else None


def tokens(text: str) -> list[str]:
    return [t.strip(".,;:!?'\"").lower() for t in _TOKEN.findall(text) if t.strip(".,;:!?'\"")]


def _negations(toks: list[str]) -> int:
    return sum(t in _NEGATIONS or t.endswith("n't") for t in toks)


def contradiction(old: str, new: str) -> str | None:
    """The reason the newer text contradicts the older (`marker:...`, `negation`, `value`, `substitution`), or None."""
    marker = supersede_marker(new, old)
    if marker:
        return "marker:" + marker
    a, b = tokens(old), tokens(new)
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    changed_old = [t for tag, i1, i2, _, _ in ops if tag != "equal" for t in a[i1:i2]]
    changed_new = [t for tag, _, _, j1, j2 in ops if tag != "equal" for t in b[j1:j2]]
    if _negations(a) % 2 != _negations(b) % 2 and (_negations(changed_old) or _negations(changed_new)):
        return "negation"
    replaces = [(a[i1:i2], b[j1:j2]) for tag, i1, i2, j1, j2 in ops if tag == "replace"]
    for old_part, new_part in replaces:
        old_nums = [t for t in old_part if _NUMBER.match(t)]
        new_nums = [t for t in new_part if _NUMBER.match(t)]
        if old_nums and new_nums and old_nums != new_nums:
            return "value"
    kept = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag == "equal")
    only_replaces = replaces and all(tag in ("equal", "replace") for tag, *_ in ops)
    if (only_replaces and all(len(o) <= MAX_SWAPPED and len(n) <= MAX_SWAPPED for o, n in replaces)
            and kept >= MIN_KEPT * max(len(a), len(b)) and not _ADDITIVE.search(new)):
        return "substitution"
    return None
