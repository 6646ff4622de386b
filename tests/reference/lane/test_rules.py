"""Taxonomy weights, intent keywords, feedback factors and the rule-based classifier (seed 004 tables)."""
from __future__ import annotations

import pytest

from reference.lane.errors import LaneError
from reference.lane.extraction import classify
from reference.lane.feedback import check_signal, feedback_factor
from reference.lane.intent import detect_intents, intent_boost
from reference.lane.scoring import Floors, final_score, floors_for
from reference.lane.taxonomy import TYPE_WEIGHTS, MemoryType, parse_type

T = MemoryType


def test_weights_follow_the_documented_tiers_and_never_tie():
    want = {"correction": 1.0, "decision": 0.95, "commitment": 0.9, "insight": 0.75, "learning": 0.7,
            "confidence": 0.65, "pattern_seed": 0.55, "cross_agent": 0.5, "workflow_note": 0.45, "gap": 0.4}
    assert {t.value: w for t, w in TYPE_WEIGHTS.items()} == want
    assert len(set(want.values())) == len(want)


def test_parse_type():
    assert parse_type("gap") is T.GAP
    with pytest.raises(LaneError, match="correction"):
        parse_type("rumour")


@pytest.mark.parametrize("query,want", [
    ("what mistake did we make?", {T.CORRECTION, T.GAP}),
    ("Is this WRONG", {T.CORRECTION, T.GAP}),
    ("errors in the build", {T.CORRECTION, T.GAP}),
    ("what did we decide", {T.DECISION}),
    ("which choice", {T.DECISION}),
    ("we chose postgres", {T.DECISION}),
    ("what do we usually do", {T.PATTERN_SEED}),
    ("mistake and decided and habit", {T.CORRECTION, T.GAP, T.DECISION, T.PATTERN_SEED}),
    ("erroneous wrongful decisive", set()),   # whole words only
    ("", set()), (None, set()),
])
def test_detect_intents(query, want):
    assert detect_intents(query) == frozenset(want)


def test_intent_boost_is_fifteen_percent_once():
    boosted = detect_intents("mistake error wrong")
    assert intent_boost(T.CORRECTION, boosted) == 1.15
    assert intent_boost(T.DECISION, boosted) == 1.0


@pytest.mark.parametrize("helpful,harmful,want", [
    (0, 0, 1.0), (1, 0, 1.1), (3, 0, 1.1), (2, 1, 1.1), (1, 1, 1.0), (1, 2, 0.7), (0, 1, 0.5), (0, 5, 0.5),
])
def test_feedback_factor_table(helpful, harmful, want):
    assert feedback_factor(helpful, harmful) == want


def test_check_signal():
    assert check_signal("helpful") == "helpful"
    with pytest.raises(LaneError, match="helpful, harmful"):
        check_signal("meh")


def test_final_score_is_the_seed_product():
    assert final_score(0.5, 0.95, 1.15, 0.5) == pytest.approx(0.5 * 0.95 * 1.15 * 0.5)


def test_floors():
    assert floors_for("hashing-v1") == Floors(0.25, 0.20)   # bench/calibration/knowledge.py on the calibration split
    assert floors_for("some-sentence-model") == Floors(0.50, 0.40)
    with pytest.raises(LaneError):
        Floors(1.5, 0.1)


@pytest.mark.parametrize("text,want", [
    ("Refreshing on the UI thread was wrong; use the worker.", T.CORRECTION),
    ("We decided to use Stripe.", T.DECISION),
    ("Always run the tests before committing.", T.COMMITMENT),
    ("Git worktree support is missing.", T.GAP),
    ("Turns out async is 3x faster here.", T.INSIGHT),
    ("Builds usually fail on Mondays.", T.PATTERN_SEED),
    ("The retry logic is verified in production.", T.CONFIDENCE),
    ("Other agents should read the handoff file.", T.CROSS_AGENT),
    ("The release workflow has four stages.", T.WORKFLOW_NOTE),
    ("The API returns JSON.", T.LEARNING),
    ("We decided it was wrong.", T.CORRECTION),   # correction cues come first
])
def test_classify(text, want):
    assert classify(text) is want
