"""bench.calibration.notes: the history-fitted constants scored on the notes' calibration instance."""
from __future__ import annotations

import io

import pytest

from bench.calibration import lexical, notes
from bench.scenario.suites import scenarios_dir, suites
from reference.lexical.params import TUNED


@pytest.fixture(scope="module")
def stream():
    return lexical.load_stream(scenarios_dir() / f"{notes.NOTES}.jsonl")


def test_the_notes_instance_is_a_calibration_scenario_in_no_suite():
    assert notes.NOTES.endswith("-calibration")
    assert all(notes.NOTES not in names for names in suites().values())


def test_the_committed_setting_scores_as_the_lexical_stage_scores_it(stream):
    cached = [lexical.parts_of(stream, TUNED)]
    assert notes.score(cached, TUNED) == lexical.fused_ndcg(cached, TUNED)[1]


def test_the_notes_are_written_over_time_so_the_prior_moves_their_ranking(stream):
    # their clock moves by advance_clock: at one write moment the prior would change no ranking
    assert len(set(stream.times)) > len(stream.times) // 2
    cached = [lexical.parts_of(stream, TUNED)]
    assert notes.score(cached, TUNED) != notes.score(cached, TUNED.with_(recency_weight=0.0))
    assert notes.score(cached, TUNED) != notes.score(cached, TUNED, on_first=True)


def test_rows_name_each_setting_and_the_table_prints_them(stream):
    results = notes.rows([stream], [stream])
    assert [label for label, _, _ in results][:2] == [
        f"TUNED as committed (x {TUNED.recency_weight:g} prior on the sum)", "no recency prior"]
    assert len(results) == 2 + len(notes.FIRST_STAGE_WEIGHTS)
    assert all(h == n and 0.0 < n <= 1.0 for _, h, n in results)   # the same stream on both sides
    text = notes.table(results)
    assert text.count("\n") == len(results) + 1 and "| no recency prior |" in text
