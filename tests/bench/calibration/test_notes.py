"""bench.calibration.notes: the note prior fitted on the notes' calibration instance, the histories beside it."""
from __future__ import annotations

import io

import pytest

from bench.calibration import lexical, notes
from bench.scenario.suites import scenarios_dir, suites
from reference.lexical.params import TUNED


@pytest.fixture(scope="module")
def stream():
    return lexical.load_stream(scenarios_dir() / f"{notes.NOTES}.jsonl")


@pytest.fixture(scope="module")
def lane_runs():
    """`lane_on_notes` once (two runs of the scenario through the harness) and the `LANE` it started with."""
    from reference.lane import hybrid
    committed = hybrid.LANE
    return notes.lane_on_notes(scenarios_dir() / f"{notes.NOTES}.jsonl"), committed


def test_the_notes_instance_is_a_calibration_scenario_in_no_suite():
    assert notes.NOTES.endswith("-calibration")
    assert all(notes.NOTES not in names for names in suites().values())


def test_its_memories_are_notes_written_over_time(stream):
    # no files_changed metadata (commits would keep the whole-score prior), and a clock moved by advance_clock
    # (at one write moment the prior would change no ranking)
    assert not any(stream.commits)
    assert len(set(stream.times)) > len(stream.times) // 2
    cached = [lexical.parts_of(stream, TUNED)]
    assert notes.score(cached, TUNED.with_(note_prior="sum")) != notes.score(cached, TUNED.with_(note_prior="first"))


def test_commits_are_scored_as_notes_only_when_asked(stream):
    commits = lexical.Stream(stream.name, stream.texts, stream.ids, stream.times, [True] * len(stream.texts),
                             stream.queries, stream.vectors, stream.qvectors)
    cached = [lexical.parts_of(commits, TUNED)]
    sum_, first = TUNED.with_(note_prior="sum"), TUNED.with_(note_prior="first")
    assert notes.score(cached, first) == notes.score(cached, sum_)      # a commit's prior scales its whole score
    assert notes.score(cached, first, every_memory_a_note=True) == notes.score([lexical.parts_of(stream, TUNED)], first)


def test_the_choice_needs_a_gain_of_one_querys_share():
    def results(sum_, first):
        return [("note prior on the sum", 0.4, sum_), ("note prior on the first stage", 0.4, first)]
    assert notes.choose(results(0.70, 0.80), 32) == "first"
    assert notes.choose(results(0.70, 0.72), 32) == "sum"      # under 1/32: a tie, the seed's form
    assert notes.choose(results(0.80, 0.70), 32) == "sum"


def test_run_prints_each_setting_and_chooses_the_committed_value(stream, lane_runs, tmp_path, monkeypatch):
    monkeypatch.setattr(lexical, "streams_from", lambda folder: [stream])   # any stream stands in for the histories
    monkeypatch.setattr(notes, "lane_on_notes", lambda path: lane_runs[0])  # run once, by the fixture
    out = io.StringIO()
    assert notes.run(tmp_path, out=out) == TUNED.note_prior == "first"
    text = out.getvalue()
    assert text.count("\n| ") == 2 + len(notes.EVERY_MEMORY_WEIGHTS) + 1   # the rows and the header's rule
    assert "chose note_prior = 'first'" in text and "| no recency prior |" in text
    assert "Memory Lane's ranker mode on knowledge-calibration" in text


def test_memory_lane_is_run_under_each_note_prior_and_its_weights_are_restored(lane_runs):
    from reference.lane import hybrid
    got, committed = lane_runs
    assert set(got) == {"sum", "first"} and got["sum"] != got["first"]     # the notes' prior moves the lane
    assert all(0.0 < v <= 1.0 for v in got.values()) and hybrid.LANE is committed
