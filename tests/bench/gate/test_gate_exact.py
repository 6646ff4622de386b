"""Deterministic backends are gated exactly: any drop fails, naming the queries that changed.

Hand-built reports (tests/bench/gate/test_gate_unit.py's helpers) with `determinism.declared` set;
the same changes under the paired test (a backend that does not declare determinism) pass, which is
the hole this closes: with 7 or fewer changed queries the randomisation test cannot reach p < 0.05.
"""
from bench.gate import GateOptions, run_gate
from bench.gate.gate import declared_deterministic
from bench.report import Report
from tests.bench.gate.test_gate_unit import BASE, MACHINE, section

QUALITY_ONLY = GateOptions(latency=())


def report(deterministic=True, reps=2, backend="demo-backend", **scenarios):
    return Report(backend, [], scenarios, {"machine": MACHINE},
                  {"declared": deterministic, "repetitions": reps} if deterministic is not None else {})


def truncated(values):
    """Like cutting each result list to 8: two queries lose a relevant hit at rank 9 or 10."""
    return {**values, "ndcg@10": [x - 0.05 if i in (3, 7) else x for i, x in enumerate(values["ndcg@10"])]}


def test_truncate_to_8_fails_exactly_and_names_the_changed_queries():
    r = run_gate(report(demo=section(truncated(BASE))), report(demo=section(BASE)), QUALITY_ONLY)
    assert r.exit_code == 1
    (reg,) = r.regressions
    assert reg.line() == ("REGRESSION demo ndcg@10: 0.783 -> 0.775 (-0.0083, exact: deterministic backend); "
                          "2 of 12 queries changed: q3 0.700->0.650, q7 0.800->0.750")
    assert any(f.line().startswith("note * quality: exact: ") and "2 repetitions agreed" in f.line()
               for f in r.findings)


def test_the_same_change_passes_the_paired_test_of_a_nondeterministic_backend():
    r = run_gate(report(False, demo=section(truncated(BASE))), report(False, demo=section(BASE)), QUALITY_ONLY)
    assert r.exit_code == 0   # 2 changed queries: best p = 2/4 after Holm, far from 0.05
    r = run_gate(report(demo=section(truncated(BASE))), report(demo=section(BASE)), GateOptions(latency=(), exact=False))
    assert r.exit_code == 0


def test_a_change_confined_to_one_query_fails():
    cur = {**BASE, "ndcg@10": [0.9, 0.8, 1.0, 0.7, 0.6, 0.9, 0.5, 0.8, 0.9, 0.7, 0.6, 0.999]}
    r = run_gate(report(demo=section(cur)), report(demo=section(BASE)), QUALITY_ONLY)
    assert [f.line() for f in r.regressions] == [
        "REGRESSION demo ndcg@10: 0.783 -> 0.783 (-0.0001, exact: deterministic backend); "
        "1 of 12 queries changed: q11 1.000->0.999"]


def test_answers_that_moved_without_a_drop_are_a_note_and_gains_an_improvement():
    swapped = {**BASE, "ndcg@10": [0.8, 0.9] + BASE["ndcg@10"][2:]}
    r = run_gate(report(demo=section(swapped)), report(demo=section(BASE)), QUALITY_ONLY)
    assert r.exit_code == 0
    assert "note demo ndcg@10: 0.783 -> 0.783 (+0.0000, exact: deterministic backend); 2 of 12 queries changed: " \
           "q0 0.900->0.800, q1 0.800->0.900" in [f.line() for f in r.findings]
    better = {**BASE, "ndcg@10": [1.0] + BASE["ndcg@10"][1:]}
    r = run_gate(report(demo=section(better)), report(demo=section(BASE)), QUALITY_ONLY)
    assert r.exit_code == 0 and [f.kind for f in r.findings if f.metric == "ndcg@10"] == ["improvement"]


def test_scenario_figures_fail_on_any_drop_when_exact():
    # one failed check in 500 (0.002) is below the paired mode's minimal effect (0.01), not below exact's
    r = run_gate(report(demo=section(BASE, check_rate=0.998)), report(demo=section(BASE)), QUALITY_ONLY)
    assert [f.line() for f in r.regressions] == ["REGRESSION demo check_rate: 1.000 -> 0.998 (-0.0020, deterministic)"]
    r = run_gate(report(False, demo=section(BASE, check_rate=0.998)), report(False, demo=section(BASE)), QUALITY_ONLY)
    assert r.exit_code == 0


def test_exact_needs_both_sides_deterministic():
    r = run_gate(report(demo=section(truncated(BASE))), report(False, demo=section(BASE)), QUALITY_ONLY)
    assert r.exit_code == 0
    assert any("paired test with min effect 0.01" in f.line() for f in r.findings)


def test_a_report_without_a_determinism_record_uses_its_backend_declaration():
    assert declared_deterministic(report(None, backend="reference"))        # ReferenceBackend.deterministic
    assert declared_deterministic(report(None, backend="fts-baseline"))
    assert not declared_deterministic(report(None, backend="chroma"))
    assert not declared_deterministic(report(None, backend="no-such-backend"))


def test_quality_off_gates_latency_alone():
    r = run_gate(report(demo=section(truncated(BASE))), report(demo=section(BASE)),
                 GateOptions(latency=(), quality=False))
    assert r.exit_code == 0 and not [f for f in r.findings if f.scenario != "*"]
    assert any(f.line() == "note * quality: not gated (--quality off): latency alone" for f in r.findings)


def test_a_figure_gone_from_a_deterministic_run_fails_and_a_new_one_is_a_note():
    # a backend that stops producing a figure (e.g. no typed relationship left to compute a precision over)
    # must not pass where a lower value of the same figure fails
    base = section(BASE, extra={"relationship_typed_precision": 0.25, "entity_f1": 0.8})
    r = run_gate(report(demo=section(BASE, extra={"entity_f1": 0.8, "new_figure": 1.0})), report(demo=base),
                 QUALITY_ONLY)
    assert [f.line() for f in r.regressions] == [
        "REGRESSION demo relationship_typed_precision: 0.250 -> missing (exact: deterministic backend; "
        "the figure is gone from this run)"]
    assert not any(f.metric == "new_figure" for f in r.regressions)
    r = run_gate(report(False, demo=section(BASE, extra={"entity_f1": 0.8})), report(False, demo=base), QUALITY_ONLY)
    assert r.exit_code == 0 and any(f.kind == "note" and f.metric == "relationship_typed_precision"
                                    for f in r.findings)


def test_storage_that_grows_past_the_bounds_fails_a_deterministic_backend():
    def sized(n, deterministic=True):
        return report(deterministic, demo={**section(BASE), "storage_bytes": n})
    base = 4_000_000                                    # bound: 1 % + 64 KiB = 105,536 bytes
    r = run_gate(sized(base + 105_537), sized(base), QUALITY_ONLY)
    assert [f.line() for f in r.regressions] == [
        "REGRESSION demo storage_bytes: 4,000,000 -> 4,105,537 bytes (+2.6%, exact: deterministic backend; "
        "beyond 1% + 64 KiB fails)"]
    assert run_gate(sized(base + 105_536), sized(base), QUALITY_ONLY).exit_code == 0   # a few pages more elsewhere
    shrunk = run_gate(sized(base // 2), sized(base), QUALITY_ONLY)
    assert shrunk.exit_code == 0 and [f.kind for f in shrunk.findings if f.metric == "storage_bytes"] == ["improvement"]
    # not gated for a backend without deterministic quality, nor when --metrics leaves it out
    assert run_gate(sized(2 * base, False), sized(base, False), QUALITY_ONLY).exit_code == 0
    assert run_gate(sized(2 * base), sized(base), GateOptions(latency=(), metrics=("ndcg@10",))).exit_code == 0


def test_storage_is_compared_only_on_one_machine_with_the_same_storage_libraries():
    def sized(n, machine=MACHINE, packages=None):
        return Report("demo-backend", [], {"demo": {**section(BASE), "storage_bytes": n}},
                      {"machine": machine, "packages": packages or {"hyperscan": "0.9.1", "lmdb": "3.0.0"}},
                      {"declared": True, "repetitions": 2})
    base = sized(4_000_000)
    assert run_gate(sized(8_000_000), base, QUALITY_ONLY).exit_code == 1
    for other in (sized(8_000_000, machine={**MACHINE, "cpu_model": "Other CPU"}),    # Hyperscan compiles per CPU
                  sized(8_000_000, packages={"hyperscan": "0.9.2", "lmdb": "3.0.0"})):
        r = run_gate(other, base, QUALITY_ONLY)
        assert r.exit_code == 0 and not any(f.metric == "storage_bytes" for f in r.findings)
        (note,) = [f.line() for f in r.findings if f.metric == "storage"]
        assert note.startswith("note * storage: not gated: ") and ("Other CPU" in note or "0.9.2" in note)
