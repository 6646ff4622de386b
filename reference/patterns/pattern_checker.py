"""Per-pattern checks that keep Hyperscan and Python `re` in agreement.

Every pattern is compiled twice: by Hyperscan (to find where matches can be)
and by `re` (to confirm them with `re.finditer` semantics, see
`match_confirmer`). A pattern is accepted only if both engines read it the
same way. `check_pattern` rejects, with a reason a user can act on:

- syntax `re` does not accept (its message is given);
- look-ahead / look-behind, back-references and conditionals, which
  Hyperscan does not support;
- atomic groups and possessive quantifiers (Python 3.11 accepts them,
  Hyperscan does not);
- `{,n}`, a repeat in Python but literal text in Hyperscan (write `{0,n}`);
- POSIX classes such as `[[:alpha:]]`, a class in Hyperscan but a nested-set
  warning in Python (write `[A-Za-z]`).

What a pattern may cost is checked apart, on the same tree (`pattern_cost`).
"""
from __future__ import annotations

import re
import warnings
from typing import Any, NamedTuple

try:  # Python 3.11+
    from re import _constants as _c, _parser as _p
except ImportError:  # pragma: no cover - older interpreters
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

from reference.patterns.pattern_shape import PatternShape, shape_of

RE_FLAGS = {"caseless": re.IGNORECASE, "dotall": re.DOTALL, "multiline": re.MULTILINE}

_UNSUPPORTED = {
    _c.ASSERT: "look-ahead/look-behind assertions are not supported by Hyperscan",
    _c.ASSERT_NOT: "negative look-ahead/look-behind assertions are not supported by Hyperscan",
    _c.GROUPREF: "back-references are not supported by Hyperscan",
    _c.GROUPREF_EXISTS: "conditional groups (?(n)...) are not supported by Hyperscan",
}
for _name, _why in (("ATOMIC_GROUP", "atomic groups (?>...) are not supported by Hyperscan"),
                    ("POSSESSIVE_REPEAT", "possessive quantifiers are not supported by Hyperscan")):
    if hasattr(_c, _name):
        _UNSUPPORTED[getattr(_c, _name)] = _why


_OPCODE = type(_c.ASSERT)


class RejectedPattern(ValueError):
    """A pattern the two engines cannot both run identically; `args[0]` is the reason."""


def re_flags_of(flags: list[str]) -> int:
    """The `re` flags for a set's flag names."""
    out = 0
    for f in flags:
        out |= RE_FLAGS[f]
    return out


class CheckedPattern(NamedTuple):
    """An accepted pattern: its compiled bytes regex and its `PatternShape`."""

    regex: re.Pattern[bytes]
    shape: PatternShape
    tree: Any = None     # `re`'s parse tree, for the cost checks (`pattern_cost`)


def check_pattern(pattern: str, re_flags: int) -> CheckedPattern:
    """Return the compiled regex and shape, or raise `RejectedPattern` saying why not."""
    source = pattern.encode("utf-8")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            tree = _p.parse(source, re_flags)
    except (re.error, FutureWarning, DeprecationWarning) as exc:
        msg = str(exc)
        if "nested set" in msg:
            msg += " (POSIX classes like [[:alpha:]] are not portable to Python re; write [A-Za-z])"
        raise RejectedPattern(f"Python re rejects it: {msg}") from None
    why = _find_unsupported(tree)
    if why:
        raise RejectedPattern(why)
    if _has_open_lower_bound(pattern):
        raise RejectedPattern("'{,n}' is a repeat in Python re but literal text in Hyperscan; write '{0,n}'")
    return CheckedPattern(re.compile(source, re_flags), shape_of(tree, re_flags), tree)


def _find_unsupported(node: object) -> str | None:
    """Depth-first search of a parse tree for an op Hyperscan cannot run."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, _p.SubPattern):
            stack.extend(item.data)
        elif isinstance(item, (list, tuple)):
            # only a (opcode, argument) pair names an op; (4, 11) may be a char range
            if len(item) == 2 and isinstance(item[0], _OPCODE) and item[0] in _UNSUPPORTED:
                return _UNSUPPORTED[item[0]]
            stack.extend(item)
    return None


def _has_open_lower_bound(pattern: str) -> bool:
    """True if `{,n}` occurs outside a character class and unescaped."""
    i, n, in_class = 0, len(pattern), False
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
        elif ch == "[":
            in_class = True
            # a ']' right after '[' or '[^' is a literal member, not the end
            j = i + 1 + (pattern[i + 1:i + 2] == "^")
            if pattern[j:j + 1] == "]":
                i = j
        elif ch == "{" and re.match(r"\{,\d+\}", pattern[i:]):
            return True
        i += 1
    return False
