"""Entity extraction rules: each expected entity written by hand from the rule table in the README."""
from datetime import datetime, timezone

import pytest

from reference.knowledge.extractor import EntityExtractor, mention_context

REF = datetime(2026, 1, 26, 15, 0, tzinfo=timezone.utc).timestamp()  # a Monday


def ids(text, **kw):
    return [m.entity_id for m in EntityExtractor(**kw).extract(text, REF)]


def test_paths_give_files_and_feature_slugs():
    assert ids("Fixed src/features/auth/session.ts today") == [
        "file:src/features/auth/session.ts", "feature:auth", "time:2026-01-26"]
    # a file directly inside the container is no feature; other containers map to their singular
    assert ids("see src/features/index.ts and packages/ui-kit/button.tsx") == [
        "file:src/features/index.ts", "file:packages/ui-kit/button.tsx", "package:ui-kit"]


def test_directories_need_three_parts_or_a_trailing_slash():
    assert ids("moved src/features/billing into docs/") == [
        "dir:src/features/billing", "feature:billing", "dir:docs"]
    assert ids("read/write and client/server and and/or") == []


def test_bare_file_names_need_a_known_extension_and_calls_are_not_files():
    assert ids("Updated README.md and package.json") == ["file:README.md", "file:package.json"]
    assert ids("digestJob.lock() holds it") == ["symbol:digestjob.lock"]
    assert ids("the value 3.5 and version v2.4.1") == []


def test_keys_and_slugs():
    assert ids("sym:src/main.py#Foo.bar:method:10:20 in file:docs/guide.md") == [
        "symbol:src/main.py#foo.bar", "file:docs/guide.md"]
    assert ids("Decision for project:Shop by agent:claude; task:debug is not an entity") == [
        "project:shop", "agent:claude"]


def test_symbols_dotted_calls_code_spans_and_camel_case():
    assert ids("authClient.refresh() then retry_later() and `getUserName` plus getCartTotal.") == [
        "symbol:authclient.refresh", "symbol:retry_later", "symbol:getusername", "symbol:getcarttotal"]
    # all parts one letter, PascalCase, iOS / macOS: not symbols by these rules
    assert ids("e.g. i.e. CartStore on iOS and macOS") == []


def test_modules_from_imports_and_the_word_module():
    assert ids("from reference.store import MemoryStore") == ["module:reference.store"]
    assert ids("import os\nthe module shop.billing.client is slow") == ["module:os", "module:shop.billing.client"]
    assert ids("we import the data") == []


def test_urls_and_emails_are_masked():
    assert ids("see https://example.com/a/b/setup.py or mail dev@example.com") == []


def test_dates_absolute_and_relative_resolved_against_the_reference_time():
    assert ids("on 2025-10-14, 1/25/2026 and Mar 3, 2025") == ["time:2025-10-14", "time:2026-01-25", "time:2025-03-03"]
    # Monday 2026-01-26: yesterday 25th, 3 days ago 23rd, last week 19th, last friday 23rd, last month 2025-12-26
    assert ids("yesterday, 3 days ago, last week, last friday, last month") == [
        "time:2026-01-25", "time:2026-01-23", "time:2026-01-19", "time:2026-01-23", "time:2025-12-26"]
    assert ids("on 2025-02-30 nothing") == []  # not a calendar date


def test_gazetteer_and_concepts():
    ex = EntityExtractor(gazetteer={"person": ["Robin", "The Architect"]})
    got = [m.entity_id for m in ex.extract("robin met The Architect", REF, {"concepts": ["First Principle"]})]
    assert got == ["person:robin", "person:the architect", "concept:first principle"]


def test_mentions_have_positions_surfaces_and_context():
    text = "Bug in src/a.py fixed"
    m, module = EntityExtractor().extract(text, REF)   # a Python file is also a module (rule path_module)
    assert (m.position, m.end, m.surface, m.confidence) == (7, 15, "src/a.py", 0.95)
    assert (module.entity_id, module.position, module.surface, module.confidence) == ("module:src.a", 7, "src/a.py", 0.8)
    assert mention_context(text, m.position, m.end, chars=3) == "in src/a.py fi"


@pytest.mark.parametrize("text", ["", "   ", "plain words only"])
def test_no_entities(text):
    assert ids(text) == []


def test_python_files_are_modules_and_hash_numbers_are_issues():
    got = ids("Fix #12 in pkg/sub/mod.py and pkg/__init__.py; not a/b-c.py, not x#3, not &#38; see #7.")
    assert "module:pkg.sub.mod" in got and "module:pkg" in got and "issue:12" in got and "issue:7" in got
    assert not any(e.startswith("module:a") or e in ("issue:3", "issue:38") for e in got)
