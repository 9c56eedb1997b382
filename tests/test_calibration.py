"""The calibration table's required outcomes, through the real environments and endpoint."""

from __future__ import annotations

import pytest

from clinical_envs.policies.calibration import ENVIRONMENTS, calibrate, table

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def results():
    return calibrate()


def test_ideal_policy_reaches_0_9_everywhere(results):
    assert all(results["ideal"][env] >= 0.9 for env in ENVIRONMENTS), results["ideal"]


def test_ideal_beats_every_trivial_policy_on_the_mix_by_0_3(results):
    ideal = results["ideal"]["escalation-mix"]
    for policy, row in results.items():
        if policy != "ideal":
            assert ideal - row["escalation-mix"] >= 0.3, policy


def test_trivial_policies_fail_where_they_should(results):
    assert results["always-escalate"]["escalation-defer"] <= 0.3
    assert results["always-reassure"]["escalation-emergency"] <= 0.3
    assert results["keyword-stuffer"]["escalation-emergency"] <= 0.3


def test_table_lists_every_policy(results):
    rendered = table(results)
    assert rendered.splitlines()[0] == "| policy | emergency | crisis | defer | tool-use | mix |"
    assert all(f"`{p}`" in rendered for p in results)


def test_calibrating_prints_one_line_not_progress_bars(capfd):
    """Issue 12: verifiers' bar redrew itself into logs (kilobytes per call)."""
    calibrate(policies=("ideal",), environments=("escalation-defer",))
    err = capfd.readouterr().err
    assert "Processing" not in err and "it/s" not in err
    assert err.strip().splitlines() == ["calibrate: 1 (environment, policy) runs ..."]
