"""Query entity resolution: explicit, exact-name and fuzzy tiers, and ambiguity (expectations by hand)."""
from __future__ import annotations

from reference.lane.resolver import Ambiguity, EntityResolver

KNOWN = ["feature:auth", "feature:billing", "project:billing-api", "feature:payments", "project:payments",
         "agent:blue-lake", "agent:blue-river", "feature:notifications", "not a slug"]


def r(text):
    return EntityResolver(KNOWN).resolve(text)


def test_exact_name_and_longest_match():
    assert r("auth token refresh").slugs == ("feature:auth",)
    assert r("billing retries").slugs == ("feature:billing",)
    assert r("billing api retries").slugs == ("project:billing-api",)       # not also feature:billing
    assert r("BlueLake handoff").slugs == ("agent:blue-lake",)
    assert r("the blue lake agent").slugs == ("agent:blue-lake",)


def test_same_name_in_two_types_is_ambiguous():
    res = r("what did we decide about Payments retries?")
    assert res.slugs == () and res.clarification_required
    assert res.ambiguous == (Ambiguity("payments", ("feature:payments", "project:payments")),)
    assert r("payment retries").ambiguous[0].candidates == ("feature:payments", "project:payments")  # plural folded


def test_fuzzy_word_matching_several_names_is_ambiguous():
    res = r("handoff notes from blue")
    assert res.ambiguous == (Ambiguity("blue", ("agent:blue-lake", "agent:blue-river")),)
    assert r("notif emails").slugs == ("feature:notifications",)          # prefix of a name word
    assert r("a bug").slugs == () and not r("a bug").ambiguous            # short words never match fuzzily


def test_explicit_slugs_and_paths_resolve_exactly():
    assert r("project:payments retry budget").slugs == ("project:payments",)
    assert not r("project:payments retry budget").clarification_required
    assert r("src/features/auth/x.ts broke").slugs == ("feature:auth",)
    res = r("project:zeus rollout")
    assert res.slugs == () and res.unknown == ("project:zeus",)


def test_several_entities_and_no_entity():
    assert r("auth and billing api").slugs == ("feature:auth", "project:billing-api")
    assert r("how should token refresh work?").slugs == ()
    assert EntityResolver([]).resolve("auth").slugs == ()
