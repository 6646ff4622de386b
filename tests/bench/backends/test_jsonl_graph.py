"""jsonl-graph specifics: the MCP memory server's file format, its substring search, relations, bad files."""
import json

import pytest

from bench.backends import Hit, create_backend
from reference.clock import LogicalClock
from reference.errors import CorruptData
from reference.telemetry import NullSink


def opened(folder, clock=None):
    backend = create_backend("jsonl-graph")
    backend.open(folder, clock or LogicalClock(1_700_000_000), NullSink())
    return backend


@pytest.fixture
def two(tmp_path):
    clock = LogicalClock(1_700_000_000)
    b = opened(tmp_path / "s", clock)
    first = b.write_memory("Auth token refresh race", task="task:debug", context=["context:auth"], tags=["race"])
    clock.advance(5)
    second = b.write_memory("Café prices in cents", symbol_keys=[2**64 - 1], metadata={"branch": "main"})
    yield b, first, second, tmp_path / "s" / "memory.jsonl"
    b.close()


def test_file_is_the_servers_jsonl(two):
    _, first, second, path = two
    assert path.read_text(encoding="utf-8") == (
        '{"type":"entity","name":"%s","entityType":"task:debug","observations":'
        '["Auth token refresh race","context:auth","tag:race","created_at:1700000000.0"]}\n'
        '{"type":"entity","name":"%s","entityType":"memory","observations":'
        '["Café prices in cents","symbol_key:18446744073709551615","metadata:{\\"branch\\":\\"main\\"}",'
        '"created_at:1700000005.0"]}\n' % (first, second))


def test_records_read_back_from_observations(two):
    b, first, second, _ = two
    assert b.get_memory(second) == {
        "id": second, "task": None, "insights": [], "context": [], "symbol_keys": [2**64 - 1],
        "text": "Café prices in cents", "tags": [], "metadata": {"branch": "main"},
        "created_at": 1_700_000_005.0, "created_at_iso": "2023-11-14T22:13:25Z"}
    assert [r["id"] for r in b.list_memories()] == [first, second]  # file order


@pytest.mark.parametrize("query, which", [
    ("TOKEN REFRESH", ["first"]),        # case-insensitive
    ("refresh token", []),               # the whole query, not its words
    ("debug", ["first"]),                # the entityType
    ("CAFÉ", ["second"]),
    ("tag:race", ["first"]),             # an observation
    ("created_at:17000000", ["first", "second"]),
    ("mem:", ["first", "second"]),       # the name
    ("", ["first", "second"]),           # the server's "" matches everything
])
def test_search_is_the_servers_substring_match(two, query, which):
    b, first, second, _ = two
    ids = {"first": first, "second": second}
    assert b.keyword_search(query, top_k=10) == [Hit(ids[w], 1.0) for w in which]


def test_top_k_cuts_in_file_order(two):
    b, first, _, _ = two
    assert b.keyword_search("mem:", top_k=1) == [Hit(first, 1.0)]


def test_relations_and_foreign_entities_are_kept_and_deleted_with_their_entity(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    path = folder / "memory.jsonl"
    lines = [
        {"type": "relation", "from": "mem:0000abcd", "to": "Alice", "relationType": "mentions"},
        {"type": "entity", "name": "Alice", "entityType": "person", "observations": ["likes tea"]},
        {"type": "relation", "from": "Alice", "to": "Alice", "relationType": "knows"},
        {"type": "entity", "name": "mem:0000abcd", "entityType": "memory",
         "observations": ["hand written", "created_at:1.5"]},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    b = opened(folder)
    alice = b.list_memories()[0]
    assert (alice["id"], alice["text"], alice["created_at"]) == ("Alice", "likes tea", None)
    assert b.delete_memory("mem:0000abcd") is True
    kept = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert kept == [
        {"type": "entity", "name": "Alice", "entityType": "person", "observations": ["likes tea"]},
        {"type": "relation", "from": "Alice", "to": "Alice", "relationType": "knows"},
    ]


@pytest.mark.parametrize("bad, what", [
    ("{not json", "not valid JSON"),
    ('{"type":"entity","name":"x","entityType":"t"}', "observations"),
    ('{"type":"widget"}', "not an entity or relation"),
    ('[1, 2]', "not an entity or relation"),
])
def test_a_bad_line_is_corrupt_data_naming_it_and_the_file_is_left_alone(tmp_path, bad, what):
    folder = tmp_path / "s"
    folder.mkdir()
    text = '{"type":"entity","name":"a","entityType":"t","observations":[]}\n' + bad + "\n"
    (folder / "memory.jsonl").write_text(text, encoding="utf-8")
    with pytest.raises(CorruptData, match=rf"memory\.jsonl:2: .*{what}"):
        opened(folder)
    assert (folder / "memory.jsonl").read_text(encoding="utf-8") == text


def test_filters_are_refused_because_none_are_declared(two):
    b = two[0]
    with pytest.raises(ValueError, match="no filters"):
        b.list_memories(task="task:debug")
