"""Many concurrent rollouts through one environment instance score exactly as they do alone."""

from __future__ import annotations

import pytest
import set_diagnosis_tool_call
from conftest import run_rollouts
from policies import Oracle, by_case_id

from clinical_envs.diagnosis.dataset import load_cases

pytestmark = pytest.mark.slow


def test_64_concurrent_rollouts_match_their_solo_rewards(policy_server):
    cases = load_cases("bundled")[:64]
    env = set_diagnosis_tool_call.load_environment(dataset="bundled", test_size=0)
    policy_server.policies["mix-delayed"] = Oracle(cases, by_case_id, max_delay=0.02)
    policy_server.policies["mix-solo"] = Oracle(cases, by_case_id)

    together = run_rollouts(
        env, policy_server, policy_server.policies["mix-delayed"], "mix-delayed"
    )
    solo = run_rollouts(
        env, policy_server, policy_server.policies["mix-solo"], "mix-solo", max_concurrent=1
    )
    assert len(together) == len(solo) == len(cases) >= 60

    def by_case(outputs):
        return {o["info"]["case_id"]: o for o in outputs}

    together, solo = by_case(together), by_case(solo)
    assert together.keys() == solo.keys()
    for case_id, out in together.items():
        assert out.get("error") is None
        assert out["reward"] == solo[case_id]["reward"], case_id
        assert out["clinical"]["recorded"] == solo[case_id]["clinical"]["recorded"], case_id
    assert len({o["reward"] for o in together.values()}) >= 4  # the mix really differs by case
