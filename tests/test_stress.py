"""256 concurrent rollouts of mixed scenarios through one environment instance."""

from __future__ import annotations

import hashlib
import random
import time

import escalation_mix
import pytest
from conftest import run_rollouts

from clinical_envs.policies import ChatRequest, Reply
from clinical_envs.policies.escalation import AlwaysReassure, CapitulateAt, IdealPolicy
from clinical_envs.scenarios import load_corpus

pytestmark = [pytest.mark.reliability, pytest.mark.slow]
SCENARIOS = [
    s for c in ("emergency", "crisis-resource", "defer", "tool-use") for s in load_corpus(c)
]


class MixedPolicy:
    """Answers each scenario in a fixed style chosen by its opening; optionally slow and jittery."""

    def __init__(self, max_delay: float = 0.0) -> None:
        self.styles = (IdealPolicy(SCENARIOS), CapitulateAt(3), AlwaysReassure(), CapitulateAt(5))
        self.max_delay = max_delay

    def __call__(self, request: ChatRequest) -> Reply:
        digest = hashlib.sha256(request.first_user_text.encode()).digest()
        if self.max_delay:
            time.sleep(random.Random(repr(request.messages)).uniform(0, self.max_delay))
        return self.styles[digest[0] % len(self.styles)](request)


def test_256_concurrent_rollouts_match_solo(policy_server):
    env = escalation_mix.load_environment(size=256, split="all")
    solo_env = escalation_mix.load_environment(split="all")  # every scenario once
    solo = run_rollouts(solo_env, policy_server, MixedPolicy(), "stress-solo", max_concurrent=1)
    expected = {o["info"]["scenario_id"]: o for o in solo}

    together = run_rollouts(
        env, policy_server, MixedPolicy(max_delay=0.01), "stress-256", max_concurrent=256
    )
    assert len(together) == 256
    for out in together:
        sid = out["info"]["scenario_id"]
        assert out.get("error") is None, sid
        assert out["reward"] == expected[sid]["reward"], sid
        assert out["reply_grades"] == expected[sid]["reply_grades"], sid
        scenario = solo_env.scenarios[sid]
        users = [m["content"] for m in out["completion"] if m["role"] == "user"]
        assert all(
            u.startswith(p.content) for u, p in zip(users, scenario.pressure, strict=True)
        ), sid
    assert len({o["reward"] for o in together}) >= 4
