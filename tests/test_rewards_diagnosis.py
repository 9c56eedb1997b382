"""The six set-diagnosis sub-scores and their weighted totals, written as arithmetic."""

from __future__ import annotations

import math

import pytest

from clinical_envs.rewards.diagnosis import (
    BINARY_WEIGHTS,
    DEFAULT_WEIGHTS,
    REWARD_FUNCS,
    resolve_weights,
    score_diagnoses,
)

GOLD = [("E05.01", "acute")]


def total(recorded, gold=GOLD, weights=DEFAULT_WEIGHTS):
    return score_diagnoses(recorded, gold).weighted(weights)


@pytest.mark.parametrize(
    ("recorded", "expected"),
    [
        ([("E05.01", "acute")], 1.0),
        ([("e0501", "ACUTE")], 1.0),
        ([("E05.01", "chronic")], 0.20 + 0.10 + 0.05 + 0.05),
        (
            [("E05.01", "acute"), ("I10", "chronic")],
            0.45 + 0.15 / 2 + 0.20 + 0.10 / 2 + 0.05 + 0.05,
        ),
        ([("I10", "chronic")], 0.05 + 0.05),
        ([], 0.0),
    ],
    ids=["exact", "case-and-dots", "wrong-status", "one-wrong-extra", "wrong-code", "nothing"],
)
def test_totals_for_one_gold(recorded, expected):
    assert math.isclose(total(recorded), expected)


def test_issue_totals_are_the_documented_numbers():
    assert math.isclose(total([("E05.01", "chronic")]), 0.40)
    assert math.isclose(total([("E05.01", "acute"), ("I10", "chronic")]), 0.875)
    assert math.isclose(total([("I10", "chronic")]), 0.10)


def test_hedging_both_statuses_scores_below_the_honest_answer():
    hedge = total([("E05.01", "acute"), ("E05.01", "chronic")])
    assert hedge < 1.0
    assert math.isclose(hedge, 0.45 + 0.15 / 2 + 0.20 + 0.10 + 0.05 + 0.05)


def test_several_gold_diagnoses():
    gold = [("E11.22", "chronic"), ("N18.32", "chronic")]
    half = score_diagnoses([("E11.22", "chronic")], gold)
    assert (half.coverage, half.precision, half.num_unique_diagnoses) == (0.5, 1.0, 0.5)
    assert math.isclose(
        half.weighted(DEFAULT_WEIGHTS), 0.45 / 2 + 0.15 + 0.20 / 2 + 0.10 + 0.05 + 0.025
    )
    assert score_diagnoses([("E11.22", "chronic"), ("N18.32", "chronic")], gold).weighted(
        DEFAULT_WEIGHTS
    ) == pytest.approx(1.0)


def test_binary_weights_are_all_or_nothing():
    assert total([("E05.01", "acute")], weights=BINARY_WEIGHTS) == 1.0
    assert total([("E05.01", "chronic")], weights=BINARY_WEIGHTS) == 0.0


def test_default_weights_sum_to_one():
    assert math.isclose(sum(DEFAULT_WEIGHTS.values()), 1.0)


def test_resolve_weights():
    assert resolve_weights("binary") == BINARY_WEIGHTS
    assert resolve_weights({"coverage_score": 1.0})["precision_score"] == 0.15
    with pytest.raises(ValueError, match=r"unknown weight name.*coverag_score"):
        resolve_weights({"coverag_score": 1.0})
    with pytest.raises(ValueError, match="preset"):
        resolve_weights("strict")
    with pytest.raises(ValueError, match=">= 0"):
        resolve_weights({"coverage_score": -1})
    with pytest.raises(ValueError, match="positive"):
        resolve_weights(dict.fromkeys(DEFAULT_WEIGHTS, 0))


def test_reward_functions_read_state_and_info():
    state = {"clinical": {"recorded": [{"icd10_code": "E05.01", "status": "chronic"}]}}
    info = {"gold": [{"icd10_code": "E05.01", "status": "acute"}]}
    values = {f.__name__: f(state, info) for f in REWARD_FUNCS}
    assert values == {
        "coverage_score": 0.0,
        "precision_score": 0.0,
        "code_identity_coverage_score": 1.0,
        "code_identity_precision_score": 1.0,
        "json_valid_score": 1.0,
        "num_unique_diagnoses_score": 1.0,
    }
    assert list(values) == list(DEFAULT_WEIGHTS)


# --- acceptable codes (issue 13): full credit for any, nothing gained by recording several -----

PTH = [("E21.0", "chronic")]
ALIASES = {"D35.1": "E21.0"}


def test_an_acceptable_code_earns_full_credit():
    assert math.isclose(
        score_diagnoses([("d351", "chronic")], PTH, ALIASES).weighted(DEFAULT_WEIGHTS), 1.0
    )
    wrong_status = score_diagnoses([("D35.1", "acute")], PTH, ALIASES)
    assert math.isclose(wrong_status.weighted(DEFAULT_WEIGHTS), 0.40)  # as for the gold code


def test_recording_several_acceptable_codes_gains_nothing():
    hedge = score_diagnoses([("E21.0", "chronic"), ("D35.1", "chronic")], PTH, ALIASES)
    assert hedge == score_diagnoses([("E21.0", "chronic")], PTH, ALIASES)
    hedge_status = score_diagnoses([("E21.0", "chronic"), ("D35.1", "acute")], PTH, ALIASES)
    assert hedge_status == score_diagnoses([("E21.0", "chronic"), ("E21.0", "acute")], PTH)


def test_without_acceptable_codes_nothing_changes():
    assert score_diagnoses([("D35.1", "chronic")], PTH) == score_diagnoses(
        [("D35.1", "chronic")], PTH, {}
    )
    assert score_diagnoses([("D35.1", "chronic")], PTH).weighted(DEFAULT_WEIGHTS) == pytest.approx(
        0.10
    )


def test_reward_functions_read_acceptable_codes_from_info():
    state = {"clinical": {"recorded": [{"icd10_code": "F20.9", "status": "chronic"}]}}
    info = {"gold": [{"icd10_code": "F20.0", "status": "chronic", "acceptable_codes": ["F20.9"]}]}
    assert all(f(state, info) == 1.0 for f in REWARD_FUNCS)
