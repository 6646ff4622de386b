"""Entity slugs from names, text and paths (seed 004 Phase 4 rules), expectations written by hand."""
from __future__ import annotations

import pytest

from reference.lane.entities import check_slug, is_slug, paths_in_text, slugify, slugs_from_paths, slugs_from_text
from reference.lane.errors import LaneError


@pytest.mark.parametrize("raw,want", [
    ("BlueLake", "blue-lake"), ("user_profile", "user-profile"), ("Billing API", "billing-api"),
    ("auth", "auth"), ("OAuth2Flow", "o-auth-2-flow"), ("--x--", "x"), ("", ""),
])
def test_slugify(raw, want):
    assert slugify(raw) == want


def test_check_slug_normalises_and_rejects():
    assert check_slug("agent:BlueLake") == "agent:blue-lake"
    assert check_slug("Feature:user_profile") == "feature:user-profile"
    for bad in ("auth", "planet:mars", "feature:", "feature:--", 3, None):
        with pytest.raises(LaneError):
            check_slug(bad)


def test_is_slug_only_accepts_canonical_form():
    assert is_slug("feature:auth") and is_slug("project:billing-api")
    assert not is_slug("feature:Auth") and not is_slug("auth") and not is_slug("planet:x") and not is_slug(["x"])


def test_slugs_from_text_explicit_mentions_in_order():
    text = "See project:atlas, then agent:BlueLake and feature:auth. Ignore mem:1a2b3c4d and file:src/x.py."
    assert slugs_from_text(text) == ["project:atlas", "agent:blue-lake", "feature:auth"]
    assert slugs_from_text("feature:auth feature:auth") == ["feature:auth"]
    assert slugs_from_text("nothing here") == []


@pytest.mark.parametrize("path,want", [
    ("src/features/auth", ["feature:auth"]),                        # the seed's example
    ("src/features/auth/session.ts", ["feature:auth"]),
    ("src/auth/service.ts", ["feature:auth"]),                      # first folder under a source root
    ("src/features/auth.ts", ["feature:auth"]),                     # a file: its extension is dropped
    ("src/components/Button.tsx", []),                              # generic folder
    ("src/main.ts", []),                                            # a file directly under src
    ("packages/web/src/features/userProfile/x.ts", ["project:web", "feature:user-profile"]),
    ("lib/billing/invoice.py", ["feature:billing"]),
    ("README.md", []),
])
def test_slugs_from_path(path, want):
    assert slugs_from_paths([path]) == want


def test_slugs_from_paths_dedup_and_errors():
    assert slugs_from_paths(["src/features/auth/a.ts", "src/auth/b.ts", "src/features/billing/c.ts"]) == \
        ["feature:auth", "feature:billing"]
    with pytest.raises(LaneError):
        slugs_from_paths("src/features/auth/a.ts")
    with pytest.raises(LaneError):
        slugs_from_paths([3])


def test_paths_in_text_skips_urls():
    text = "edited src/features/auth/session.ts and ./lib/x/y.py, see https://example.com/a/b"
    assert paths_in_text(text) == ["src/features/auth/session.ts", "./lib/x/y.py"]
