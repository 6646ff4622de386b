"""Scenario loading: valid files parse; every malformed one names file, line and field."""
import json
from pathlib import Path

import pytest

from bench.scenario import ScenarioError, load_scenario
from bench.scenario.loader import load_qrels
from bench.scenario.suites import oracle_dir, resolve, scenario_names, suites

HEADER = {"scenario": "t", "format": 1}


def write(tmp_path: Path, *lines, raw: str | None = None) -> Path:
    p = tmp_path / "t.jsonl"
    p.write_text(raw if raw is not None else "\n".join(json.dumps(x) for x in lines) + "\n")
    return p


def error_of(path: Path, oracle=None) -> str:
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path, oracle)
    return str(exc.value)


def test_valid_file_parses(tmp_path):
    p = write(tmp_path, HEADER,
              {"tool": "memory_write_structured", "args": {"text": "x"}, "as": "m"},
              {"directive": "advance_clock", "seconds": 5},
              {"tool": "memory_search_structured", "args": {"query": "x"}, "id": "q", "expect": {"relevant": ["m"]}})
    sc = load_scenario(p)
    assert [s.name for s in sc.steps] == ["memory_write_structured", "advance_clock", "memory_search_structured"]
    assert sc.steps[0].alias == "m" and sc.queries[0].expect.grades() == {"m": 1}


@pytest.mark.parametrize("line, where", [
    ({"tool": "memory_write_structured", "args": {"txt": "x"}}, ":2: args.text"),
    ({"tool": "memory_write_structured", "args": {"text": "x", "bogus": 1}}, ":2: args.bogus"),
    ({"tool": "no_such_tool"}, ":2: tool: unknown tool 'no_such_tool'"),
    ({"directive": "advance_clock", "seconds": -1}, ":2: args.seconds"),
    ({"directive": "warp"}, ":2: directive: unknown directive"),
    ({"tool": "memory_get", "args": {"memory_id": "m"}, "expect": {"found": "maybe"}}, ":2: expect.found"),
    ({"tool": "memory_search_structured", "args": {}, "expect": {"relevant": []}}, ":2: expect.relevant"),
    ({"tool": "memory_get", "args": {"memory_id": "m"}, "extra": 1}, ":2: extra: unknown field"),
    ({"tool": "memory_get", "directive": "session"}, ":2: tool: a step needs exactly one"),
])
def test_bad_step_names_line_and_field(tmp_path, line, where):
    assert where in error_of(write(tmp_path, HEADER, line))


def test_bad_json_and_header(tmp_path):
    assert ":1: not valid JSON" in error_of(write(tmp_path, raw="{nope\n"))
    assert ":1: format" in error_of(write(tmp_path, {"scenario": "t", "format": 2}))
    assert ":1: empty scenario" in error_of(write(tmp_path, raw="\n# only a comment\n"))
    assert "no such scenario file" in error_of(tmp_path / "missing.jsonl")


def test_a_non_utf8_or_binary_file_names_the_file_line_and_byte(tmp_path):
    p = tmp_path / "t.jsonl"
    p.write_bytes(json.dumps(HEADER).encode() + b"\n" + b'{"tool": "memory_get", "args": {"memory_id": "caf\xe9"}}\n')
    assert error_of(p) == f"{p}:2: not UTF-8 (byte 0xe9 at column 50); scenario files are UTF-8 JSON lines"
    p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xd8")
    assert error_of(p).startswith(f"{p}:1: not UTF-8 (byte 0x89 at column 1)")
    q = tmp_path / "qrels.tsv"
    q.write_bytes(b"query_id\titem_id\tgrade\nq1\tm\xff\t1\n")
    with pytest.raises(ScenarioError, match=r"qrels.tsv:2: not UTF-8 \(byte 0xff at column 5\)"):
        load_qrels(q)


def test_a_huge_unknown_name_is_not_echoed(tmp_path):
    text = error_of(write(tmp_path, HEADER, {"tool": "x" * 1_000_000}))
    assert ":2: tool: unknown tool 'xxxx" in text and len(text) < 2_000


def test_duplicate_alias(tmp_path):
    step = {"tool": "memory_write_structured", "args": {"text": "x"}, "as": "m"}
    assert ":3: as: alias 'm' is already bound" in error_of(write(tmp_path, HEADER, step, step))


def test_oracle_attached_and_checked(tmp_path):
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "qrels.tsv").write_text("query_id\titem_id\tgrade\nq\tm\t2\n")
    p = write(tmp_path, {**HEADER, "oracle": "o"}, {"tool": "memory_write_structured", "args": {"text": "x"}, "as": "m"},
              {"tool": "memory_search_structured", "args": {"query": "x"}, "id": "q"})
    assert load_scenario(p, tmp_path).queries[0].expect.grades() == {"m": 2}
    (tmp_path / "o" / "qrels.tsv").write_text("query_id\titem_id\tgrade\nq\tm\n")
    assert "qrels.tsv:2: expected 3 tab-separated fields" in error_of(p, tmp_path)
    assert "oracle: " in error_of(p, tmp_path / "elsewhere")


def test_every_committed_scenario_loads():
    names = scenario_names()
    assert "smoke" in names and {"sqlite-utils-blame", "httpx-files", "attrs-branches"} <= set(names)
    from bench.scenario import large
    for suite in suites().values():   # committed, or generated on first use (the large tier)
        assert {n for n in suite if not large.generated(n)} <= set(names)
    assert suites()["large"] and all(large.generated(n) for n in suites()["large"])
    for sc in resolve(names):
        assert sc.steps, sc.name


@pytest.mark.parametrize("name", ["sqlite-utils-blame", "httpx-blame", "attrs-blame"])
def test_history_judgements_only_name_earlier_memories(name):
    """A judged item must be a memory written before its query (the generator's promise)."""
    (sc,) = resolve([name])
    bound: set[str] = set()
    for s in sc.steps:
        if s.expect is not None and s.expect.relevant is not None:
            assert set(s.expect.grades()) <= bound, s.id
        if s.alias:
            bound.add(s.alias)
    qrels = load_qrels(oracle_dir() / name / "qrels.tsv")
    assert len(qrels) == len(sc.queries) >= 100


def test_a_scenario_path_takes_oracle_data_beside_it(tmp_path):
    (tmp_path / "oracle_data" / "t").mkdir(parents=True)
    (tmp_path / "oracle_data" / "t" / "qrels.tsv").write_text("query_id\titem_id\tgrade\n\tq\tm\t2\n".replace("\n\t", "\n"))
    p = tmp_path / "t.jsonl"
    p.write_text(json.dumps({"scenario": "t", "format": 1, "oracle": "t"}) + "\n" +
                 json.dumps({"tool": "memory_write_structured", "args": {"text": "x"}, "as": "m"}) + "\n" +
                 json.dumps({"tool": "memory_search_structured", "args": {"query": "x"}, "id": "q"}) + "\n")
    (sc,) = resolve([str(p)])
    assert sc.queries[0].expect.grades() == {"m": 2}


def test_relevant_ids_must_be_defined_by_a_step(tmp_path):
    write_m = {"tool": "memory_write_structured", "args": {"text": "x"}, "as": "m"}
    p = write(tmp_path, HEADER, write_m,
              {"tool": "memory_search_structured", "args": {"query": "x"}, "expect": {"relevant": ["m", "ghost"]}})
    assert error_of(p) == f"{p}:3: expect.relevant: id 'ghost' is neither an alias nor an id any step defines (1 such ids)"
    # ids a step defines without an alias count: a graph node's id, a committed file
    p = write(tmp_path, HEADER, {"tool": "graph_put_node", "args": {"id": "n1", "type": "t"}},
              {"directive": "commit", "sha": "a", "message": "m", "files": ["x.py"]},
              {"tool": "memory_search_structured", "args": {"query": "x"}, "expect": {"relevant": ["n1", "file:x.py"]}})
    assert load_scenario(p).queries[0].expect.grades() == {"n1": 1, "file:x.py": 1}


def test_oracle_judgement_of_an_undefined_id_is_rejected(tmp_path):
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "qrels.tsv").write_text("query_id\titem_id\tgrade\nq\tnobody\t2\n")
    p = write(tmp_path, {**HEADER, "oracle": "o"}, {"tool": "memory_search_structured", "args": {"query": "x"}, "id": "q"})
    assert "t.jsonl:2: expect.relevant: id 'nobody'" in error_of(p, tmp_path)


def test_aliases_must_be_bound_by_an_earlier_step(tmp_path):
    later = {"tool": "memory_write_structured", "args": {"text": "x"}, "as": "m"}
    p = write(tmp_path, HEADER, {"tool": "memory_get", "args": {"memory_id": "$m"}}, later)
    assert error_of(p) == f"{p}:2: args: alias 'm' is not bound by an earlier step (\"as\")"
    p = write(tmp_path, HEADER, later,
              {"tool": "memory_get", "args": {"memory_id": "$m"}, "expect": {"fields": {"id": "$" + "x" * 80}}})
    assert f"{p}:3: expect.fields: alias '{'x' * 37}...' is not bound" in error_of(p)


def test_upper_bound_target_names_its_operations(tmp_path):
    target = {"metric": "duplicate_rate", "op": "<", "value": 0.05}
    p = write(tmp_path, {**HEADER, "targets": [target]}, {"directive": "advance_clock", "seconds": 1})
    assert "targets.0" in error_of(p) and "must name the operations it measures" in error_of(p)
    p = write(tmp_path, {**HEADER, "targets": [{**target, "needs": ["no_such_step"]}]},
              {"directive": "advance_clock", "seconds": 1})
    assert error_of(p) == f"{p}:1: targets.needs: unknown step 'no_such_step' in target 'duplicate_rate'"
    p = write(tmp_path, {**HEADER, "targets": [{**target, "needs": ["commit"]}]}, {"directive": "advance_clock", "seconds": 1})
    assert load_scenario(p).header.targets[0].needs == ["commit"]


def test_a_line_over_the_limit_is_refused_without_reading_it_whole(tmp_path, monkeypatch):
    """Issue 25: a 1 GB line took 73 s and 2.25 GB to be refused; now the read stops at MAX_LINE + 1 bytes.

    CI shrinks the limit to 1 KB; `CODEMEM_FAULT_LARGE=1` writes a line of 1 GB against the real one."""
    import os

    from bench.scenario import loader

    p = tmp_path / "t.jsonl"
    big = os.environ.get("CODEMEM_FAULT_LARGE") == "1"
    if not big:
        monkeypatch.setattr(loader, "MAX_LINE", 1024)
    with p.open("wb") as fh:
        fh.write(json.dumps(HEADER).encode() + b"\n")
        fh.write(b'{"tool": "memory_write_structured", "args": {"text": "')
        chunk = b"a" * (1 << 20)
        for _ in range(1024 if big else 1):
            fh.write(chunk)
        fh.write(b'"}}\n')
    reads = []
    real_open = Path.open

    def counting_open(self, *a, **k):
        fh = real_open(self, *a, **k)
        readline = fh.readline
        fh_readline = lambda size=-1: (reads.append(size), readline(size))[1]  # noqa: E731
        return _Wrapped(fh, fh_readline)

    monkeypatch.setattr(Path, "open", counting_open)
    text = error_of(p)
    assert text == f"{p}:2: longer than {loader.MAX_LINE:,} bytes, the limit for a scenario line"
    assert reads and all(0 < size <= loader.MAX_LINE + 1 for size in reads)


class _Wrapped:
    """A file object whose readline is counted."""

    def __init__(self, fh, readline):
        self._fh, self.readline = fh, readline

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._fh.close()

    def __getattr__(self, name):
        return getattr(self._fh, name)


def test_skip_leaves_named_scenarios_out_of_the_suite_before_loading(tmp_path):
    small = suites()["small"]
    kept = [s.name for s in resolve([], "small", skip=["sqlite-utils-blame", "patterns"])]
    assert kept == [n for n in small if n not in ("sqlite-utils-blame", "patterns")]
    path = write(tmp_path, HEADER, {"tool": "memory_write_structured", "args": {"text": "x"}})
    assert [s.name for s in resolve(["smoke", str(path)], skip=["t"])] == ["smoke"]   # a path by its file name


def test_skip_of_a_scenario_not_to_be_run_is_an_error_naming_it():
    with pytest.raises(ScenarioError, match=r"--skip sqlite-utils-blam: not among the scenarios to run \(smoke"):
        resolve([], "small", skip=["sqlite-utils-blam"])
    with pytest.raises(ScenarioError, match="--skip knowledge: not among"):
        resolve(["smoke"], skip=["knowledge"])
